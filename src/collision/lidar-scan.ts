/** LidarScan: the growable, reusable output of a lidar scan (compact sensor-frame hit points). */

/** The result of rayTestLidar: `count` hits, compact, in ray order (yaw outer, pitch inner). */
export interface LidarScan {
  /** Number of hit points. */
  count: number
  /** Sensor-frame hit points, xyz triples; entries beyond 3·count are stale. */
  points: Float64Array
  /** For each point, the index y·pitchCount + p of its ray. */
  rays: Int32Array
  /** For each point, its range from the sensor (rangeMin + distance along the ray). */
  distances: Float64Array
}

/** Creates an empty scan; it grows on demand and is reused without allocation once warm. */
export function createLidarScan(): LidarScan {
  return { count: 0, points: new Float64Array(0), rays: new Int32Array(0), distances: new Float64Array(0) }
}

/** Empties a scan (keeps its buffers). */
export function clearLidarScan(scan: LidarScan): void {
  scan.count = 0
}

/** Grows `scan`'s buffers (by doubling, keeping contents) so that `n` points fit. */
export function reserveLidarScan(scan: LidarScan, n: number): void {
  const cap = scan.rays.length
  if (n <= cap) return
  let next = Math.max(64, cap)
  while (next < n) next *= 2
  const points = new Float64Array(next * 3)
  points.set(scan.points)
  const rays = new Int32Array(next)
  rays.set(scan.rays)
  const distances = new Float64Array(next)
  distances.set(scan.distances)
  scan.points = points
  scan.rays = rays
  scan.distances = distances
}

/** Throws a TypeError unless `scan` looks like a LidarScan made by createLidarScan. */
export function assertLidarScan(scan: unknown, name: string): LidarScan {
  const s = scan as LidarScan
  if (s === null || typeof s !== 'object' || !(s.points instanceof Float64Array) || !(s.rays instanceof Int32Array) || !(s.distances instanceof Float64Array)) {
    throw new TypeError(`${name} must be a LidarScan from createLidarScan()`)
  }
  return s
}
