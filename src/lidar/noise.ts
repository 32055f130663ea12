/**
 * Deterministic lidar noise: Gaussian range noise, a general dropout rate and an intensity-based
 * dropout, each draw a pure function of (seed, scan number, ray index, stream) — a counter-based
 * generator, so a point's noise never depends on the order or the batching of scans (stepMany ≡
 * step, a replay redraws the same numbers).
 */
import type { LidarScan } from './scan'

/** Noise of a lidar (addLidar's `noise`); all default to none. */
export interface LidarNoise {
  /** Standard deviation of the Gaussian range noise, m (default 0). */
  range?: number
  /** Probability that a point is dropped, in [0, 1] (default 0). */
  dropout?: number
  /**
   * Probability that a point of intensity 0 is dropped, falling linearly to 0 at intensity 1
   * (default 0; as CARLA's intensity-based drop-off with its limit at 1). Turns the scan's
   * intensities on.
   */
  intensityDropout?: number
  /** Generator seed, an integer (default 0). */
  seed?: number
}

/** A 32-bit integer mix (Chris Wellons' lowbias32: full avalanche). */
function mix32(x: number): number {
  x ^= x >>> 16
  x = Math.imul(x, 0x7feb352d)
  x ^= x >>> 15
  x = Math.imul(x, 0x846ca68b)
  x ^= x >>> 16
  return x >>> 0
}

/** A uniform number in (0, 1) drawn from (seed, scan, ray, stream): the same arguments, the same number. */
export function lidarUniform(seed: number, scan: number, ray: number, stream: number): number {
  const h = mix32((mix32(mix32(seed ^ 0x9e3779b9) ^ scan) + Math.imul(ray, 4) + stream) | 0)
  return (h + 0.5) / 4294967296
}

/** A standard normal number from (seed, scan, ray) (Box–Muller on streams 0 and 1). */
export function lidarGaussian(seed: number, scan: number, ray: number): number {
  const u1 = lidarUniform(seed, scan, ray, 0), u2 = lidarUniform(seed, scan, ray, 1)
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2)
}

/** Moves point `from` of `scan` to slot `to` (every array the scan carries). */
function movePoint(scan: LidarScan, from: number, to: number): void {
  const p = scan.points
  p[3 * to] = p[3 * from]; p[3 * to + 1] = p[3 * from + 1]; p[3 * to + 2] = p[3 * from + 2]
  scan.rays[to] = scan.rays[from]
  scan.distances[to] = scan.distances[from]
  if (scan.colliders) scan.colliders[to] = scan.colliders[from]
  if (scan.objects) { scan.objects[to] = scan.objects[from]; scan.localIds![to] = scan.localIds![from] }
  if (scan.triangles) scan.triangles[to] = scan.triangles[from]
  if (scan.normals) {
    const n = scan.normals
    n[3 * to] = n[3 * from]; n[3 * to + 1] = n[3 * from + 1]; n[3 * to + 2] = n[3 * from + 2]
    scan.cosines![to] = scan.cosines![from]
  }
  if (scan.intensities) scan.intensities[to] = scan.intensities[from]
  if (scan.times) scan.times[to] = scan.times[from]
}

/**
 * Applies noise to points [from, scan.count): drops points (stream 2: general dropout, stream 3:
 * intensity dropout), compacting the scan, and moves each kept point along its ray by σ·N(0, 1)
 * (the range never below 0). `scanNumber` keys the draws with the seed and each point's ray index.
 */
export function applyLidarNoise(scan: LidarScan, from: number, sigma: number, dropout: number, intensityDropout: number, seed: number, scanNumber: number): void {
  const pts = scan.points, rays = scan.rays, dist = scan.distances, inten = scan.intensities
  let k = from
  for (let i = from, n = scan.count; i < n; i++) {
    const ray = rays[i]
    if (dropout > 0 && lidarUniform(seed, scanNumber, ray, 2) < dropout) continue
    if (intensityDropout > 0 && inten !== null && lidarUniform(seed, scanNumber, ray, 3) < intensityDropout * (1 - inten[i])) continue
    if (k !== i) movePoint(scan, i, k)
    if (sigma > 0) {
      const r = dist[k]
      const noisy = r + sigma * lidarGaussian(seed, scanNumber, ray)
      const range = noisy > 0 ? noisy : 0
      if (r > 0) {
        const s = range / r
        pts[3 * k] *= s; pts[3 * k + 1] *= s; pts[3 * k + 2] *= s
      }
      dist[k] = range
    }
    k++
  }
  scan.count = k
}
