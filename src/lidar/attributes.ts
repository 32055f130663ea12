/**
 * Per-point attributes of a lidar scan, worked out after the cast from what the cast kept: each
 * point's collider, world ray and, for a collider other than a plane, the world normal its narrow
 * phase gave (a plane's normal follows from the plane itself). No shape is tested again. Only the
 * arrays the scan carries are written.
 *
 * Intensity model: I = ρ · cos θ · exp(−a·r), clamped to [0, 1]: ρ the collider's `reflectivity`
 * (a Lambertian surface, Lambert's cosine law), θ the incidence angle, r the range and a = 0.004 /m
 * the atmospheric attenuation, as CARLA's lidar does (I/I₀ = exp(−a·d), its default
 * `atmosphere_attenuation_rate`, https://carla.readthedocs.io/en/latest/ref_sensors/#lidar-sensor).
 */
import { ColliderKind } from '../../components/collider'
import type { LidarScan } from './scan'
import type { CollisionState } from '../collision/state'
import { rayColliderRay } from '../collision/narrowphase'

/** Atmospheric attenuation of the intensity model, 1/m (CARLA's default). */
const ATTENUATION = 0.004
/** The same, for the package's users. */
export const LIDAR_ATTENUATION = ATTENUATION

export { DEFAULT_REFLECTIVITY } from '../collision/collider-options'

/** Whole metres the attenuation tables cover: attenuationInTable takes ranges in [0, this). */
export const ATTENUATION_TABLE = 4096
/** Steps of the fine table per metre: a power of two, so j / STEPS is exact. */
const STEP_BITS = 10, STEPS = 1 << STEP_BITS
/** exp(−LIDAR_ATTENUATION·m) for whole metres m, and exp(−LIDAR_ATTENUATION·k/STEPS) for k < STEPS. */
const attenuationByMetre = new Float64Array(ATTENUATION_TABLE).map((_, m) => Math.exp(-ATTENUATION * m))
const attenuationByStep = new Float64Array(STEPS).map((_, k) => Math.exp(-ATTENUATION * (k / STEPS)))

/**
 * exp(−LIDAR_ATTENUATION·range), to within a few ulps: range = j/STEPS + f, the j/STEPS part
 * from the two tables (whole metres, then steps), the rest by exp(−a·f)'s series to the second
 * power (a·f < 4e-6, so the rest is below 1e-17); a short chain of operations per point, far
 * cheaper than an exp. Ranges beyond the tables take Math.exp.
 */
export function lidarAttenuation(range: number): number {
  return range >= 0 && range < ATTENUATION_TABLE ? attenuationInTable(range) : Math.exp(-ATTENUATION * range)
}

/** lidarAttenuation for a range known to lie in [0, ATTENUATION_TABLE) (a loop that has checked its bounds once). */
export function attenuationInTable(range: number): number {
  const j = (range * STEPS) | 0, u = ATTENUATION * (range - j * (1 / STEPS))
  return attenuationByMetre[j >> STEP_BITS] * attenuationByStep[j & (STEPS - 1)] * (1 - u * (1 - u * 0.5))
}

/** The model's intensity of a point: reflectivity · cosine · exp(−LIDAR_ATTENUATION · range) (lidarAttenuation), clamped to [0, 1]. */
export function lidarIntensity(reflectivity: number, cosine: number, range: number): number {
  const i = reflectivity * cosine * lidarAttenuation(range)
  return i > 1 ? 1 : i > 0 ? i : 0
}

/**
 * Fills the attributes of points [from, scan.count) of `scan`, whose colliders are already in
 * scan.colliders. Point i's world ray is org/dir at 3·(rays[i] − rayBase), and `normals` holds at
 * the same place the world normal of its hit when the collider is not a plane (rayColliderRay's);
 * `rot` is the sensor rotation (normals go to its frame), or with `rowPoses` (a rotating sweep, as
 * fillLidarRays reads them) the rotation of each point's row.
 */
