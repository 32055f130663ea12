/**
 * The per-ray loops of a lidar cast: the flat list or buckets (nearest bound first, early exit)
 * and the BVH (rayTest's query), each appending its hits to the scan.
 */
import { reserveLidarScan, type LidarScan } from './scan'
import { lidarTestCandidate } from './candidate-test'
import { castRayR } from '../collision/query'
import type { CollisionState } from '../collision/state'
import { LidarStrategy, type LidarCaster } from './caster'
import { lidarMeshRasterTest, type LidarMeshRaster } from './mesh-raster'

/**
 * Casts rows [y0, y1) (within the last buildSweepRows' rows) whose world rays are already in
 * c.rays (fillSweepRays): the same hits as rayTest along each ray; with `hitNormals`
 * (lidarHitNormals), each hit's world normal goes there as for castLists.
 */
export function castSweepRows(state: CollisionState, c: LidarCaster, rangeMin: number, rangeMax: number, objectId: number, localId: number, mask: number,
  scan: LidarScan, y0: number, y1: number, hitNormals: Float64Array | null): void {
  if (c.strategy === LidarStrategy.bvh) castBvh(state, c, rangeMin, rangeMax - rangeMin, objectId, localId, mask, scan, y0, y1, hitNormals)
  else castLists(state, c, rangeMin, rangeMax, scan, y0, y1, hitNormals, null)
}

const NONE = 0x7fffffff

/**
 * Appends hit (ray index, range, sensor-frame direction cp·cy, cp·sy, sp, collider) to the scan,
 * growing it when full. Range and direction are read from `v` (range, dx, dy, dz): doubles passed
 * to a call that is not inlined are boxed, one allocation each per hit (meshLidarMoving's alloc).
 */
function pushHit(scan: LidarScan, ray: number, v: Float64Array, collider: number): void {
  const i = scan.count
  if (i >= scan.rays.length) reserveLidarScan(scan, i + 1)
  const range = v[0]
  scan.points[3 * i] = range * v[1]; scan.points[3 * i + 1] = range * v[2]; scan.points[3 * i + 2] = range * v[3]
  scan.rays[i] = ray
  scan.distances[i] = range
  if (scan.colliders !== null) scan.colliders[i] = collider
  scan.count = i + 1
}

/**
 * Casts rays of yaw rows [y0, y1) against the flat list or the buckets, nearest bound first with
 * early exit; returns the tests run. With `N`, each hit's world normal (rayColliderRay's; none for
 * a plane) goes to N at its ray's offset in c.rays. With `mr` (rows [y0, y1) the whole pattern), its
 * mesh collider is tested through its raster (the same results, fewer triangles).
 */
