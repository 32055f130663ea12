/**
 * The raster strategy of a lidar scan: candidate-major instead of ray-major. Each candidate's
 * bounding cone is rasterised onto the pattern itself: for every yaw sample in the cone's bucket
 * columns (and the candidate's yaw wedge) the pitch samples inside the cone and the candidate's
 * elevation band are found (raster-spans.ts) — once per build, then kept as ray spans while
 * the sensor and scene stand still — and only the rays in them are tested, keeping per ray the closest hit (ties to the
 * lowest entity id, as rayTest). In sparse scenes almost every ray meets no cone at all, so most
 * rays cost nothing but the final pass. Needs pitch samples in [−90°, 90°] in a monotonic order and
 * the whole pattern in the world-ray cache; otherwise the other strategies serve.
 */
import type { LidarBuckets } from './buckets'
import type { LidarRaster } from './types'
import type { LidarCandidates } from './candidates'
import type { LidarDirections } from './directions'
import type { CollisionState } from '../collision/state'
import { lidarLocalStart, lidarTestCandidate, lidarTestShape, planeHitT } from './candidate-test'
import { rayColliderRay } from '../collision/narrowphase'
import { ColliderKind } from '../../components/collider'
import { prepareLidarRaster } from './raster-spans'

export type { LidarRaster } from './types'


/** Creates an empty raster. */
export function createLidarRaster(): LidarRaster {
  return { bestT: new Float64Array(0), bestE: new Int32Array(0), colStart: new Int32Array(1), colYaw: new Int32Array(0), pairs: 0, covered: 0,
    spansValid: false, layout: -1, spanOf: new Int32Array(1), spanQ: new Int32Array(0), rowLo: new Int32Array(0), rowHi: new Int32Array(0), touched: 0,
    soleCand: new Int32Array(0), soleLo: new Int32Array(0), soleHi: new Int32Array(0), owner: new Int32Array(0),
    coverOnce: new Int32Array(0), coverTwice: new Int32Array(0), planeBits: new Int32Array(0) }
}

/** True when the pattern suits the raster: every pitch in [−π/2, π/2] (cos ≥ 0), in a monotonic order. */
export function lidarRasterApplies(d: LidarDirections): boolean {
  for (let p = 0; p < d.pitchCount; p++) if (!(d.cp[p] >= 0)) return false
  const a0 = d.pitchStart, a1 = d.pitchStart + (d.pitchCount - 1) * d.pitchIncrement
  return a0 >= -Math.PI / 2 && a0 <= Math.PI / 2 && a1 >= -Math.PI / 2 && a1 <= Math.PI / 2
}

/**
 * Lists the yaw samples of each bucket column (from the buckets' layout) and estimates the work:
 * `pairs` (candidate, yaw sample) pairs and `covered` ray tests, for the cost model.
 */
export function layoutLidarRaster(r: LidarRaster, d: LidarDirections, b: LidarBuckets, k: LidarCandidates): void {
  const Y = d.yawCount, nYaw = b.nYaw
  if (r.colStart.length < nYaw + 1) r.colStart = new Int32Array(nYaw + 1)
  if (r.colYaw.length < Y) r.colYaw = new Int32Array(Y)
  const start = r.colStart, col = b.colOfYaw
  start.fill(0, 0, nYaw + 1)
  for (let y = 0; y < Y; y++) start[col[y] + 1]++
  for (let c = 0; c < nYaw; c++) start[c + 1] += start[c]
  for (let y = 0; y < Y; y++) r.colYaw[start[col[y]]++] = y
  for (let c = nYaw; c > 0; c--) start[c] = start[c - 1]
  start[0] = 0
  let pairs = 0, covered = 0
  const span = b.span, P = d.pitchCount, rows = b.nRows
  for (let i = 0; i < k.n; i++) {
    if (k.alpha[i] >= Math.PI) { pairs += Y; covered += Y * P; continue }
    const r0 = span[4 * i], r1 = span[4 * i + 1], c0 = span[4 * i + 2], c1 = span[4 * i + 3]
    if (r1 < r0) continue
    const ys = c0 <= c1 ? start[c1 + 1] - start[c0] : start[nYaw] - start[c0] + start[c1 + 1]
    pairs += ys
    covered += ys * Math.max(1, Math.round(((r1 - r0 + 1) / rows) * P))
  }
  r.pairs = pairs
  r.covered = covered
  r.spansValid = false // candidates, grid or pattern changed
}

/**
 * Fills r.bestT / r.bestE with every ray's closest hit among the candidates (bestE −1: none),
 * testing a candidate only on the rays its cone can reach and whose best hit is not already nearer
 * than its lower bound. `org`/`dir` are the cached world rays (`commonOrigin`: all start at
 * org[0..2]); with `bestN` (3 per ray), each best hit's normal goes there unless its collider is
 * a plane (for the attributes): a sphere's, box's, capsule's or cylinder's in its own frame when
 * t > 0, else the world normal. Returns the number of tests run.
 */
