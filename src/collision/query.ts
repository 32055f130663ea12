/**
 * Closest-hit ray queries over the broadphase: planes, then the static and the dynamic BVH,
 * front to back with an early out on the best t so far; rayTest answers runs of rays from one start
 * through the origin cache (origin-cache.ts) with the same results. Exact ties in distance go to the lowest
 * entity id (the lidar follows the same rule because it calls castRay / rayCollider).
 */
import type { CollisionState } from './state'
import { broadphaseStale, updateBroadphase } from './state'
import type { Bvh } from './bvh'
import { rayColliderRay } from './narrowphase'
import { RayCollisionList } from './ray-list'
import { missesBound, originCacheBin, originCacheReady, planeFrame, PLANE_FRAME, type OriginCache } from './origin-cache'

/** Zero direction components are replaced by this so 1/d stays finite and slab tests never make NaN. */
const TINY = 1e-300

/**
 * The closest hittable collider along the world ray o + t·d (d unit, all finite, tMax ≥ 0), or −1.
 * Hittable: (group & mask) !== 0 and not the self body (object === objectId && localId === localId,
 * only when both are ≥ 0). On a hit `out` holds t (out[0]), the world normal (out[1..3]) and the
 * triangle (out[4]: −1 but for a mesh).
 * Brings the broadphase up to date first when anything moved (queries see current poses).
 */
export function castRay(state: CollisionState, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMax: number, objectId: number, localId: number, mask: number, out: Float64Array): number {
  const ray = state.castRay
  ray[0] = ox; ray[1] = oy; ray[2] = oz; ray[3] = dx; ray[4] = dy; ray[5] = dz; ray[6] = tMax
  return castRayR(state, ray, objectId, localId, mask, out)
}

/** castRay with the ray in `ray` = [ox, oy, oz, dx, dy, dz, tMax]; ray[6] ends as the best t (or tMax). */
export function castRayR(state: CollisionState, ray: Float64Array, objectId: number, localId: number, mask: number, out: Float64Array): number {
  if (broadphaseStale(state)) updateBroadphase(state)
  mask |= 0
  let bestEid = castPlanes(state, ray, objectId, localId, mask, out)
  let best = ray[6]
  // the slab tests read the start and the inverse direction from here
  const inv = state.castInv
  const dx = ray[3], dy = ray[4], dz = ray[5]
  inv[0] = ray[0]; inv[1] = ray[1]; inv[2] = ray[2]
  inv[3] = 1 / (dx === 0 ? TINY : dx); inv[4] = 1 / (dy === 0 ? TINY : dy); inv[5] = 1 / (dz === 0 ? TINY : dz)
  for (let tree = 0; tree < 2; tree++) {
    const b: Bvh = tree === 0 ? state.staticTree : state.dynamicTree
    if (b.nodeCount === 0) continue
    const B = b.bounds, first = b.first, count = b.count, prims = b.prims
    const stack = b.stack, stackT = b.stackT
    const t0 = slab(B, 0, inv, ray)
    if (t0 > best) continue
    // descend into the nearer child at once, keep the farther one (with its entry t) on the stack
    let node = 0, sp = 0
    for (;;) {
      const n = count[node]
      if (n > 0) {
        const f = first[node]
        for (let k = f; k < f + n; k++) {
          const e = tryCollider(state, prims[k], ray, bestEid, objectId, localId, mask, out)
          if (e !== bestEid) { bestEid = e; best = ray[6] }
        }
      } else {
        const l = first[node], r = l + 1
        const tl = slab(B, l * 6, inv, ray)
        const tr = slab(B, r * 6, inv, ray)
        if (tl <= best) {
          if (tr <= best) {
            if (tl <= tr) { stack[sp] = r; stackT[sp] = tr; node = l } else { stack[sp] = l; stackT[sp] = tl; node = r }
            sp++
          } else node = l
          continue
        }
        if (tr <= best) { node = r; continue }
      }
      // pop pending nodes until one can still beat the best hit
      while (sp > 0 && stackT[sp - 1] > best) sp--
      if (sp === 0) break
      node = stack[--sp]
    }
  }
  return bestEid
}

