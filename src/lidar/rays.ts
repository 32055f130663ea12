/**
 * The world rays of a scan, per ray: start = pos + rangeMin·w and the unit direction of w = R·d
 * (scaled by its largest component, then by its length: within the last bit of rayTest's
 * normalizeDirection, so the hits agree with rayTest's within 1e-9 m). Cached while the pose, rangeMin and pattern are unchanged
 * (a fixed sensor then pays the divisions and square root once); large patterns are filled in
 * chunks of yaw columns instead.
 */
import type { LidarDirections } from './directions'
import { mat3RotationError } from '../math/mat3'

/** At most this many rays are cached whole (6 doubles each). */
export const LIDAR_RAY_CACHE_MAX = 1 << 18

/** World ray origins and unit directions of rows [y0, y1) of a pattern; dir[3i] is NaN for a ray rayTest would not cast. */
export interface LidarRays {
  org: Float64Array
  dir: Float64Array
  /** Yaw rows currently held, and the key (pose, rangeMin, directions revision) they were made for. */
  y0: number
  y1: number
  key: Float64Array
  revision: number
  /**
   * True when every ray of the rows starts bit for bit at the sensor position (rangeMin 0 and no
   * −0 coordinate: p + 0·w is then p exactly), so per-ray work on the start can be done once.
   */
  commonOrigin: boolean
  /**
   * −1 when the rows hold every ray; else only the rays of the raster layout with this number
   * (rowLo..rowHi of each row, and the first ray) were filled: the raster alone may read them.
   */
  partialFor: number
}

/** Creates an empty ray cache. */
export function createLidarRays(): LidarRays {
  return { org: new Float64Array(0), dir: new Float64Array(0), y0: 0, y1: 0, key: new Float64Array(13).fill(NaN), revision: -1, commonOrigin: false, partialFor: -1 }
}

/** True when `r` already holds rows [y0, y1) for this pose, rangeMin and pattern (see also `partialFor`). */
export function lidarRaysCurrent(r: LidarRays, d: LidarDirections, rot: Float64Array, pos: Float64Array, rangeMin: number, y0: number, y1: number): boolean {
  if (r.revision !== d.revision || r.y0 !== y0 || r.y1 !== y1 || r.key[12] !== rangeMin) return false
  for (let i = 0; i < 9; i++) if (r.key[i] !== rot[i]) return false
  for (let i = 0; i < 3; i++) if (r.key[9 + i] !== pos[i]) return false
  return true
}

/**
 * Fills rows [y0, y1) of the pattern's world rays into `r`. With `rowPoses` (a rotating sweep),
 * row y has its own pose: rotation rowPoses[12j .. 12j+8] and position [12j+9 .. 12j+11], j = y − y0
 * (rotations and finite positions, as interpolated from validated poses); `rot`/`pos` are then the
 * cache key only. With `rowLo`/`rowHi` (raster layout number `layout`), only the pitch samples
 * rowLo[y] ..= rowHi[y] of each row y and the first ray are filled: the only rays the raster reads.
 */
