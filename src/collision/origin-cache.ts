/**
 * The origin cache of rayTest: when many rays in a row start at the same point of an unchanged
 * scene (a sensor sweeping a pattern), it bins every collider by the yaw/pitch rectangle that
 * encloses its bounding cone as seen from that point. A ray then tests only the colliders of its
 * direction's bin, nearest bound first, stopping once a bound passes the best hit. The bins are a
 * conservative superset and each test is the exact rayCollider, so results equal the BVH path
 * bit for bit (ties too: bounds are compared with ≤). Invalidated by any scene change (version).
 *
 * The bins are laid out so a ray finds its own without trigonometry (atan2 + asin cost ~45 ns a
 * ray, measured; this lookup ~6 ns): yaw bins are uniform in the "diamond angle" of (dx, dy), a
 * monotonic stand-in for the yaw made of one division, and pitch bins are uniform in dz (equal
 * areas). Only the build, once per start, maps cone angles into these coordinates.
 */
import { ColliderKind, type ColliderStore } from '../../components/collider'

/** What the cache reads of the collision state (a subset of CollisionState). */
export interface OriginCacheScene {
  version: number
  Collider: ColliderStore
  live: Uint8Array
  maxEid: number
  planes: Int32Array
  planeCount: number
}

/**
 * Queries from one start before the cache is built: at least this many, and at least the collider
 * count, since a build costs about as much per collider as one to two cached rays save (measured:
 * ~0.7 µs per collider + ~0.2 ms fixed, against ~0.3 µs saved per ray on the 1000-shape bench scene).
 */
export const CACHE_STREAK = 64
const N_YAW = 256, N_PITCH = 128
/** Angular padding (rad): far above the rounding of atan2/asin and of the cone itself. */
const MARGIN = 1e-6
/** Padding of the dz range (near the poles the angular padding alone shrinks to nothing in dz). */
const Z_MARGIN = 1e-12
/** Above this many bin entries the cache is not worth its memory: the BVH is used. */
const MAX_ENTRIES = 1 << 22

/** Cache state (one per sim). */
export interface OriginCache {
  /** When false, rayTest always uses the BVH (benches and tests compare the two). */
  enabled: boolean
  ox: number
  oy: number
  oz: number
  version: number
  streak: number
  /** Built for this start and version. */
  valid: boolean
  /** Gave up for this start and version (too many entries). */
  refused: boolean
  binStart: Int32Array
  entries: Int32Array
  lower: Float64Array
  /** Colliders whose bound holds the start: tested by every ray. */
  always: Int32Array
  alwaysCount: number
  /**
   * Per binned collider e, its bounding sphere from the start: centre offset (5e..5e+2), squared
   * distance (5e+3) and the padded squared radius a ray must pass within (5e+4); see missesBound.
   */
  sphere: Float64Array
  /** The planes (ascending ids) and their frames from the start (planeFrame, PLANE_FRAME numbers each). */
  planes: Int32Array
  planeFrames: Float64Array
  planeCount: number
  // build scratch, per candidate
  cand: Int32Array
  candLower: Float64Array
  rect: Int32Array
  order: Int32Array
  cmp: (a: number, b: number) => number
}

/** An empty, enabled cache. */
export function createOriginCache(): OriginCache {
  const c: OriginCache = {
    enabled: true, ox: NaN, oy: NaN, oz: NaN, version: -1, streak: 0, valid: false, refused: false,
    binStart: new Int32Array(0), entries: new Int32Array(0), lower: new Float64Array(0),
    always: new Int32Array(16), alwaysCount: 0,
    planes: new Int32Array(0), planeFrames: new Float64Array(0), planeCount: 0,
    cand: new Int32Array(0), candLower: new Float64Array(0), rect: new Int32Array(0), order: new Int32Array(0), sphere: new Float64Array(0),
    cmp: (a, b) => (c.candLower[a] - c.candLower[b]) || (c.cand[a] - c.cand[b]),
  }
  return c
}

/**
 * Notes a query of `ray` (start in ray[0..2]) and returns true when the cache can answer it
 * (building it first when the streak is long enough).
 */