export function rasterLidar(state: CollisionState, r: LidarRaster, d: LidarDirections, b: LidarBuckets, k: LidarCandidates, length: number,
  org: Float64Array, dir: Float64Array, commonOrigin: boolean, ray: Float64Array, hit: Float64Array, bestN: Float64Array | null): number {
  const rays = d.yawCount * d.pitchCount
  if (r.bestT.length < rays) { r.bestT = new Float64Array(rays); r.bestE = new Int32Array(rays) }
  prepareLidarRaster(r, d, b, k)
  const bestT = r.bestT, bestE = r.bestE, spanOf = r.spanOf, Q = r.spanQ
  bestT.fill(length, 0, rays)
  bestE.fill(-1, 0, rays)
  let tests = 0
  for (let i = 0, n = k.n; i < n; i++) {
    const low = k.lowerT[i], e = k.eid[i], plane = k.plane[i] === 1
    if (plane) { tests += rasterPlane(state, r, d, i, e, low, spanOf[i], spanOf[i + 1], Q, org, dir, commonOrigin, bestT, bestE); continue }
    const kind = state.Collider.kind[e]
    // spheres, boxes, capsules, cylinders take the shape loop; heightfields and meshes the generic test
    if (kind !== ColliderKind.heightfield && kind !== ColliderKind.mesh) { tests += rasterShape(state, k, i, spanOf[i], spanOf[i + 1], Q, org, dir, commonOrigin, ray, hit, bestT, bestE, bestN); continue }
    for (let s = spanOf[i], sEnd = spanOf[i + 1]; s < sEnd; s++) {
      for (let q = Q[2 * s], qEnd = Q[2 * s + 1]; q <= qEnd; q++) {
        if (low > bestT[q]) continue
        testRay(state, e, plane, q, org, dir, ray, hit, bestT, bestE, bestN)
        tests++
      }
    }
  }
  return tests
}
/**
 * The raster's loop for plane candidate i (the ground: tested by about half of all rays), with the
 * plane's pose read once and, when every ray starts at org[0..2], the start's height over the
 * plane worked out once (lidarTestPlane's arithmetic, so the same bits); a level plane (normal
 * exactly +z) reads the ray's dz as is — 0·dx + 0·dy + 1·dz is dz bit for bit except for a zero dz,
 * which misses either way (−0 ≥ 0). The same tests, order
 * and tie rule as testRay. Rays the plane reaches alone (r.sole*) are left to the final pass.
 * Returns the tests run.
 */
function rasterPlane(state: CollisionState, r: LidarRaster, d: LidarDirections, i: number, e: number, low: number, s0: number, s1: number, Q: Int32Array,
  org: Float64Array, dir: Float64Array, commonOrigin: boolean, bestT: Float64Array, bestE: Int32Array): number {
  const P = state.Collider.position, R = state.Collider.rotation
  const px = P[3 * e], py = P[3 * e + 1], pz = P[3 * e + 2], n2 = R[9 * e + 2], n5 = R[9 * e + 5], n8 = R[9 * e + 8]
  const ozCommon = n2 * (org[0] - px) + n5 * (org[1] - py) + n8 * (org[2] - pz), level = n2 === 0 && n5 === 0 && n8 === 1
  const pc = d.pitchCount, soleCand = r.soleCand, soleLo = r.soleLo, soleHi = r.soleHi
  let tests = 0
  for (let s = s0; s < s1; s++) {
    const a = Q[2 * s], b = Q[2 * s + 1], y = (a / pc) | 0
    // the span minus the row's sole run (a hemisphere cone's span lies within one row)
    const cut = soleCand[y] === i, skipLo = cut ? y * pc + soleLo[y] : b + 1, skipHi = cut ? y * pc + soleHi[y] : b
    for (let q = a; q <= b; q++) {
      if (q === skipLo) { q = skipHi; continue }
      const best = bestT[q]
      if (low > best) continue
      tests++
      const o = 3 * q
      const oz = commonOrigin ? ozCommon : n2 * (org[o] - px) + n5 * (org[o + 1] - py) + n8 * (org[o + 2] - pz)
      const t = planeHitT(oz, level ? dir[o + 2] : n2 * dir[o] + n5 * dir[o + 1] + n8 * dir[o + 2], best)
      if (t >= 0 && (t < best || bestE[q] < 0 || (t === best && e < bestE[q]))) { bestT[q] = t; bestE[q] = e }
    }
  }
  return tests
}

