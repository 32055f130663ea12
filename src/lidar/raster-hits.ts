/**
 * The raster's final pass: its hits appended to the scan in ray order, row by row (a row is one yaw
 * sample's pitchCount rays). The raster leaves each row's sole-plane run untested (most points of a
 * scan: the ground). The ground seen from above from a shared start is tested and written by its own
 * loop, with or without shading, between the row's other rays, which come from r.bestT / r.bestE;
 * any other run is tested into r.bestT / r.bestE first and then written with the rest of its row.
 * Each loop is its own function, so a plain scan's and a shaded scan's code keep their own type
 * feedback.
 */
import type { LidarCandidates } from './candidates'
import type { LidarDirections } from './directions'
import type { LidarRaster } from './types'
import type { CollisionState } from '../collision/state'
import { planeHitT } from './candidate-test'
import { ATTENUATION_TABLE, attenuationInTable, lidarAttenuation } from './attributes'
import { ColliderKind } from '../../components/collider'
import { reserveLidarScan, type LidarScan } from './scan'

/**
 * One writeRasterHits call's inputs, and the sole plane of the rows being written (rows nearly
 * always share one: the ground), read once per plane. Numbers start as NaN (doubles), so the record
 * keeps one shape; the references are dropped when the scan is written.
 */
interface RasterHitWrite {
  state: CollisionState | null
  r: LidarRaster | null
  d: LidarDirections | null
  scan: LidarScan | null
  org: Float64Array | null
  dir: Float64Array | null
  /** rasterLidar's per-ray normals; null for a scan that does not shade its points. */
  bestN: Float64Array | null
  /** The sensor rotation. */
  rot: Float64Array | null
  rangeMin: number
  length: number
  /** Every ray starts at org[0..2]. */
  commonOrigin: boolean
  /** The sole plane's candidate index (−1: none yet in this scan) and entity. */
  cand: number
  e: number
  /** The raster would not test the plane on a ray whose best is still `length`: its run has no hit. */
  skip: boolean
  /** Its normal is exactly +z (a ray's local dz is its dz). */
  level: boolean
  /** Level and seen from above from a shared start: a ray's test needs only its dz. */
  fromAbove: boolean
  /** Its position and normal (the third column of its rotation). */
  px: number; py: number; pz: number
  n2: number; n5: number; n8: number
  /** The shared start's height over it. */
  oz: number
  /** Its normal in the sensor frame. */
  sn0: number; sn1: number; sn2: number
  object: number
  localId: number
  reflectivity: number
}

function createRasterHitWrite(): RasterHitWrite {
  return { state: null, r: null, d: null, scan: null, org: null, dir: null, bestN: null, rot: null, rangeMin: NaN, length: NaN,
    commonOrigin: false, cand: NaN, e: NaN, skip: false, level: false, fromAbove: false,
    px: NaN, py: NaN, pz: NaN, n2: NaN, n5: NaN, n8: NaN, oz: NaN, sn0: NaN, sn1: NaN, sn2: NaN,
    object: NaN, localId: NaN, reflectivity: NaN }
}

const hitWrite = createRasterHitWrite()

/**
 * Appends the raster's hits to the scan, in ray order: every ray some cone reaches, from r.bestT /
 * r.bestE or, on a row's sole-plane run, from the plane test itself (the raster's test with its
 * initial tMax = length, so the same bits). Room for every such ray is reserved first, so the
 * loops write into fixed arrays. `org`/`dir`/`commonOrigin` as for rasterLidar. A scan with
 * attributes gets them here, from what the loops hold (fillLidarAttributes' rules and arithmetic):
 * `bestN` (rasterLidar's) gives a non-plane hit's normal, and `rot` is the sensor rotation.
 */
