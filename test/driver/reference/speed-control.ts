/**
 * Reference speed controller for tests. The speed controller: PI on the speed error plus feed-forward of the profile's acceleration,
 * as an acceleration demand (m/s²) that becomes either throttle or brake, never both. The pedal
 * scales are rough figures for a road car (full throttle ≈ 3 m/s² in the low gears, full brake ≈
 * 9 m/s²); the integrator absorbs the rest (drag, gear, load), so no car figure is needed.
 */

import { BRAKE_DECEL, SPEED_I_MAX, SPEED_KI, SPEED_KP, THROTTLE_ACCEL } from '../../../src/driver/drive'

/**
 * Acceleration demand (m/s²) to track `target` (m/s) with feed-forward `accelFF` (m/s²) from
 * `speed`; advances the car's integrator (speedI[eid]) over `dt`, holding it while the pedal the
 * error asks for is already fully pressed (anti-windup).
 */
export function speedDemand(speedI: Float64Array, eid: number, target: number, accelFF: number, speed: number, dt: number): number {
  const err = target - speed
  const i = speedI[eid]
  const demand = accelFF + SPEED_KP * err + i
  const saturated = (err > 0 && demand >= THROTTLE_ACCEL) || (err < 0 && demand <= -BRAKE_DECEL)
  const next = saturated ? i : i + SPEED_KI * err * dt
  speedI[eid] = next > SPEED_I_MAX ? SPEED_I_MAX : next < -SPEED_I_MAX ? -SPEED_I_MAX : next
  return demand
}

/** Throttle in [0, 1] for an acceleration demand (0 when braking, and for NaN). */
export function throttleFor(demand: number): number {
  return demand > 0 ? (demand < THROTTLE_ACCEL ? demand / THROTTLE_ACCEL : 1) : 0
}

/** Brake in [0, 1] for an acceleration demand (0 when accelerating, and for NaN). */
export function brakeFor(demand: number): number {
  return demand < 0 ? (demand > -BRAKE_DECEL ? -demand / BRAKE_DECEL : 1) : 0
}
