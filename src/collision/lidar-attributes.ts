/**
 * Per-point attributes of a lidar scan, worked out after the cast from each point's collider and
 * world ray: what it hit (object, localId), the surface normal and incidence cosine, and an
 * intensity. Only the arrays the scan carries are written.
 *
 * Intensity model: I = ρ · cos θ · exp(−a·r), clamped to [0, 1]: ρ the collider's `reflectivity`
 * (a Lambertian surface, Lambert's cosine law), θ the incidence angle, r the range and a = 0.004 /m
 * the atmospheric attenuation, as CARLA's lidar does (I/I₀ = exp(−a·d), its default
 * `atmosphere_attenuation_rate`, https://carla.readthedocs.io/en/latest/ref_sensors/#lidar-sensor).
 */
import { ColliderKind } from '../../components/collider'
import { rayColliderRay } from './narrowphase'
import type { LidarScan } from './lidar-scan'
import type { CollisionState } from './state'

/** Atmospheric attenuation of the intensity model, 1/m (CARLA's default). */
export const LIDAR_ATTENUATION = 0.004

/** A collider's reflectivity when none is given (a mid-grey Lambertian surface). */
export const DEFAULT_REFLECTIVITY = 0.5

/** The model's intensity of a point: reflectivity · cosine · exp(−LIDAR_ATTENUATION · range), clamped to [0, 1]. */
export function lidarIntensity(reflectivity: number, cosine: number, range: number): number {
  const i = reflectivity * cosine * Math.exp(-LIDAR_ATTENUATION * range)
  return i > 1 ? 1 : i > 0 ? i : 0
}

/**
 * Fills the attributes of points [from, scan.count) of `scan`, whose colliders are already in
 * scan.colliders. Point i's world ray is org/dir at 3·(rays[i] − rayBase); `rot` is the sensor
 * rotation (normals go to its frame), or with `rowPoses` (a rotating sweep, as fillLidarRays) the
 * rotation of each point's row; `length` the rays' length. `ray` and `hit` are scratch.
 */
export function fillLidarAttributes(state: CollisionState, scan: LidarScan, from: number, org: Float64Array, dir: Float64Array, rayBase: number,
  rot: Float64Array, length: number, ray: Float64Array, hit: Float64Array, rowPoses?: Float64Array, pitchCount = 1): void {
  const C = state.Collider, kind = C.kind, R = C.rotation, P = C.position, refl = state.reflectivity
  const cols = scan.colliders!, rs = scan.rays, dist = scan.distances
  const objects = scan.objects, localIds = scan.localIds, normals = scan.normals, cosines = scan.cosines, intensities = scan.intensities
  const shading = normals !== null || intensities !== null
  let r0 = rot[0], r1 = rot[1], r2 = rot[2], r3 = rot[3], r4 = rot[4], r5 = rot[5], r6 = rot[6], r7 = rot[7], r8 = rot[8]
  for (let i = from, n = scan.count; i < n; i++) {
    const e = cols[i]
    if (objects !== null) { objects[i] = C.object[e]; localIds![i] = C.localId[e] }
    if (!shading) continue
    const o = 3 * (rs[i] - rayBase)
    const dx = dir[o], dy = dir[o + 1], dz = dir[o + 2]
    let nx: number, ny: number, nz: number
    if (kind[e] === ColliderKind.plane) {
      // rayColliderRay's plane: normal +z rotated to the world, or −direction from a start on or below it
      const r = 9 * e
      const oz = R[r + 2] * (org[o] - P[3 * e]) + R[r + 5] * (org[o + 1] - P[3 * e + 1]) + R[r + 8] * (org[o + 2] - P[3 * e + 2])
      if (oz <= 0) { nx = -dx; ny = -dy; nz = -dz } else { nx = R[r + 2]; ny = R[r + 5]; nz = R[r + 8] }
    } else {
      ray[0] = org[o]; ray[1] = org[o + 1]; ray[2] = org[o + 2]; ray[3] = dx; ray[4] = dy; ray[5] = dz; ray[6] = length
      if (rayColliderRay(state, e, ray, hit)) { nx = hit[1]; ny = hit[2]; nz = hit[3] } else { nx = -dx; ny = -dy; nz = -dz }
    }
    const c = -(nx * dx + ny * dy + nz * dz)
    const cosine = c > 1 ? 1 : c > 0 ? c : 0
    if (normals !== null) {
      if (rowPoses !== undefined) {
        const j = 12 * (((rs[i] - rayBase) / pitchCount) | 0)
        r0 = rowPoses[j]; r1 = rowPoses[j + 1]; r2 = rowPoses[j + 2]; r3 = rowPoses[j + 3]; r4 = rowPoses[j + 4]; r5 = rowPoses[j + 5]; r6 = rowPoses[j + 6]; r7 = rowPoses[j + 7]; r8 = rowPoses[j + 8]
      }
      normals[3 * i] = r0 * nx + r3 * ny + r6 * nz; normals[3 * i + 1] = r1 * nx + r4 * ny + r7 * nz; normals[3 * i + 2] = r2 * nx + r5 * ny + r8 * nz
      cosines![i] = cosine
    }
    if (intensities !== null) {
      // lidarIntensity, written out: a call per point would pass (and box) three numbers
      const v = refl[e] * cosine * Math.exp(-LIDAR_ATTENUATION * dist[i])
      intensities[i] = v > 1 ? 1 : v > 0 ? v : 0
    }
  }
}