/**
 * Tests collider `e` against the best hit so far (t = ray[6], entity bestEid, −1 for none) and
 * returns the new best entity: `e` when it passes the filters and hits nearer (or at the same t
 * with a lower id), writing its t into ray[6] and out[0] and its normal into out[1..3]; else
 * bestEid, leaving ray and out alone.
 */
export function tryCollider(state: CollisionState, e: number, ray: Float64Array, bestEid: number, objectId: number, localId: number, mask: number, out: Float64Array): number {
  if (!hittable(state.Collider, e, objectId, localId, mask)) return bestEid
  const tmp = state.hitScratch
  if (!rayColliderRay(state, e, ray, tmp)) return bestEid
  return nearer(e, tmp, ray, bestEid, out)
}

/** The filters: (group & mask) !== 0 and not the self body (object and localId both match, only when both are ≥ 0). */
function hittable(C: CollisionState['Collider'], e: number, objectId: number, localId: number, mask: number): boolean {
  return (C.group[e] & mask) !== 0 && !(objectId >= 0 && localId >= 0 && C.object[e] === objectId && C.localId[e] === localId)
}

/**
 * The tie rule in one place: the hit h = [t, normal] of `e` replaces the best so far (bestEid, −1
 * for none, at t = ray[6]) when nearer, or as near with a lower id; returns the best entity.
 */
function nearer(e: number, h: Float64Array, ray: Float64Array, bestEid: number, out: Float64Array): number {
  const t = h[0]
  if (bestEid >= 0 && (t > ray[6] || (t === ray[6] && e > bestEid))) return bestEid
  ray[6] = t
  out[0] = t; out[1] = h[1]; out[2] = h[2]; out[3] = h[3]; out[4] = h[4]
  return e
}

/** The closest hittable plane (planes are unbounded, so every query tests them all), or −1; ray[6] ends as its t. */
export function castPlanes(state: CollisionState, ray: Float64Array, objectId: number, localId: number, mask: number, out: Float64Array): number {
  let bestEid = -1
  const planes = state.planes, C = state.Collider, frame = state.planeScratch
  for (let i = 0; i < state.planeCount; i++) {
    const e = planes[i]
    if (!hittable(C, e, objectId, localId, mask)) continue
    planeFrame(C, e, ray, 0, frame, 0)
    bestEid = tryPlaneFrame(e, frame, 0, ray, bestEid, out, state.hitScratch)
  }
  return bestEid
}

/**
 * tryCollider for plane `e` seen from the ray's start through its frame F[o..o+6] (planeFrame:
 * the start's height over it, its axis, its normal): the very arithmetic of rayColliderRay +
 * rayPlane, so the same bits, without the general local-ray setup every query would pay for.
 */
function tryPlaneFrame(e: number, F: Float64Array, o: number, ray: Float64Array, bestEid: number, out: Float64Array, h: Float64Array): number {
  const dx = ray[3], dy = ray[4], dz = ray[5], lz = F[o]
  if (lz <= 0) {
    // started inside (local z ≤ 0): t = 0, normal −direction
    h[0] = 0; h[1] = -dx; h[2] = -dy; h[3] = -dz; h[4] = -1
  } else {
    const ldz = F[o + 1] * dx + F[o + 2] * dy + F[o + 3] * dz
    if (ldz >= 0) return bestEid // parallel or pointing away: an upward ray above the ground ends here
    const t = -lz / ldz
    if (t > ray[6]) return bestEid
    h[0] = t; h[1] = F[o + 4]; h[2] = F[o + 5]; h[3] = F[o + 6]; h[4] = -1
  }
  return nearer(e, h, ray, bestEid, out)
}