export function fillLidarRays(r: LidarRays, d: LidarDirections, rot: Float64Array, pos: Float64Array, rangeMin: number, y0: number, y1: number, rowPoses?: Float64Array,
  rowLo?: Int32Array, rowHi?: Int32Array, layout = -1): void {
  const P = d.pitchCount, n = (y1 - y0) * P
  if (r.dir.length < 3 * n) { r.dir = new Float64Array(3 * n); r.org = new Float64Array(3 * n) }
  r.y0 = y0; r.y1 = y1; r.revision = d.revision
  for (let i = 0; i < 9; i++) r.key[i] = rot[i]
  for (let i = 0; i < 3; i++) r.key[9 + i] = pos[i]
  r.key[12] = rangeMin
  const cy = d.cy, sy = d.sy, cp = d.cp, sp = d.sp, O = r.org, D = r.dir
  let r0 = rot[0], r1 = rot[1], r2 = rot[2], r3 = rot[3], r4 = rot[4], r5 = rot[5], r6 = rot[6], r7 = rot[7], r8 = rot[8]
  let px = pos[0], py = pos[1], pz = pos[2]
  // a rotation (entries ≤ 1, rows of length 1) cannot overflow or give w = 0; anything else is checked
  let bounded = Number.isFinite(px + py + pz + rangeMin) && Math.abs(rangeMin) < 1e300 && Math.abs(px) < 1e300 && Math.abs(py) < 1e300 && Math.abs(pz) < 1e300
  for (let i = 0; i < 9; i++) if (!(Math.abs(rot[i]) <= 2)) bounded = false
  bounded = bounded && mat3RotationError(rot) <= 1e-6
  // x + (±0) is x for x ≠ 0 and for x = +0; only a −0 coordinate could come out as +0
  r.commonOrigin = bounded && rangeMin === 0 && !Object.is(px, -0) && !Object.is(py, -0) && !Object.is(pz, -0)
  if (rowPoses !== undefined) { r.commonOrigin = false; r.revision = -1 } // per-row poses: never a cache hit
  const partial = rowLo !== undefined && rowHi !== undefined
  r.partialFor = partial ? layout : -1
  for (let y = y0; y < y1; y++) {
    const cyy = cy[y], syy = sy[y]
    if (rowPoses !== undefined) {
      const j = 12 * (y - y0)
      r0 = rowPoses[j]; r1 = rowPoses[j + 1]; r2 = rowPoses[j + 2]; r3 = rowPoses[j + 3]; r4 = rowPoses[j + 4]; r5 = rowPoses[j + 5]
      r6 = rowPoses[j + 6]; r7 = rowPoses[j + 7]; r8 = rowPoses[j + 8]; px = rowPoses[j + 9]; py = rowPoses[j + 10]; pz = rowPoses[j + 11]
    }
    const pLo = !partial || y === y0 ? 0 : rowLo[y], pHi = !partial ? P - 1 : y === y0 && rowHi[y] < 0 ? 0 : rowHi[y]
    for (let p = pLo, k = 3 * ((y - y0) * P + pLo); p <= pHi; p++, k += 3) {
      const cpp = cp[p]
      const dx = cpp * cyy, dy = cpp * syy, dz = sp[p]
      const wx = r0 * dx + r1 * dy + r2 * dz, wy = r3 * dx + r4 * dy + r5 * dz, wz = r6 * dx + r7 * dy + r8 * dz
      const ox = px + rangeMin * wx, oy = py + rangeMin * wy, oz = pz + rangeMin * wz
      O[k] = ox; O[k + 1] = oy; O[k + 2] = oz
      // as normalizeDirection: non-finite → no ray, zero → +z; else (w/m)/|w/m|
      // (with a rotation bounded by 2 and finite inputs, w and the start are finite and w ≠ 0)
      if (!bounded) {
        if (!Number.isFinite(wx) || !Number.isFinite(wy) || !Number.isFinite(wz) || !Number.isFinite(ox) || !Number.isFinite(oy) || !Number.isFinite(oz)) { D[k] = NaN; continue }
        if (wx === 0 && wy === 0 && wz === 0) { D[k] = 0; D[k + 1] = 0; D[k + 2] = 1; continue }
      }
      const ax = wx < 0 ? -wx : wx, ay = wy < 0 ? -wy : wy, az = wz < 0 ? -wz : wz
      // the largest component over itself is ±1 exactly: no division for it
      let a: number, b: number, c: number
      if (ax > ay) {
        if (ax > az) { a = wx < 0 ? -1 : 1; b = wy / ax; c = wz / ax } else { a = wx / az; b = wy / az; c = wz < 0 ? -1 : 1 }
      } else if (ay > az) { a = wx / ay; b = wy < 0 ? -1 : 1; c = wz / ay } else { a = wx / az; b = wy / az; c = wz < 0 ? -1 : 1 }
      const len = Math.sqrt(a * a + b * b + c * c)
      D[k] = a / len; D[k + 1] = b / len; D[k + 2] = c / len
    }
  }
}