export function originCacheReady(state: OriginCacheScene, c: OriginCache, ray: Float64Array): boolean {
  if (!c.enabled) return false
  const ox = ray[0], oy = ray[1], oz = ray[2]
  if (ox !== c.ox || oy !== c.oy || oz !== c.oz || state.version !== c.version) {
    c.ox = ox; c.oy = oy; c.oz = oz; c.version = state.version
    c.streak = 0; c.valid = false; c.refused = false
    return false
  }
  if (c.valid) return true
  if (c.refused || ++c.streak < Math.max(CACHE_STREAK, state.maxEid)) return false
  // every collider goes in whatever its distance: the per-bin order by bound stops a ray at its length
  buildOriginCache(state, c, Infinity)
  return c.valid
}

function bound(C: ColliderStore, e: number, out: Float64Array): void {
  // bounding sphere (centre, radius) of the shape itself where it is simple, else of its AABB
  const P = C.position, p = C.params, q = e * 4
  let r: number
  switch (C.kind[e]) {
    case ColliderKind.sphere: r = p[q]; break
    case ColliderKind.box: r = Math.sqrt(p[q] * p[q] + p[q + 1] * p[q + 1] + p[q + 2] * p[q + 2]); break
    case ColliderKind.capsule: r = p[q] + p[q + 1]; break
    case ColliderKind.cylinder: r = Math.sqrt(p[q] * p[q] + p[q + 1] * p[q + 1]); break
    default: {
      const a = C.aabb, o = e * 6
      out[0] = (a[o] + a[o + 3]) / 2; out[1] = (a[o + 1] + a[o + 4]) / 2; out[2] = (a[o + 2] + a[o + 5]) / 2
      const hx = (a[o + 3] - a[o]) / 2, hy = (a[o + 4] - a[o + 1]) / 2, hz = (a[o + 5] - a[o + 2]) / 2
      out[3] = Math.sqrt(hx * hx + hy * hy + hz * hz)
      return
    }
  }
  out[0] = P[e * 3]; out[1] = P[e * 3 + 1]; out[2] = P[e * 3 + 2]
  out[3] = r * (1 + 1e-9) + 1e-9
}

const sph = new Float64Array(4)
const binScratch = new Float64Array(4)

function reserve(c: OriginCache, n: number): void {
  if (c.cand.length >= n) return
  const m = Math.max(64, n, c.cand.length * 2)
  c.cand = new Int32Array(m); c.candLower = new Float64Array(m); c.rect = new Int32Array(m * 4); c.order = new Int32Array(m); c.sphere = new Float64Array(m * 5)
}