/** castRay answered from the origin cache (same contract and results; the cache must be ready for this start). */
function castRayCached(state: CollisionState, c: OriginCache, ray: Float64Array, objectId: number, localId: number, mask: number, out: Float64Array): number {
  mask |= 0
  let bestEid = -1
  // the planes' frames from the cache's start were worked out when it was built
  const C = state.Collider, planes = c.planes, frames = c.planeFrames
  for (let i = 0; i < c.planeCount; i++) {
    const e = planes[i]
    if (hittable(C, e, objectId, localId, mask)) bestEid = tryPlaneFrame(e, frames, i * PLANE_FRAME, ray, bestEid, out, state.hitScratch)
  }
  const always = c.always
  for (let i = 0; i < c.alwaysCount; i++) bestEid = tryCollider(state, always[i], ray, bestEid, objectId, localId, mask, out)
  const bin = originCacheBin(ray)
  const entries = c.entries, lower = c.lower, sphere = c.sphere
  for (let k = c.binStart[bin], end = c.binStart[bin + 1]; k < end; k++) {
    if (lower[k] > ray[6]) break
    const e = entries[k]
    if (!missesBound(sphere, e, ray)) bestEid = tryCollider(state, e, ray, bestEid, objectId, localId, mask, out)
  }
  return bestEid
}

/** Entry t (≥ 0) of the ray (start inv[0..2], inverse direction inv[3..5]) into box B[o..o+5] within [0, ray[6]], or Infinity. */
function slab(B: Float64Array, o: number, inv: Float64Array, ray: Float64Array): number {
  const ox = inv[0], oy = inv[1], oz = inv[2], ix = inv[3], iy = inv[4], iz = inv[5]
  let t1 = (B[o] - ox) * ix, t2 = (B[o + 3] - ox) * ix
  let lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1
  t1 = (B[o + 1] - oy) * iy; t2 = (B[o + 4] - oy) * iy
  let a = t1 < t2 ? t1 : t2, c = t1 < t2 ? t2 : t1
  if (a > lo) lo = a
  if (c < hi) hi = c
  t1 = (B[o + 2] - oz) * iz; t2 = (B[o + 5] - oz) * iz
  a = t1 < t2 ? t1 : t2; c = t1 < t2 ? t2 : t1
  if (a > lo) lo = a
  if (c < hi) hi = c
  if (lo < 0) lo = 0
  const tMax = ray[6]
  if (hi > tMax) hi = tMax
  return lo <= hi ? lo : Infinity
}

/**
 * Normalises a ray direction into out[o..o+2] (a zero vector means +z). Returns false
 * when a component is not a finite number (the ray then hits nothing).
 */
export function normalizeDirection(d: ArrayLike<number>, out: Float64Array, o = 0): boolean {
  const x = d[0], y = d[1], z = d[2]
  // only numbers: no coercion (or BigInt throw) in the arithmetic below
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return false
  const l2 = x * x + y * y + z * z
  // m² ≤ l2 ≤ 3m² for m = max |component|: inside this range (with room for rounding) m is in
  // (1e-150, 1e150) and all are finite, so only outside it are the checks needed
  if (!(l2 > 1e-299 && l2 < 1e299)) return normalizeOutsideRange(x, y, z, l2, out, o)
  // no over/underflow (a squared length of exactly 1 needs no special case: sqrt(1) = 1, x / 1 = x)
  const len = Math.sqrt(l2)
  out[o] = x / len; out[o + 1] = y / len; out[o + 2] = z / len
  return true
}

// normalizeDirection's rare cases: zero, non-finite, or squares that would over/underflow
function normalizeOutsideRange(x: number, y: number, z: number, l2: number, out: Float64Array, o: number): boolean {
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) return false
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z))
  if (m === 0) { out[o] = 0; out[o + 1] = 0; out[o + 2] = 1; return true }
  if (!(m > 1e-150 && m < 1e150)) {
    // the squares would over/underflow: scale by m first
    const a = x / m, b = y / m, c = z / m
    const len = Math.sqrt(a * a + b * b + c * c)
    out[o] = a / len; out[o + 1] = b / len; out[o + 2] = c / len
    return true
  }
  const len = Math.sqrt(l2)
  out[o] = x / len; out[o + 1] = y / len; out[o + 2] = z / len
  return true
}