export function writeRasterHits(state: CollisionState, r: LidarRaster, d: LidarDirections, k: LidarCandidates, rangeMin: number, length: number,
  org: Float64Array, dir: Float64Array, commonOrigin: boolean, scan: LidarScan, bestN: Float64Array | null, rot: Float64Array): void {
  reserveLidarScan(scan, scan.count + r.touched)
  const w = hitWrite
  w.state = state; w.r = r; w.d = d; w.scan = scan; w.org = org; w.dir = dir; w.bestN = bestN; w.rot = rot
  w.rangeMin = rangeMin; w.length = length; w.commonOrigin = commonOrigin
  const shading = bestN !== null && (scan.normals !== null || scan.intensities !== null)
  // the shaded ground loop reads the attenuation's table for every range
  const groundLoop = !shading || rangeMin + length < ATTENUATION_TABLE
  w.cand = -1; w.e = -1
  const rowLo = r.rowLo, rowHi = r.rowHi, soleCand = r.soleCand, soleLo = r.soleLo, soleHi = r.soleHi
  let i = scan.count
  for (let y = 0, Y = d.yawCount; y < Y; y++) {
    const sc = soleCand[y], lo = rowLo[y], hi = rowHi[y]
    if (sc >= 0 && sc !== w.cand) readSolePlane(w, k, sc)
    const run = sc >= 0 && !w.skip, runLo = soleLo[y] > lo ? soleLo[y] : lo, runHi = soleHi[y] < hi ? soleHi[y] : hi
    if (run && w.fromAbove && groundLoop) {
      if (lo < runLo) i = shading ? writeShadedBestHits(w, y, lo, runLo - 1, i) : writeBestHits(w, y, lo, runLo - 1, i)
      i = shading ? writeShadedGroundRun(w, y, runLo, runHi, i) : writeGroundRun(w, y, runLo, runHi, i)
      if (runHi < hi) i = shading ? writeShadedBestHits(w, y, runHi + 1, hi, i) : writeBestHits(w, y, runHi + 1, hi, i)
    } else {
      if (run) testSolePlane(w, y, runLo, runHi)
      i = shading ? writeShadedBestHits(w, y, lo, hi, i) : writeBestHits(w, y, lo, hi, i)
    }
  }
  scan.count = i
  w.state = null; w.r = null; w.d = null; w.scan = null; w.org = null; w.dir = null; w.bestN = null; w.rot = null
}

/** Reads candidate sc's plane into w: its pose, what its points carry, its normal in the sensor frame. */
function readSolePlane(w: RasterHitWrite, k: LidarCandidates, sc: number): void {
  const C = w.state!.Collider, CP = C.position, CR = C.rotation, org = w.org!, rot = w.rot!
  const e = k.eid[sc]
  w.cand = sc; w.e = e
  w.skip = k.lowerT[sc] > w.length // the raster would not test it on a ray whose best is still length
  const px = w.px = CP[3 * e], py = w.py = CP[3 * e + 1], pz = w.pz = CP[3 * e + 2]
  const n2 = w.n2 = CR[9 * e + 2], n5 = w.n5 = CR[9 * e + 5], n8 = w.n8 = CR[9 * e + 8]
  const oz = w.oz = n2 * (org[0] - px) + n5 * (org[1] - py) + n8 * (org[2] - pz)
  w.level = n2 === 0 && n5 === 0 && n8 === 1
  w.fromAbove = w.commonOrigin && w.level && oz > 0
  w.sn0 = rot[0] * n2 + rot[3] * n5 + rot[6] * n8; w.sn1 = rot[1] * n2 + rot[4] * n5 + rot[7] * n8; w.sn2 = rot[2] * n2 + rot[5] * n5 + rot[8] * n8
  w.object = C.object[e]; w.localId = C.localId[e]; w.reflectivity = w.state!.reflectivity[e]
}

/**
 * The sole plane's test of row y's rays pLo ..= pHi, as the raster would have run it (its initial
 * tMax = length, so the same bits), into r.bestT / r.bestE: only the plane reaches them, so a hit
 * is their best. A level plane reads the ray's dz as is (see rasterPlane).
 */
function testSolePlane(w: RasterHitWrite, y: number, pLo: number, pHi: number): void {
  const r = w.r!, bestT = r.bestT, bestE = r.bestE, org = w.org!, dir = w.dir!, base = y * w.d!.pitchCount
  const commonOrigin = w.commonOrigin, level = w.level, ozCommon = w.oz, length = w.length, e = w.e
  const px = w.px, py = w.py, pz = w.pz, n2 = w.n2, n5 = w.n5, n8 = w.n8
  for (let q = base + pLo, qEnd = base + pHi; q <= qEnd; q++) {
    const o = 3 * q, oz = commonOrigin ? ozCommon : n2 * (org[o] - px) + n5 * (org[o + 1] - py) + n8 * (org[o + 2] - pz)
    const t = planeHitT(oz, level ? dir[o + 2] : n2 * dir[o] + n5 * dir[o + 1] + n8 * dir[o + 2], length)
    if (t >= 0) { bestT[q] = t; bestE[q] = e }
  }
}

/**
 * The ground seen from above without normals or intensities (most points of a plain scan): the
 * plane test needs only the ray's dz. Returns the next point's index.
 */