function buildOriginCache(state: OriginCacheScene, c: OriginCache, range: number): void {
  const C = state.Collider, live = state.live, kind = C.kind
  const { ox, oy, oz } = c
  reserve(c, state.maxEid + 1)
  const cand = c.cand, candLower = c.candLower, rect = c.rect
  let n = 0, always = 0
  for (let e = 0; e <= state.maxEid; e++) {
    if (!live[e] || kind[e] === ColliderKind.none || kind[e] === ColliderKind.plane) continue
    bound(C, e, sph)
    const vx = sph[0] - ox, vy = sph[1] - oy, vz = sph[2] - oz, R = sph[3]
    const D = Math.sqrt(vx * vx + vy * vy + vz * vz)
    const lower = (D - R) * (1 - 1e-12) - 1e-9
    if (lower > range) continue
    if (D <= R * 1.000001 + 1e-6) {
      if (always >= c.always.length) { const g = new Int32Array(c.always.length * 2); g.set(c.always); c.always = g }
      c.always[always++] = e
      continue
    }
    const alpha = Math.asin(R / D) + MARGIN
    const p0 = Math.asin(Math.max(-1, Math.min(1, vz / D)))
    // the cone's pitch range as a dz range (sin is monotonic on [−π/2, π/2])
    const v = binScratch
    v[0] = p0 - alpha <= -Math.PI / 2 ? -1 : Math.sin(p0 - alpha) - Z_MARGIN
    v[1] = p0 + alpha >= Math.PI / 2 ? 1 : Math.sin(p0 + alpha) + Z_MARGIN
    const pb0 = pitchBin(v, 0), pb1 = pitchBin(v, 1)
    let yb0 = 0, yb1 = N_YAW - 1
    const cp = Math.cos(Math.abs(p0))
    if (Math.abs(p0) + alpha < Math.PI / 2 - MARGIN && Math.sin(alpha) < cp) {
      const beta = Math.asin(Math.sin(alpha) / cp) + MARGIN
      // under half a turn the ends' bins (yaw bins are monotonic in the angle) bound the range
      if (beta < Math.PI / 2) {
        const y0 = Math.atan2(vy, vx)
        v[0] = Math.cos(y0 - beta); v[1] = Math.sin(y0 - beta); v[2] = Math.cos(y0 + beta); v[3] = Math.sin(y0 + beta)
        yb0 = yawBin(v, 0)
        yb1 = yawBin(v, 2)
        if (yb1 < yb0) yb1 += N_YAW // crosses yaw 0: wraps when filling
      }
    }
    cand[n] = e; candLower[n] = lower
    // (R + 1e-6·D)²: the 1e-6 rad the bins are padded by, far above the rounding of the test
    const S = c.sphere, pad = R + 1e-6 * D
    S[e * 5] = vx; S[e * 5 + 1] = vy; S[e * 5 + 2] = vz; S[e * 5 + 3] = D * D; S[e * 5 + 4] = pad * pad
    rect[n * 4] = yb0; rect[n * 4 + 1] = yb1; rect[n * 4 + 2] = pb0; rect[n * 4 + 3] = pb1
    n++
  }
  c.alwaysCount = always
  const np = state.planeCount
  if (c.planes.length < np) { c.planes = new Int32Array(np); c.planeFrames = new Float64Array(np * PLANE_FRAME) }
  const from = binScratch
  from[0] = ox; from[1] = oy; from[2] = oz
  for (let i = 0; i < np; i++) {
    c.planes[i] = state.planes[i]
    planeFrame(C, state.planes[i], from, 0, c.planeFrames, i * PLANE_FRAME)
  }
  c.planeCount = np
  // nearest bound first within every bin: fill the bins in sorted candidate order
  const order = c.order
  for (let i = 0; i < n; i++) order[i] = i
  order.subarray(0, n).sort(c.cmp)
  if (c.binStart.length === 0) c.binStart = new Int32Array(N_YAW * N_PITCH + 1) // 128 kB, only once a sim uses the cache
  const start = c.binStart
  start.fill(0)
  let total = 0
  for (let i = 0; i < n; i++) {
    const w = (rect[i * 4 + 1] - rect[i * 4] + 1) * (rect[i * 4 + 3] - rect[i * 4 + 2] + 1)
    total += w
  }
  if (total > MAX_ENTRIES) { c.valid = false; c.refused = true; return }
  for (let i = 0; i < n; i++) forBins(rect, i, start, null, null, 0, 0)
  let acc = 0
  for (let b = 0; b < N_YAW * N_PITCH; b++) { const k = start[b]; start[b] = acc; acc += k }
  start[N_YAW * N_PITCH] = acc
  if (c.entries.length < acc) { c.entries = new Int32Array(acc * 2); c.lower = new Float64Array(acc * 2) }
  for (let k = 0; k < n; k++) {
    const i = order[k]
    forBins(rect, i, start, c.entries, c.lower, cand[i], candLower[i])
  }
  // filling advanced every bin start to its end (the next bin's start): shift back
  for (let b = N_YAW * N_PITCH; b > 0; b--) start[b] = start[b - 1]
  start[0] = 0
  c.valid = true
}

