/** One Lidar entity's scan: its world pose (fixed, or its car's chassis pose ∘ mount offset) and the cast. */
import { castLidar } from './cast'
import type { LidarState } from './install'
import { applyLidarNoise } from './noise'

/** No chassis collider to anchor a mounted lidar to (lidarWorldPose's answer). */
export const NO_ANCHOR = -2

/**
 * Writes lidar `eid`'s world pose into Lidar.pose / Lidar.origin; returns the object id its scans
 * ignore (its car, or -1 for a fixed lidar), or NO_ANCHOR for a car without a chassis collider yet.
 */
export function lidarWorldPose(state: LidarState, eid: number): number {
  const { Lidar, Car, Collider } = state.components
  const M = Lidar.rotation, m = 9 * eid, off = Lidar.offset, o = 3 * eid
  const W = Lidar.pose, X = Lidar.origin
  const car = Lidar.mount[eid]
  if (car < 0) {
    for (let i = 0; i < 9; i++) W[m + i] = M[m + i]
    for (let i = 0; i < 3; i++) X[o + i] = off[o + i]
    return -1
  }
  const chassis = Car.collider[car]
  if (chassis < 0) return NO_ANCHOR
  // world = chassis · mount: R = Rc·Rm, x = pc + Rc·offset; the car's own body is filtered out
  const R = Collider.rotation, r = 9 * chassis, P = Collider.position, p = 3 * chassis
  for (let i = 0; i < 3; i++) {
    const a = R[r + 3 * i], b = R[r + 3 * i + 1], c = R[r + 3 * i + 2]
    for (let j = 0; j < 3; j++) W[m + 3 * i + j] = a * M[m + j] + b * M[m + 3 + j] + c * M[m + 6 + j]
    X[o + i] = P[p + i] + a * off[o] + b * off[o + 1] + c * off[o + 2]
  }
  return car
}

/** Writes lidar `eid`'s world pose and scans the whole pattern into its LidarScan; `scanNumber` keys its noise. */
export function scanLidar(state: LidarState, eid: number, scanNumber: number): void {
  const { Lidar } = state.components
  const scan = state.scans[eid], caster = state.casters[eid], sensor = state.sensors[eid]
  if (!scan || !caster || !sensor) return
  const objectId = lidarWorldPose(state, eid)
  if (objectId === NO_ANCHOR) { scan.count = 0; return }
  // the caster's own scratch, so no view is allocated per scan
  const rot = caster.mountRot, pos = caster.mountPos, m = 9 * eid, o = 3 * eid
  for (let i = 0; i < 9; i++) rot[i] = Lidar.pose[m + i]
  for (let i = 0; i < 3; i++) pos[i] = Lidar.origin[o + i]
  castLidar(state.collision, caster, rot, pos, Lidar.yawStart[eid], Lidar.yawIncrement[eid], Lidar.yawCount[eid],
    Lidar.pitchStart[eid], Lidar.pitchIncrement[eid], Lidar.pitchCount[eid], Lidar.rangeMin[eid], Lidar.rangeMax[eid],
    objectId, objectId >= 0 ? 0 : -1, Lidar.collisionMask[eid], scan)
  if (sensor.sigma > 0 || sensor.dropout > 0 || sensor.intensityDropout > 0) {
    applyLidarNoise(scan, 0, sensor.sigma, sensor.dropout, sensor.intensityDropout, sensor.seed, scanNumber)
  }
}
