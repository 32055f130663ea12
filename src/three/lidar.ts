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

  /** Copies `scan`'s points from index 0 on into the cloud from point n on (at most maxPoints in all); returns the new n. */
  function copyScan(scan: LidarScan, lidar: number, n: number): number {
    const L = sim.components.Lidar
    // world point = pose · p + origin (as of that scan)
    const P = L.pose, k = lidar * 9, O = L.origin, q = lidar * 3
    const r0 = P[k], r1 = P[k + 1], r2 = P[k + 2], r3 = P[k + 3], r4 = P[k + 4], r5 = P[k + 5], r6 = P[k + 6], r7 = P[k + 7], r8 = P[k + 8]
    const ox = O[q], oy = O[q + 1], oz = O[q + 2]
    const pts = scan.points
    // without intensities, colour by range over the lidar's window
    const byIntensity = scan.intensities !== null
    const values = byIntensity ? scan.intensities! : scan.distances
    if (!byIntensity) { map[2] = L.rangeMin[lidar]; map[3] = (STEPS - 1) / Math.max(1e-9, L.rangeMax[lidar] - L.rangeMin[lidar]) }
    const m0 = byIntensity ? map[0] : map[2], m1 = byIntensity ? map[1] : map[3]
    const end = Math.min(scan.count, maxPoints - n)
    for (let i = 0; i < end; i++, n++) {
      const x = pts[3 * i], y = pts[3 * i + 1], z = pts[3 * i + 2]
      positions[3 * n] = r0 * x + r1 * y + r2 * z + ox
      positions[3 * n + 1] = r3 * x + r4 * y + r5 * z + oy
      positions[3 * n + 2] = r6 * x + r7 * y + r8 * z + oz
      let c = Math.round((values[i] - m0) * m1)
      c = c < 0 ? 0 : c > STEPS - 1 ? STEPS - 1 : c
      colors[3 * n] = lut[3 * c]; colors[3 * n + 1] = lut[3 * c + 1]; colors[3 * n + 2] = lut[3 * c + 2]
    }
    return n
  }

  function update(): void {
    commitRemovals(sim.world)
    const list = query.dense as ArrayLike<number>
    let n = 0
    for (let l = 0; l < list.length && n < maxPoints; l++) n = copyScan(sim.lidarScan(list[l]), list[l], n)
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