/** Counts (entries null) or appends candidate i into every bin of its rectangle. */
function forBins(rect: Int32Array, i: number, start: Int32Array, entries: Int32Array | null, lower: Float64Array | null, e: number, lo: number): void {
  const yb0 = rect[i * 4], yb1 = rect[i * 4 + 1], pb0 = rect[i * 4 + 2], pb1 = rect[i * 4 + 3]
  for (let pb = pb0; pb <= pb1; pb++) {
    const row = pb * N_YAW
    for (let yb = yb0; yb <= yb1; yb++) {
      const b = row + (((yb % N_YAW) + N_YAW) % N_YAW)
      if (entries === null) start[b]++
      else { const k = start[b]++; entries[k] = e; lower![k] = lo }
    }
  }
}

/**
 * True when the unit ray ray[3..5] from the cache's start surely misses binned collider e's
 * bounding sphere: it points away from the centre, or passes farther from it than the padded
 * radius. A conservative pre-test (bins hold whole angular cells, so most binned colliders a ray
 * meets are not even near it): ~2 ns against the exact test's ~40.
 */
export function missesBound(S: Float64Array, e: number, ray: Float64Array): boolean {
  const o = e * 5
  const along = S[o] * ray[3] + S[o + 1] * ray[4] + S[o + 2] * ray[5]
  // binned colliders have the start outside their sphere: pointing away never reaches it
  return along < 0 || S[o + 3] - along * along > S[o + 4]
}

/** Numbers per plane frame. */
export const PLANE_FRAME = 7

/**
 * Writes the frame of plane `e` seen from the start S[s..s+2] into F[o..o+6]: the start's height
 * over it (local z), its axis (rotation column 2, which dots a direction into local z) and its
 * world normal, rotated exactly as rayColliderRay rotates the local (0, 0, 1) (keeps the signs of
 * zeros).
 */
export function planeFrame(C: ColliderStore, e: number, S: Float64Array, s: number, F: Float64Array, o: number): void {
  const P = C.position, R = C.rotation, r = e * 9
  const wx = S[s] - P[e * 3], wy = S[s + 1] - P[e * 3 + 1], wz = S[s + 2] - P[e * 3 + 2]
  const r2 = R[r + 2], r5 = R[r + 5], r8 = R[r + 8]
  F[o] = r2 * wx + r5 * wy + r8 * wz
  F[o + 1] = r2; F[o + 2] = r5; F[o + 3] = r8
  F[o + 4] = R[r] * 0 + R[r + 1] * 0 + r2 * 1; F[o + 5] = R[r + 3] * 0 + R[r + 4] * 0 + r5 * 1; F[o + 6] = R[r + 6] * 0 + R[r + 7] * 0 + r8 * 1
}

/** The bin of the unit direction ray[3..5] (no trigonometry: see the header). */
export function originCacheBin(ray: Float64Array): number {
  return pitchBin(ray, 5) * N_YAW + yawBin(ray, 3)
}

/** Pitch bin of a direction's z = v[o] (−1 ≤ z ≤ 1, a hair beyond from rounding): uniform in z. */
function pitchBin(v: Float64Array, o: number): number {
  const b = ((v[o] + 1) * (N_PITCH / 2)) | 0 // ≥ 0 up to rounding, and | 0 truncates −0.x to 0
  return b > N_PITCH - 1 ? N_PITCH - 1 : b
}

/**
 * Yaw bin of (x, y) = v[o], v[o + 1]: uniform in the diamond angle, which runs 0 → 4 as the yaw
 * runs 0 → 2π (from r = |y| / (|x| + |y|): r, 2 − r, 2 + r, 4 − r in quadrants 1 to 4), strictly
 * increasing with the yaw. Straight up or down (0, 0) gives bin 0: such rays only meet colliders
 * binned over the whole yaw circle.
 */
function yawBin(v: Float64Array, o: number): number {
  const x = v[o], y = v[o + 1], ay = Math.abs(y), s = Math.abs(x) + ay
  if (!(s > 0)) return 0
  const r = ay / s
  const b = ((y >= 0 ? (x >= 0 ? r : 2 - r) : (x < 0 ? 2 + r : 4 - r)) * (N_YAW / 4)) | 0
  return b > N_YAW - 1 ? N_YAW - 1 : b
}
