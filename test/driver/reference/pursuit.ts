/**
 * Reference pure pursuit for tests. Pure pursuit: the circular arc from the car's reference point, tangent to its heading, through a
 * goal point down the path. Its curvature 2·y / d² (y the goal's lateral offset in the car frame,
 * d its distance) becomes a road-wheel angle through the car's wheelbase, atan(wheelbase · κ).
 */
import { atan } from '../../../src/driver/atan'
import { MIN_LOOKAHEAD } from '../../../src/driver/drive'

/** Look-ahead distance (m) for `lookahead` seconds at `speed` m/s, at least MIN_LOOKAHEAD. */
export function lookaheadDistance(lookahead: number, speed: number): number {
  const d = lookahead * Math.abs(speed)
  return d > MIN_LOOKAHEAD ? d : MIN_LOOKAHEAD
}

/**
 * Curvature (1/m, + left) of the pure-pursuit arc from (px, py), leaving along the unit direction
 * (ux, uy), through (gx, gy). A goal behind the car asks for the tightest useful turn towards it
 * (the arc through a goal straight behind would be a straight line away from it).
 */
export function pursuitCurvature(px: number, py: number, ux: number, uy: number, gx: number, gy: number): number {
  const dx = gx - px, dy = gy - py
  const fx = ux * dx + uy * dy
  const ly = ux * dy - uy * dx
  const d2 = fx * fx + ly * ly
  if (d2 === 0) return 0
  if (fx < 0) {
    // Behind: turn towards the goal's side with the curvature of a half circle to it.
    const k = 2 / Math.sqrt(d2)
    return ly < 0 ? -k : k
  }
  return (2 * ly) / d2
}

/** Steer input in [-1, 1] (+ left) for path curvature `kappa` through `wheelbase` and steering lock `maxSteer` (rad). */
export function steerForCurvature(kappa: number, wheelbase: number, maxSteer: number): number {
  const u = atan(wheelbase * kappa) / maxSteer // (Math.atan's bits, inlined)
  return u < 1 ? (u > -1 ? u : -1) : u >= 1 ? 1 : 0 // (NaN: straight ahead)
}
