/**
 * The speed profile of a path, built once when the path is set: every point is capped at
 * √(lateralAccel / |curvature|) and at maxSpeed, then a backward pass brakes at brakeDecel into
 * every slower point and a forward pass accelerates at driveAccel out of every slower point.
 * Between points v² is linear in arc length (constant acceleration), which is what both passes
 * assume. A closed path wraps: the passes run around the loop until nothing changes. An open path
 * ends in a stop (0 at its last point).
 */
import { SEG_STRIDE, type Polyline } from './polyline'

/** The limits a profile is built from (m/s, m/s²). */
export interface ProfileLimits {
  maxSpeed: number
  lateralAccel: number
  brakeDecel: number
  driveAccel: number
}

/** Builds the speed profile (m/s per point) of `poly` with point curvatures `kappa`. */
export function buildSpeedProfile(poly: Polyline, kappa: ArrayLike<number>, limits: ProfileLimits, out = new Float64Array(poly.n)): Float64Array {
  const { n, closed, s } = poly
  const { maxSpeed, lateralAccel, brakeDecel, driveAccel } = limits
  for (let i = 0; i < n; i++) {
    const k = Math.abs(kappa[i])
    out[i] = k > 0 ? Math.min(maxSpeed, Math.sqrt(lateralAccel / k)) : maxSpeed
  }
  if (!closed) out[n - 1] = 0
  // Each sweep runs over two laps on a closed path so a limit reaches every point behind (or
  // ahead of) it; repeat until stable (normally one round).
  const sweep = closed ? 2 * n : n - 1
  for (let round = 0; round < 8; round++) {
    let changed = false
    for (let k = 0; k < sweep; k++) {
      // backward: point i from its successor j
      const i = closed ? (((n - 2 - k) % n) + n) % n : n - 2 - k
      const j = i + 1 === n ? 0 : i + 1
      const v = Math.sqrt(out[j] * out[j] + 2 * brakeDecel * (s[i + 1] - s[i]))
      if (v < out[i]) { out[i] = v; changed = true }
    }
    for (let k = 0; k < sweep; k++) {
      // forward: point j from its predecessor i
      const i = closed ? k % n : k
      const j = i + 1 === n ? 0 : i + 1
      const v = Math.sqrt(out[i] * out[i] + 2 * driveAccel * (s[i + 1] - s[i]))
      if (v < out[j]) { out[j] = v; changed = true }
    }
    if (!changed || !closed) break
  }
  return out
}

/**
 * Profile speed at arc length `s` in segment `seg` (v² linear along the segment); also writes the
 * profile's acceleration there (v·dv/ds, m/s²) into accelOut[0].
 */
export function profileSpeedAt(poly: Polyline, profile: Float64Array, seg: number, s: number, accelOut: Float64Array): number {
  const j = seg + 1 === poly.n ? 0 : seg + 1
  const o = seg * SEG_STRIDE
  const t = s - poly.packed[o + 4], len = poly.packed[o + 5]
  const a2 = profile[seg] * profile[seg], b2 = profile[j] * profile[j]
  accelOut[0] = (b2 - a2) / (2 * len)
  const u = t <= 0 ? 0 : t >= len ? 1 : t / len
  return Math.sqrt(a2 + (b2 - a2) * u)
}