function isVec3(v: unknown): v is ArrayLike<number> {
  return v !== null && typeof v === 'object' && (v as ArrayLike<number>).length >= 3
}

function finiteOr(v: unknown, fallback: number): number {
  return v === undefined ? fallback : typeof v === 'number' ? v : NaN
}

/**
 * sim.rayTest: the closest hit along `direction` from `start` within `length`, into `list`.
 * Never throws: anything non-finite or malformed, or length ≤ 0, gives an empty list.
 */
export function rayTestInto(state: CollisionState, list: RayCollisionList, start: unknown, direction: unknown, length: unknown, objectId: unknown, localId: unknown, collisionMask: unknown): RayCollisionList {
  // the narrowphase takes the ray as one record, not as separate numbers
  list.count = 0
  if (!isVec3(start) || !isVec3(direction) || typeof length !== 'number' || !(length > 0) || !Number.isFinite(length)) return list
  const ox = start[0], oy = start[1], oz = start[2]
  if (!Number.isFinite(ox) || !Number.isFinite(oy) || !Number.isFinite(oz)) return list
  const ray = state.castRay
  if (!normalizeDirection(direction, ray, 3)) return list
  ray[0] = ox; ray[1] = oy; ray[2] = oz; ray[6] = length
  // the filters are usually left out: only then skip their checks
  const e = objectId === undefined && localId === undefined && collisionMask === undefined
    ? castRayTest(state, ray, -1, -1, -1)
    : castRayTestFiltered(state, ray, objectId, localId, collisionMask)
  if (e >= 0) writeHit(state, list, e)
  return list
}

/** rayTestInto's cast with filters given: any non-finite one means no hit (−1, nothing cast). */
function castRayTestFiltered(state: CollisionState, ray: Float64Array, objectId: unknown, localId: unknown, collisionMask: unknown): number {
  const oid = finiteOr(objectId, -1), lid = finiteOr(localId, -1), mask = finiteOr(collisionMask, -1)
  if (!Number.isFinite(oid) || !Number.isFinite(lid) || !Number.isFinite(mask)) return -1
  return castRayTest(state, ray, oid, lid, mask)
}

/** rayTest's cast of `ray` (valid, direction unit): the origin cache when it holds this start, else the BVH. */
function castRayTest(state: CollisionState, ray: Float64Array, objectId: number, localId: number, mask: number): number {
  const c = state.originCache, out = state.castScratch
  // a ready cache for this start: its version proves nothing changed since it was built (after a
  // broadphase update), so neither staleness nor the streak needs looking at
  if (c.valid && c.enabled && ray[0] === c.ox && ray[1] === c.oy && ray[2] === c.oz && state.version === c.version) {
    return castRayCached(state, c, ray, objectId, localId, mask, out)
  }
  return castRayFresh(state, c, ray, objectId, localId, mask, out)
}

// castRayTest when the cache does not hold this start (yet): out of line, so the common case stays small
function castRayFresh(state: CollisionState, c: OriginCache, ray: Float64Array, objectId: number, localId: number, mask: number, out: Float64Array): number {
  if (broadphaseStale(state)) updateBroadphase(state)
  return originCacheReady(state, c, ray) ? castRayCached(state, c, ray, objectId, localId, mask, out) : castRayR(state, ray, objectId, localId, mask, out)
}

/** Fills list with the hit of collider `e` (t and normal in state.castScratch) along state.castRay. */
function writeHit(state: CollisionState, list: RayCollisionList, e: number): void {
  const C = state.Collider, hit = list.hit, out = state.castScratch, ray = state.castRay, t = out[0]
  hit.collider = e
  hit.object = C.object[e]
  hit.localId = C.localId[e]
  hit.distance = t
  const p = hit.position, n = hit.normal
  p[0] = ray[0] + t * ray[3]; p[1] = ray[1] + t * ray[4]; p[2] = ray[2] + t * ray[5]
  n[0] = out[1]; n[1] = out[2]; n[2] = out[3]
  hit.triangle = out[4]
  list.count = 1
}