function writeGroundRun(w: RasterHitWrite, y: number, pLo: number, pHi: number, i: number): number {
  const d = w.d!, scan = w.scan!, dir = w.dir!, cp = d.cp, sp = d.sp, cyy = d.cy[y], syy = d.sy[y], base = y * d.pitchCount
  const pts = scan.points, rs = scan.rays, dist = scan.distances, cols = scan.colliders, objects = scan.objects, localIds = scan.localIds
  const oz = w.oz, length = w.length, rangeMin = w.rangeMin, e = w.e, object = w.object, localId = w.localId
  for (let p = pLo, q = base + pLo; p <= pHi; p++, q++) {
    const t = planeHitT(oz, dir[3 * q + 2], length)
    if (!(t >= 0)) continue
    const range = rangeMin + t, cpp = cp[p]
    pts[3 * i] = range * (cpp * cyy); pts[3 * i + 1] = range * (cpp * syy); pts[3 * i + 2] = range * sp[p]
    rs[i] = q; dist[i] = range
    if (cols !== null) { cols[i] = e; if (objects !== null) { objects[i] = object; localIds![i] = localId } }
    i++
  }
  return i
}

/**
 * The ground seen from above with normals or intensities (most points of such a scan): the normal
 * is the plane's; the cosine is −dz, in (0, 1] for a hit (dz < 0, and a unit direction's |dz| ≤ 1);
 * every range lies in the attenuation's table, as rangeMin + length does. Returns the next point's index.
 */
function writeShadedGroundRun(w: RasterHitWrite, y: number, pLo: number, pHi: number, i: number): number {
  const d = w.d!, scan = w.scan!, dir = w.dir!, cp = d.cp, sp = d.sp, cyy = d.cy[y], syy = d.sy[y], base = y * d.pitchCount
  const pts = scan.points, rs = scan.rays, dist = scan.distances, cols = scan.colliders!, objects = scan.objects, localIds = scan.localIds
  const normals = scan.normals, cosines = scan.cosines, intensities = scan.intensities
  const oz = w.oz, length = w.length, rangeMin = w.rangeMin, e = w.e, object = w.object, localId = w.localId, refl = w.reflectivity
  const sn0 = w.sn0, sn1 = w.sn1, sn2 = w.sn2
  for (let p = pLo, q = base + pLo; p <= pHi; p++, q++) {
    const dz = dir[3 * q + 2], t = planeHitT(oz, dz, length)
    if (!(t >= 0)) continue
    const range = rangeMin + t, cpp = cp[p], cosine = -dz
    pts[3 * i] = range * (cpp * cyy); pts[3 * i + 1] = range * (cpp * syy); pts[3 * i + 2] = range * sp[p]
    rs[i] = q; dist[i] = range; cols[i] = e
    if (objects !== null) { objects[i] = object; localIds![i] = localId }
    if (normals !== null) { normals[3 * i] = sn0; normals[3 * i + 1] = sn1; normals[3 * i + 2] = sn2; cosines![i] = cosine }
    // (ρ, cos θ and the attenuation each lie in [0, 1]: no clamp; the raster runs only for rangeMin ≥ 0)
    if (intensities !== null) intensities[i] = refl * cosine * attenuationInTable(range)
    i++
  }
  return i
}

/** Row y's rays pLo ..= pHi that have a best hit in r.bestT / r.bestE, for a scan without normals or intensities. Returns the next point's index. */
function writeBestHits(w: RasterHitWrite, y: number, pLo: number, pHi: number, i: number): number {
  const d = w.d!, r = w.r!, scan = w.scan!, cp = d.cp, sp = d.sp, cyy = d.cy[y], syy = d.sy[y], base = y * d.pitchCount
  const bestE = r.bestE, bestT = r.bestT, C = w.state!.Collider, object = C.object, localId = C.localId
  const pts = scan.points, rs = scan.rays, dist = scan.distances, cols = scan.colliders, objects = scan.objects, localIds = scan.localIds
  const rangeMin = w.rangeMin
  for (let p = pLo, q = base + pLo; p <= pHi; p++, q++) {
    const e = bestE[q]
    if (e < 0) continue
    const range = rangeMin + bestT[q], cpp = cp[p]
    pts[3 * i] = range * (cpp * cyy); pts[3 * i + 1] = range * (cpp * syy); pts[3 * i + 2] = range * sp[p]
    rs[i] = q; dist[i] = range
    if (cols !== null) { cols[i] = e; if (objects !== null) { objects[i] = object[e]; localIds![i] = localId[e] } }
    i++
  }
  return i
}