/**
 * The raster's loop for a sphere, box, capsule or cylinder candidate i, through lidarTestShape (the
 * narrow phase without the normal; with a shared start, its local start worked out once). A
 * capsule or cylinder first skips rays whose line passes farther than its radius from its axis
 * line: |v·(w × a)| > r·|w × a| (v = centre − start, w the ray, a the axis; no division or root,
 * and the comparison allows for its rounding, so it never skips a ray that can hit), which ends
 * most misses of long thin shapes before the narrow phase. Otherwise the same tests, order and
 * tie rule as testRay. `L` is scratch for the local ray. With `bestN`, a new best hit's normal
 * goes there: the shape test's local one (the final pass, raster-hits.ts, turns it to the
 * world once per point), or for a start inside or on the surface (t = 0) rayColliderRay's own
 * world normal.
 */
function rasterShape(state: CollisionState, k: LidarCandidates, i: number, s0: number, s1: number, Q: Int32Array, org: Float64Array, dir: Float64Array,
  commonOrigin: boolean, L: Float64Array, hit: Float64Array, bestT: Float64Array, bestE: Int32Array, bestN: Float64Array | null): number {
  const low = k.lowerT[i], e = k.eid[i], kind = state.Collider.kind[e]
  const line = k.lineR2[i] >= 0, ax = k.lx[i], ay = k.ly[i], az = k.lz[i], r2 = k.lineR2[i], slack = k.lineSlack[i]
  const cx = k.sx[i], cy = k.sy[i], cz = k.sz[i]
  if (commonOrigin) lidarLocalStart(state, e, org, 0, L)
  let tests = 0
  for (let s = s0; s < s1; s++) {
    for (let q = Q[2 * s], qEnd = Q[2 * s + 1]; q <= qEnd; q++) {
      const best = bestT[q]
      if (low > best) continue
      const o = 3 * q
      if (line) {
        const wx = dir[o], wy = dir[o + 1], wz = dir[o + 2]
        const kx = wy * az - wz * ay, ky = wz * ax - wx * az, kz = wx * ay - wy * ax
        const so = commonOrigin ? 0 : o // the same start either way; the shared one stays in cache
        const m = (cx - org[so]) * kx + (cy - org[so + 1]) * ky + (cz - org[so + 2]) * kz
        const excess = (m < 0 ? -m : m) - slack
        if (excess > 0 && excess * excess > r2 * (kx * kx + ky * ky + kz * kz)) continue
      }
      if (!commonOrigin) lidarLocalStart(state, e, org, o, L)
      L[6] = best
      const t = lidarTestShape(state, e, kind, dir, o, L, hit)
      tests++
      if (t >= 0 && (t < best || bestE[q] < 0 || (t === best && e < bestE[q]))) {
        bestT[q] = t; bestE[q] = e
        if (bestN === null) continue
        // the local normal, turned to the world once the ray's best is final (the final pass); a
        // hit at t = 0 (a start inside or on the surface) keeps rayColliderRay's world normal
        if (t === 0) insideWorldNormal(state, e, org, dir, o, L[6], hit, bestN)
        else { bestN[o] = hit[1]; bestN[o + 1] = hit[2]; bestN[o + 2] = hit[3] }
      }
    }
  }
  return tests
}

/**
 * Tests collider e on ray q and keeps it when nearer (or as near with a lower id: rayTest's rule),
 * with its world normal in bestN when given (a non-plane test leaves rayColliderRay's in hit[1..3]).
 */
function testRay(state: CollisionState, e: number, plane: boolean, q: number, org: Float64Array, dir: Float64Array, ray: Float64Array, hit: Float64Array,
  bestT: Float64Array, bestE: Int32Array, bestN: Float64Array | null): void {
  const best = bestT[q]
  ray[6] = best
  if (!lidarTestCandidate(state, e, plane, org, dir, 3 * q, ray, hit)) return
  const t = hit[0]
  if (t < best || bestE[q] < 0 || (t === best && e < bestE[q])) {
    bestT[q] = t; bestE[q] = e
    if (bestN !== null && !plane) { bestN[3 * q] = hit[1]; bestN[3 * q + 1] = hit[2]; bestN[3 * q + 2] = hit[3] }
  }
}

/**
 * Stores in out[o..o+2] the world normal of shape e's hit at t = 0 along ray o (a start inside or
 * on the surface): rayColliderRay's own answer, along the ray within tMax.
 */
function insideWorldNormal(state: CollisionState, e: number, org: Float64Array, dir: Float64Array, o: number, tMax: number, hit: Float64Array, out: Float64Array): void {
  const ray = worldRayScratch
  ray[0] = org[o]; ray[1] = org[o + 1]; ray[2] = org[o + 2]; ray[3] = dir[o]; ray[4] = dir[o + 1]; ray[5] = dir[o + 2]; ray[6] = tMax
  rayColliderRay(state, e, ray, hit)
  out[o] = hit[1]; out[o + 1] = hit[2]; out[o + 2] = hit[3]
}

const worldRayScratch = new Float64Array(7)
