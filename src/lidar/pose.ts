/** A lidar's world pose: fixed, or its car's chassis pose ∘ its mount offset. */
import type { Components } from '../../components/index'

/** The stores a lidar's pose is read from: its own, its car's and the chassis collider's. */
export type LidarStores = Pick<Components, 'Lidar' | 'Car' | 'Collider'>

/** No chassis collider to anchor a mounted lidar to (lidarWorldPose's answer). */
export const NO_ANCHOR = -2

/**
 * Writes lidar `eid`'s world pose into Lidar.pose / Lidar.origin; returns the object id its scans
 * ignore (its car, or -1 for a fixed lidar), or NO_ANCHOR for a car without a chassis collider yet.
 */
export function lidarWorldPose(components: LidarStores, eid: number): number {
  const { Lidar, Car, Collider } = components
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