export function castLists(state: CollisionState, c: LidarCaster, rangeMin: number, rangeMax: number, scan: LidarScan, y0: number, y1: number, N: Float64Array | null,
  mr: LidarMeshRaster | null): number {
  // the rays' length worked out here, not passed: each ray's best distance starts from it and then
  // stays an unboxed number (from a parameter it is boxed anew on every better hit; test/lidar/alloc.test.ts)
  const length = rangeMax - rangeMin
  const d = c.dirs, b = c.buckets, k = c.cands
  const cy = d.cy, sy = d.sy, cp = d.cp, sp = d.sp, P = d.pitchCount
  const cells = c.strategy === LidarStrategy.buckets
  const E = cells ? b.everywhere : b.inBand, nE = cells ? b.everywhereCount : b.inBandCount
  const items = b.items, start = b.cellStart, rowOf = b.rowOfPitch, flipOf = b.flipOfPitch, colN = b.colOfYaw, colF = b.colOfYawFlipped, nYaw = b.nYaw
  const ceid = k.eid, clow = k.lowerT, csx = k.sx, csy = k.sy, csz = k.sz, csr2 = k.sr2, cplane = k.plane
  const u1x = k.u1x, u1y = k.u1y, u2x = k.u2x, u2y = k.u2y, wedgeSin = k.wedgeSin
  const O = c.rays.org, D = c.rays.dir
  const hit = c.hit, ray = c.ray, meshE = mr === null ? -1 : mr.eid
  let tests = 0, q = 0
  for (let y = y0; y < y1; y++) {
    const cyy = cy[y], syy = sy[y], cn = colN[y], cf = colF[y]
    for (let p = 0; p < P; p++, q += 3) {
      let i = 0, j = 0, jEnd = 0
      if (cells) { const cell = rowOf[p] * nYaw + (flipOf[p] ? cf : cn); j = start[cell]; jEnd = start[cell + 1] }
      if (j === jEnd && nE === 0) continue // nothing to test (a rotating sweep fills no world ray for it)
      const ox = O[q], oy = O[q + 1], oz = O[q + 2], nx = D[q], ny = D[q + 1], nz = D[q + 2], cpp = cp[p]
      let best = length, bestEid = -1, bnx = 0, bny = 0, bnz = 0
      for (;;) {
        const a = i < nE ? E[i] : NONE, bb = j < jEnd ? items[j] : NONE
        let ci: number
        if (a < bb) { ci = a; i++ } else if (bb !== NONE) { ci = bb; j++ } else break
        if (clow[ci] > best) break
        // the candidate's yaw wedge (the raster's test, on the sample's yaw in the sensor frame;
        // for a pitch beyond ±90° the yaw turns by π, so no test): outside it, no ray can hit
        const w1x = u1x[ci], w1y = u1y[ci]
        if ((w1x !== 0 || w1y !== 0) && cpp > 0) {
          const ws = -wedgeSin[ci]
          if (w1x * syy - w1y * cyy < ws || cyy * u2y[ci] - syy * u2x[ci] < ws) continue
        }
        const e = ceid[ci]
        // conservative bounding-sphere pre-test (padded radius; |v × n|² has no cancellation)
        const r2 = csr2[ci]
        if (r2 !== Infinity) {
          const vx = csx[ci] - ox, vy = csy[ci] - oy, vz = csz[ci] - oz
          const ex = vy * nz - vz * ny, ey = vz * nx - vx * nz, ez = vx * ny - vy * nx
          if (ex * ex + ey * ey + ez * ez > r2) continue
          const along = vx * nx + vy * ny + vz * nz // sphere wholly behind the start or beyond the best hit
          if (along < 0 ? along * along > r2 : along > best && (along - best) * (along - best) > r2) continue
        }
        tests++
        ray[6] = best
        if (e === meshE) { if (!lidarMeshRasterTest(state, mr!, y * P + p, O, D, q, ray, hit, N !== null)) continue } else if (!lidarTestCandidate(state, e, cplane[ci] === 1, O, D, q, ray, hit)) continue
        // rayTest's tie rule: equal distances go to the lowest entity id; a non-plane's world normal is in hit[1..3]
        const t = hit[0]
        if (t < best || bestEid < 0 || (t === best && e < bestEid)) { best = t; bestEid = e; bnx = hit[1]; bny = hit[2]; bnz = hit[3] }
      }
      if (bestEid >= 0) {
        const v = c.hitPoint
        v[0] = rangeMin + best; v[1] = cpp * cyy; v[2] = cpp * syy; v[3] = sp[p]
        pushHit(scan, y * P + p, v, bestEid)
        if (N !== null) { N[q] = bnx; N[q + 1] = bny; N[q + 2] = bnz }
      }
    }
  }
  return tests
}

/**
 * Casts rays of yaw rows [y0, y1) (in c.rays from row y0) through the collision domain's BVH
 * (exactly rayTest's closest-hit query); `N` as for castLists.
 */
export function castBvh(state: CollisionState, c: LidarCaster, rangeMin: number, length: number, objectId: number, localId: number, mask: number, scan: LidarScan,
  y0: number, y1: number, N: Float64Array | null): void {
  const d = c.dirs
  const cy = d.cy, sy = d.sy, cp = d.cp, sp = d.sp, P = d.pitchCount
  const O = c.rays.org, D = c.rays.dir
  const hit = c.hit, ray = c.ray
  let q = 0
  for (let y = y0; y < y1; y++) {
    const cyy = cy[y], syy = sy[y]
    for (let p = 0; p < P; p++, q += 3) {
      if (!(D[q] === D[q])) continue // NaN: rayTest casts no such ray
      ray[0] = O[q]; ray[1] = O[q + 1]; ray[2] = O[q + 2]; ray[3] = D[q]; ray[4] = D[q + 1]; ray[5] = D[q + 2]; ray[6] = length
      const e = castRayR(state, ray, objectId, localId, mask, hit)
      if (e >= 0) {
        const cpp = cp[p]
        const v = c.hitPoint
        v[0] = rangeMin + hit[0]; v[1] = cpp * cyy; v[2] = cpp * syy; v[3] = sp[p]
        pushHit(scan, y * P + p, v, e)
        if (N !== null) { N[q] = hit[1]; N[q + 1] = hit[2]; N[q + 2] = hit[3] }
      }
    }
  }
}
