// Test helpers: a seeded PRNG, random scenes, and the oracle scan built from sim.rayTest alone.
import type { Sim } from '../../src/sim'
import type { Shape } from '../../src/collision/shapes'
import { mat3FromQuat } from '../../src/math/mat3'
export { rng } from '../collision/helpers'
import { randomQuat } from '../random'
export { randomQuat }

/** Row-major matrix of a rotation given as Mat3 (9) or quaternion (4). */
export function toMat3(rot: ArrayLike<number>): Float64Array {
  const m = new Float64Array(9)
  if (rot.length === 9) for (let i = 0; i < 9; i++) m[i] = rot[i]
  else mat3FromQuat(m, 0, rot[0], rot[1], rot[2], rot[3])
  return m
}

/** A scan as plain arrays. */
export interface PlainScan { rays: number[]; points: number[]; distances: number[] }

/**
 * The oracle: rayTest along every ray of the pattern (yaw outer, pitch inner; start at rangeMin,
 * length rangeMax − rangeMin), each hit moved into the sensor frame: Rᵀ·(hit − pos).
 */
export function oracleScan(sim: Sim, rot: ArrayLike<number>, pos: ArrayLike<number>, ys: number, yi: number, yc: number, ps: number, pi: number, pc: number,
  rangeMin: number, rangeMax: number, oid: number, lid: number, mask: number): PlainScan {
  const R = toMat3(rot)
  const out: PlainScan = { rays: [], points: [], distances: [] }
  for (let y = 0; y < yc; y++) {
    const yaw = ys + y * yi
    for (let p = 0; p < pc; p++) {
      const pitch = ps + p * pi
      const dx = Math.cos(pitch) * Math.cos(yaw), dy = Math.cos(pitch) * Math.sin(yaw), dz = Math.sin(pitch)
      const w = [R[0] * dx + R[1] * dy + R[2] * dz, R[3] * dx + R[4] * dy + R[5] * dz, R[6] * dx + R[7] * dy + R[8] * dz]
      const start = [pos[0] + rangeMin * w[0], pos[1] + rangeMin * w[1], pos[2] + rangeMin * w[2]]
      const list = sim.rayTest(start, w, rangeMax - rangeMin, oid, lid, mask)
      if (list.size() === 0) continue
      const h = list.at(0)!
      const vx = h.position[0] - pos[0], vy = h.position[1] - pos[1], vz = h.position[2] - pos[2]
      out.rays.push(y * pc + p)
      out.points.push(R[0] * vx + R[3] * vy + R[6] * vz, R[1] * vx + R[4] * vy + R[7] * vz, R[2] * vx + R[5] * vy + R[8] * vz)
      out.distances.push(rangeMin + h.distance)
    }
  }
  return out
}

/** First difference between a scan and the oracle beyond `tol` (m), or null when they agree point for point. */
export function scanDifference(scan: { count: number; rays: Int32Array; points: Float64Array; distances: Float64Array }, o: PlainScan, tol = 1e-9): string | null {
  if (scan.count !== o.rays.length) return `count ${scan.count} vs oracle ${o.rays.length}`
  for (let i = 0; i < scan.count; i++) {
    if (scan.rays[i] !== o.rays[i]) return `point ${i}: ray ${scan.rays[i]} vs oracle ${o.rays[i]}`
    for (let k = 0; k < 3; k++) {
      const d = Math.abs(scan.points[3 * i + k] - o.points[3 * i + k])
      if (!(d <= tol)) return `point ${i} (ray ${o.rays[i]}) axis ${k}: ${scan.points[3 * i + k]} vs oracle ${o.points[3 * i + k]}`
    }
    if (!(Math.abs(scan.distances[i] - o.distances[i]) <= tol)) return `point ${i}: distance ${scan.distances[i]} vs oracle ${o.distances[i]}`
  }
  return null
}

