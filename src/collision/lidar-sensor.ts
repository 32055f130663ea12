/** One Lidar entity's scan: its world pose (fixed, or its car's chassis pose ∘ mount offset) and the cast. */
import { castLidar } from './lidar-cast'
import type { LidarState } from './lidar-install'

/** Writes lidar `eid`'s world pose into Lidar.pose / Lidar.origin and scans into its LidarScan. */
export function scanLidar(state: LidarState, eid: number): void {
  const { Lidar, Car, Collider } = state.components
  const scan = state.scans[eid], caster = state.casters[eid]
  if (!scan || !caster) return
  const M = Lidar.rotation, m = 9 * eid, off = Lidar.offset, o = 3 * eid
  const W = Lidar.pose, X = Lidar.origin
  const car = Lidar.mount[eid]
  let objectId = -1, localId = -1
  const chassis = car >= 0 ? Car.collider[car] : -1
  if (chassis >= 0) {
    // world = chassis · mount: R = Rc·Rm, x = pc + Rc·offset; the car's own body is filtered out
    const R = Collider.rotation, r = 9 * chassis, P = Collider.position, p = 3 * chassis
    for (let i = 0; i < 3; i++) {
      const a = R[r + 3 * i], b = R[r + 3 * i + 1], c = R[r + 3 * i + 2]
      for (let j = 0; j < 3; j++) W[m + 3 * i + j] = a * M[m + j] + b * M[m + 3 + j] + c * M[m + 6 + j]
      X[o + i] = P[p + i] + a * off[o] + b * off[o + 1] + c * off[o + 2]
    }
    objectId = car; localId = 0
  } else if (car >= 0) {
    scan.count = 0 // a car without a chassis collider yet: nothing to anchor the sensor to
    return
  } else {
    for (let i = 0; i < 9; i++) W[m + i] = M[m + i]
    for (let i = 0; i < 3; i++) X[o + i] = off[o + i]
  }
  // the caster's own scratch, so no view is allocated per scan
  const rot = caster.mountRot, pos = caster.mountPos
  for (let i = 0; i < 9; i++) rot[i] = W[m + i]
  for (let i = 0; i < 3; i++) pos[i] = X[o + i]
  castLidar(state.collision, caster, rot, pos, Lidar.yawStart[eid], Lidar.yawIncrement[eid], Lidar.yawCount[eid],
    Lidar.pitchStart[eid], Lidar.pitchIncrement[eid], Lidar.pitchCount[eid], Lidar.rangeMin[eid], Lidar.rangeMax[eid],
    objectId, localId, Lidar.collisionMask[eid], scan)
}