export function fillLidarAttributes(state: CollisionState, scan: LidarScan, from: number, org: Float64Array, dir: Float64Array, hitNormals: Float64Array,
  rayBase: number, rot: Float64Array, rowPoses?: Float64Array, pitchCount = 1): void {
  // the store arrays hoisted out of the loop, as every hot loop does (decision 0008)
  const C = state.Collider, kind = C.kind, R = C.rotation, P = C.position, object = C.object, localId = C.localId, refl = state.reflectivity
  const cols = scan.colliders!, rs = scan.rays, dist = scan.distances
  const objects = scan.objects, localIds = scan.localIds, normals = scan.normals, cosines = scan.cosines, intensities = scan.intensities
  const shading = normals !== null || intensities !== null
  let r0 = rot[0], r1 = rot[1], r2 = rot[2], r3 = rot[3], r4 = rot[4], r5 = rot[5], r6 = rot[6], r7 = rot[7], r8 = rot[8]
  for (let i = from, n = scan.count; i < n; i++) {
    const e = cols[i]
    if (objects !== null) { objects[i] = object[e]; localIds![i] = localId[e] }
    if (!shading) continue
    const o = 3 * (rs[i] - rayBase)
    const dx = dir[o], dy = dir[o + 1], dz = dir[o + 2]
    let nx: number, ny: number, nz: number
    if (kind[e] === ColliderKind.plane) {
      // rayColliderRay's plane: normal +z rotated to the world, or −direction from a start on or below it
      const r = 9 * e
      const oz = R[r + 2] * (org[o] - P[3 * e]) + R[r + 5] * (org[o + 1] - P[3 * e + 1]) + R[r + 8] * (org[o + 2] - P[3 * e + 2])
      if (oz <= 0) { nx = -dx; ny = -dy; nz = -dz } else { nx = R[r + 2]; ny = R[r + 5]; nz = R[r + 8] }
    } else { nx = hitNormals[o]; ny = hitNormals[o + 1]; nz = hitNormals[o + 2] }
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
      // lidarIntensity, written out
      const v = refl[e] * cosine * lidarAttenuation(dist[i])
      intensities[i] = v > 1 ? 1 : v > 0 ? v : 0
    }
  }
}

/**
 * Fills scan.triangles for points [from, scan.count): −1, or for a point on a mesh the triangle its
 * ray hit, found by testing that mesh alone again along the point's world ray (org/dir at
 * 3·(rays[i] − rayBase), starting at rangeMin) up to just past the point. The mesh's nearest hit
 * with ties to the lowest triangle is what the cast kept, and no tMax at or past it changes it, so
 * this is the cast's own triangle whichever strategy cast it.
 */
export function fillLidarTriangles(state: CollisionState, scan: LidarScan, from: number, org: Float64Array, dir: Float64Array, rayBase: number, rangeMin: number): void {
  const kind = state.Collider.kind, cols = scan.colliders!, tris = scan.triangles!, rs = scan.rays, dist = scan.distances
  const ray = triangleRay, hit = triangleHit
  for (let i = from, n = scan.count; i < n; i++) {
    const e = cols[i]
    if (kind[e] !== ColliderKind.mesh) { tris[i] = -1; continue }
    const o = 3 * (rs[i] - rayBase), t = dist[i] - rangeMin
    ray[0] = org[o]; ray[1] = org[o + 1]; ray[2] = org[o + 2]; ray[3] = dir[o]; ray[4] = dir[o + 1]; ray[5] = dir[o + 2]
    // distances hold rangeMin + t: the margin covers the rounding of that sum and its undoing
    ray[6] = t + 1e-9 * (Math.abs(t) + Math.abs(rangeMin)) + 1e-12
    tris[i] = rayColliderRay(state, e, ray, hit) ? hit[4] : -1
  }
}

const triangleRay = new Float64Array(7), triangleHit = new Float64Array(5)
