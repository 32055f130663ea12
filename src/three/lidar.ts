/**
 * The lidar layer of pitlane/three: the latest scan of every lidar as one point cloud in world
 * coordinates, coloured by intensity (a scan with `intensity` attributes) or else by range. Its
 * buffers are sized once (maxPoints), so an update writes numbers and allocates nothing.
 */
import { BufferAttribute, BufferGeometry, Color, Group, Points, PointsMaterial } from 'three'
import { commitRemovals, registerQuery, type Query } from 'bitecs'
import type { LidarScan, Sim } from '../index'

/** The lidar layer. */
export interface LidarLayer {
  readonly group: Group
  /** Copies every lidar's latest scan into the cloud. */
  update(): void
  /** Points drawn by the last update. */
  readonly count: number
  dispose(): void
}

/** The colour ramp of intensity (or range) from 0 to 1: dark blue, cyan, green, yellow, red. */
export const LIDAR_RAMP: readonly number[] = Object.freeze([0x1e3a8a, 0x06b6d4, 0x22c55e, 0xfacc15, 0xef4444])

const STEPS = 256

/** A lookup table of STEPS colours (rgb floats) along `stops`, evenly spaced. */
function ramp(stops: readonly number[]): Float32Array {
  const out = new Float32Array(STEPS * 3)
  const a = new Color(), b = new Color()
  for (let i = 0; i < STEPS; i++) {
    const t = (i / (STEPS - 1)) * (stops.length - 1)
    const k = Math.min(stops.length - 2, Math.floor(t))
    a.setHex(stops[k]).lerp(b.setHex(stops[k + 1]), t - k)
    out[3 * i] = a.r; out[3 * i + 1] = a.g; out[3 * i + 2] = a.b
  }
  return out
}

/** Builds the lidar layer of `sim` (at most `maxPoints` points, `size` m across, intensities mapped from [lo, hi] onto the ramp). */
export function createLidarLayer(sim: Sim, maxPoints: number, size: number, lo: number, hi: number, stops: readonly number[]): LidarLayer {
  const group = new Group()
  group.name = 'pitlane-lidars'
  const positions = new Float32Array(3 * maxPoints)
  const colors = new Float32Array(3 * maxPoints)
  const geometry = new BufferGeometry()
  const position = new BufferAttribute(positions, 3)
  const color = new BufferAttribute(colors, 3)
  geometry.setAttribute('position', position)
  geometry.setAttribute('color', color)
  geometry.setDrawRange(0, 0)
  const material = new PointsMaterial({ size, vertexColors: true, sizeAttenuation: true })
  const points = new Points(geometry, material)
  points.name = 'pitlane-lidar-points'
  points.frustumCulled = false // the cloud moves with its lidars: its bounds would be stale
  group.add(points)
  const lut = ramp(stops)
  const query: Query = registerQuery(sim.world, [sim.components.Lidar])
  // the value mapped to the ramp's first colour and the colours per unit: intensities (0, 1), ranges (2, 3)
  const map = new Float64Array([lo, (STEPS - 1) / (hi - lo), 0, 0])
  let count = 0

  /**
   * Copies the first `count` sensor-frame points into the cloud from point n on, placed by the lidar's pose (rotation P[k..k+8], origin O[q..q+2]) and coloured from `values`
   * through map[mi], map[mi + 1]; returns the new n. One loop and nothing before it: a long first
   * call gets its loop optimised with no feedback for code ahead of the loop, which then deopts,
   * and the function can stay in on-stack-replacement code, boxing its doubles on every call
   * (decision 0007's trap; test/three/debug-view.test.ts 'allocates nothing per update' fails in
   * some processes with the clamp or property reads ahead of the loop).
   */
  function copyPoints(pts: Float64Array, values: Float64Array, count: number, P: Float64Array, k: number, O: Float64Array, q: number, mi: number, n: number): number {
    for (let i = 0; i < count; i++, n++) {
      const x = pts[3 * i], y = pts[3 * i + 1], z = pts[3 * i + 2]
      positions[3 * n] = P[k] * x + P[k + 1] * y + P[k + 2] * z + O[q]
      positions[3 * n + 1] = P[k + 3] * x + P[k + 4] * y + P[k + 5] * z + O[q + 1]
      positions[3 * n + 2] = P[k + 6] * x + P[k + 7] * y + P[k + 8] * z + O[q + 2]
      let c = Math.round((values[i] - map[mi]) * map[mi + 1])
      c = c < 0 ? 0 : c > STEPS - 1 ? STEPS - 1 : c
      colors[3 * n] = lut[3 * c]; colors[3 * n + 1] = lut[3 * c + 1]; colors[3 * n + 2] = lut[3 * c + 2]
    }
    return n
  }

  function update(): void {
    commitRemovals(sim.world)
    const list = query.dense as ArrayLike<number>
    const L = sim.components.Lidar
    let n = 0
    for (let l = 0; l < list.length && n < maxPoints; l++) {
      const lidar = list[l]
      const scan = sim.lidarScan(lidar)
      // without intensities, colour by range over the lidar's window
      const byIntensity = scan.intensities !== null
      if (!byIntensity) { map[2] = L.rangeMin[lidar]; map[3] = (STEPS - 1) / Math.max(1e-9, L.rangeMax[lidar] - L.rangeMin[lidar]) }
      // world point = pose · p + origin (as of that scan)
      const room = maxPoints - n
      n = copyPoints(scan.points, byIntensity ? scan.intensities! : scan.distances, scan.count < room ? scan.count : room, L.pose, lidar * 9, L.origin, lidar * 3, byIntensity ? 0 : 2, n)
    }
    geometry.setDrawRange(0, n)
    position.needsUpdate = true
    color.needsUpdate = true
    count = n
  }

  return {
    group,
    update,
    get count() { return count },
    dispose() {
      group.remove(points)
      geometry.dispose()
      material.dispose()
    },
  }
}