/** Adds `n` random colliders of every kind inside the box centre ± half (m), with sizes up to `size`. */
export function randomScene(sim: Sim, r: () => number, n: number, centre: number[], half: number, size: number): number[] {
  const ids: number[] = []
  for (let i = 0; i < n; i++) {
    const position = [centre[0] + (2 * r() - 1) * half, centre[1] + (2 * r() - 1) * half, centre[2] + (2 * r() - 1) * half * 0.2]
    const s = size * (0.1 + r())
    const k = Math.floor(r() * 9)
    const shape =
      k === 0 ? { kind: 'sphere', radius: s } :
      k <= 2 ? { kind: 'box', halfExtents: [s, s * (0.05 + r()), s * (0.05 + r())] } :
      k === 3 ? { kind: 'capsule', radius: s * 0.4, halfHeight: s * r() } :
      k === 4 ? { kind: 'cylinder', radius: s * 0.5, halfHeight: s * (0.1 + r()) } :
      k === 5 && r() < 0.3 ? { kind: 'heightfield', origin: [-s, -s, 0], cellSize: s / 2, columns: 5, rows: 5, heights: Array.from({ length: 25 }, () => (r() - 0.5) * s) } :
      { kind: 'box', halfExtents: [s * (0.2 + r()), s * (0.2 + r()), s * (0.2 + r())] }
    const group = 1 << Math.floor(r() * 3)
    const object = r() < 0.2 ? 7 : undefined
    const localId = object === undefined ? 0 : Math.floor(r() * 2)
    ids.push(sim.addCollider(shape as Shape, { position, rotation: randomQuat(r), group, object, localId }))
  }
  return ids
}

/** A scan's count, ray indices, points and distances as one string of exact bits (for bit-for-bit comparisons). */
export function exactScan(scan: { count: number; rays: Int32Array; points: Float64Array; distances: Float64Array }): string {
  const n = scan.count
  const b = new Float64Array(4 * n)
  for (let i = 0; i < n; i++) { b[4 * i] = scan.points[3 * i]; b[4 * i + 1] = scan.points[3 * i + 1]; b[4 * i + 2] = scan.points[3 * i + 2]; b[4 * i + 3] = scan.distances[i] }
  return `${n}|${Array.from(scan.rays.subarray(0, n)).join(',')}|${new BigUint64Array(b.buffer).join(',')}`
}

/** Slerp of unit quaternions, an independent form of the sweep's interpolation. */
export function slerp(a: number[], b: number[], f: number): number[] {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
  const s = d < 0 ? -1 : 1
  d = Math.abs(d)
  const th = Math.acos(Math.min(1, d))
  const w0 = th < 1e-6 ? 1 - f : Math.sin((1 - f) * th) / Math.sin(th), w1 = s * (th < 1e-6 ? f : Math.sin(f * th) / Math.sin(th))
  const q = [0, 1, 2, 3].map((k) => w0 * a[k] + w1 * b[k])
  const n = Math.hypot(...q)
  return q.map((v) => v / n)
}

/** The unit quaternion [x, y, z, w] of a row-major rotation matrix. */
export function quatOf(m: ArrayLike<number>): number[] {
  // Shepperd's method on the row-major matrix
  const t = m[0] + m[4] + m[8]
  if (t > 0) { const s = Math.sqrt(t + 1) * 2; return [(m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s, s / 4] }
  if (m[0] > m[4] && m[0] > m[8]) { const s = Math.sqrt(1 + m[0] - m[4] - m[8]) * 2; return [s / 4, (m[1] + m[3]) / s, (m[2] + m[6]) / s, (m[7] - m[5]) / s] }
  if (m[4] > m[8]) { const s = Math.sqrt(1 + m[4] - m[0] - m[8]) * 2; return [(m[1] + m[3]) / s, s / 4, (m[5] + m[7]) / s, (m[2] - m[6]) / s] }
  const s = Math.sqrt(1 + m[8] - m[0] - m[4]) * 2
  return [(m[2] + m[6]) / s, (m[5] + m[7]) / s, s / 4, (m[3] - m[1]) / s]
}

/** The row-major rotation matrix of a unit quaternion [x, y, z, w]. */
export function matOf(q: number[]): number[] {
  const [x, y, z, w] = q
  return [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]
}