/**
 * Row y's rays pLo ..= pHi that have a best hit in r.bestT / r.bestE, with their normals, cosines
 * or intensities. Returns the next point's index.
 */
function writeShadedBestHits(w: RasterHitWrite, y: number, pLo: number, pHi: number, i: number): number {
  const d = w.d!, r = w.r!, scan = w.scan!, cp = d.cp, sp = d.sp, cyy = d.cy[y], syy = d.sy[y], base = y * d.pitchCount
  const bestE = r.bestE, bestT = r.bestT, org = w.org!, dir = w.dir!, bestN = w.bestN!, rot = w.rot!
  const C = w.state!.Collider, CP = C.position, CR = C.rotation, kind = C.kind, object = C.object, localId = C.localId, refl = w.state!.reflectivity
  const pts = scan.points, rs = scan.rays, dist = scan.distances, cols = scan.colliders!, objects = scan.objects, localIds = scan.localIds
  const normals = scan.normals, cosines = scan.cosines, intensities = scan.intensities
  const rangeMin = w.rangeMin, commonOrigin = w.commonOrigin, pe = w.e, ozCommon = w.oz
  const px = w.px, py = w.py, pz = w.pz, n2 = w.n2, n5 = w.n5, n8 = w.n8
  const r0 = rot[0], r1 = rot[1], r2 = rot[2], r3 = rot[3], r4 = rot[4], r5 = rot[5], r6 = rot[6], r7 = rot[7], r8 = rot[8]
  for (let p = pLo, q = base + pLo; p <= pHi; p++, q++) {
    const e = bestE[q]
    if (e < 0) continue
    const t = bestT[q], range = rangeMin + t, cpp = cp[p], o = 3 * q
    pts[3 * i] = range * (cpp * cyy); pts[3 * i + 1] = range * (cpp * syy); pts[3 * i + 2] = range * sp[p]
    rs[i] = q; dist[i] = range; cols[i] = e
    if (objects !== null) { objects[i] = object[e]; localIds![i] = localId[e] }
    const dx = dir[o], dy = dir[o + 1], dz = dir[o + 2]
    let nx: number, ny: number, nz: number
    if (e === pe) {
      // the row's sole plane (the ground), read once: from above its own normal, from a start on or below it −direction
      const oz = commonOrigin ? ozCommon : n2 * (org[o] - px) + n5 * (org[o + 1] - py) + n8 * (org[o + 2] - pz)
      if (oz <= 0) { nx = -dx; ny = -dy; nz = -dz } else { nx = n2; ny = n5; nz = n8 }
    } else if (kind[e] === ColliderKind.plane) {
      const m = 9 * e
      const oz = CR[m + 2] * (org[o] - CP[3 * e]) + CR[m + 5] * (org[o + 1] - CP[3 * e + 1]) + CR[m + 8] * (org[o + 2] - CP[3 * e + 2])
      if (oz <= 0) { nx = -dx; ny = -dy; nz = -dz } else { nx = CR[m + 2]; ny = CR[m + 5]; nz = CR[m + 8] }
    } else if (t === 0 || kind[e] === ColliderKind.heightfield || kind[e] === ColliderKind.mesh) { nx = bestN[o]; ny = bestN[o + 1]; nz = bestN[o + 2] } else {
      // rasterShape's local normal, turned by e's rotation as rayColliderRay turns it
      const m = 9 * e, lx = bestN[o], ly = bestN[o + 1], lz = bestN[o + 2]
      nx = CR[m] * lx + CR[m + 1] * ly + CR[m + 2] * lz; ny = CR[m + 3] * lx + CR[m + 4] * ly + CR[m + 5] * lz; nz = CR[m + 6] * lx + CR[m + 7] * ly + CR[m + 8] * lz
    }
    const c = -(nx * dx + ny * dy + nz * dz)
    const cosine = c > 1 ? 1 : c > 0 ? c : 0
    if (normals !== null) {
      normals[3 * i] = r0 * nx + r3 * ny + r6 * nz; normals[3 * i + 1] = r1 * nx + r4 * ny + r7 * nz; normals[3 * i + 2] = r2 * nx + r5 * ny + r8 * nz
      cosines![i] = cosine
    }
    // (ρ, cos θ and the attenuation each lie in [0, 1]: no clamp; the raster runs only for rangeMin ≥ 0)
    if (intensities !== null) intensities[i] = refl[e] * cosine * lidarAttenuation(range)
    i++
  }
  return i
}
