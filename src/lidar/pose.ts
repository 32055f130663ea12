/** A lidar's world pose: fixed, or its car's chassis pose ∘ its mount offset. */
import type { Components } from '../../components/index'
import type { LidarScan } from './scan'

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


/** worldPoints[i] = X[x..x+2] + R[r..r+8]·points[i] (R row-major). */
function turnPoint(scan: LidarScan, i: number, R: ArrayLike<number>, r: number, X: ArrayLike<number>, x: number): void {
  const W = scan.worldPoints!, P = scan.points
  const px = P[3 * i], py = P[3 * i + 1], pz = P[3 * i + 2]
  W[3 * i] = X[x] + R[r] * px + R[r + 1] * py + R[r + 2] * pz
  W[3 * i + 1] = X[x + 1] + R[r + 3] * px + R[r + 4] * py + R[r + 5] * pz
  W[3 * i + 2] = X[x + 2] + R[r + 6] * px + R[r + 7] * py + R[r + 8] * pz
}

/** Fills scan.worldPoints for points [from, count) cast from one pose (rotation `rot`, row-major; position `pos`). */
export function lidarPointsToWorld(scan: LidarScan, from: number, rot: ArrayLike<number>, pos: ArrayLike<number>): void {
  for (let i = from, n = scan.count; i < n; i++) turnPoint(scan, i, rot, 0, pos, 0)
}

/**
 * Fills scan.worldPoints for points [from, count) of a rotating sweep's run: a point of ray index
 * ray is in column y = ray / pitchCount, cast from row y's pose in `rows` (12 numbers a row from
 * column y0: rotation, then position, as interpolateLidarRows writes them).
 */
export function sweepPointsToWorld(scan: LidarScan, from: number, rows: Float64Array, y0: number, pitchCount: number): void {
  const rays = scan.rays
  for (let i = from, n = scan.count; i < n; i++) {
    const r = 12 * (((rays[i] / pitchCount) | 0) - y0)
    turnPoint(scan, i, rows, r, rows, r + 9)
  }
}
