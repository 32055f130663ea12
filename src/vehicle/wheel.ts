/**
 * Wheel spin and planar-body steps shared by both models. The wheel is integrated implicitly
 * against its tyre (the tyre is a stiff damper near zero slip), then brake and rolling-resistance
 * torques act as friction that can hold the wheel exactly still (a locked or parked wheel).
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { Substep } from './substep'

/**
 * One wheel in a substep: what the model sets for its free (no drive torque) spin update, what
 * freeSpin computes, and the drive torque the driveline adds.
 */
export interface WheelSpin {
  /** Spin, rad/s. */
  omega: number
  /** Spin inertia, kg·m². */
  inertia: number
  /** The tyre's longitudinal damping, N/(m/s). */
  damping: number
  /** Ground speed along the wheel, m/s. */
  ground: number
  /** Pedal brake torque, N·m (ABS acts on this one). */
  brakeTorque: number
  /** Other friction torque (handbrake, rolling resistance), N·m. */
  frictionTorque: number
  /** Out: effective inertia over the substep (inertia plus the implicit tyre term), kg·m². */
  effectiveInertia: number
  /** Out: free spin after the substep, rad/s. */
  free: number
  /** Out: true when friction holds the wheel at rest. */
  held: boolean
  /** Out: the most force it holds the car with while held (its brake and friction torques' over the radius), N; 0 while it turns. */
  holding: number
  /** Drive torque the driveline adds this substep, N·m. */
  torque: number
  /** Out of tractionControl: spin after the substep with the drive torque it leaves, rad/s. */
  spinAfter: number
}

/** A WheelSpin to fill (numbers start as NaN: decision 0007). */
export function createWheelSpin(): WheelSpin {
  return { omega: NaN, inertia: NaN, damping: NaN, ground: NaN, brakeTorque: NaN, frictionTorque: NaN, effectiveInertia: NaN, free: NaN, held: false, holding: NaN, torque: NaN, spinAfter: NaN }
}

/** The summed body-frame tyre forces of a substep and the dampings the body update treats implicitly. */
export interface BodyForces {
  /** Longitudinal force, N. */
  fx: number
  /** Lateral force, N. */
  fy: number
  /** Yaw moment, N·m. */
  mz: number
  /** Longitudinal damping of the wheels friction holds at rest, N/(m/s). */
  heldDamping: number
  /** The part of fx those held wheels give, N. */
  heldForce: number
  /** Their peak force along the body, N: static grip, the most they can hold the body with. */
  heldGrip: number
  /** Lateral damping, N/(m/s). */
  lateralDamping: number
  /** Yaw damping, N·m/(rad/s). */
  yawDamping: number
}

/** A BodyForces to fill (numbers start as NaN: decision 0007). */
export function createBodyForces(): BodyForces {
  return { fx: NaN, fy: NaN, mz: NaN, heldDamping: NaN, heldForce: NaN, heldGrip: NaN, lateralDamping: NaN, yawDamping: NaN }
}

// ABS holds a braked wheel's slip ratio at this fraction of the tyre's peak slip
const ABS_SLIP = 0.85

/**
 * The implicit free spin update of one wheel over the substep: effective inertia J = I + h·R²·c,
 * then J·ω' = I·ω + h·R·c·vx less the friction impulses (which stop at 0: a held wheel). With ABS
 * the pedal may slow the wheel only down to the slip ratio ABS_SLIP·peakSlip (an ideal slip
 * controller, so the car brakes near the tyre's peak and keeps steering).
 */
export function freeSpin(d: ResolvedCar, step: Substep, w: WheelSpin): void {
  const h = step.h
  const R = d.R
  const cx = w.damping
  const vxw = w.ground
  const J = w.inertia + h * R * R * cx
  const base = w.inertia * w.omega + h * R * cx * vxw
  const brakeT = w.brakeTorque
  const fricT = w.frictionTorque
  // the friction impulses reduce |base|, stopping at 0
  const braked = h * (brakeT + fricT)
  let num = base > braked ? base - braked : base < -braked ? base + braked : 0
  if (d.abs && brakeT > 0 && (vxw > 1 || vxw < -1)) {
    const limit = (vxw * (1 - ABS_SLIP * d.peakSlip) * J) / R
    const rolling = h * fricT
    const unbraked = base > rolling ? base - rolling : base < -rolling ? base + rolling : 0
    if (vxw > 0 && num < limit) num = unbraked < limit ? unbraked : limit
    else if (vxw < 0 && num > limit) num = unbraked > limit ? unbraked : limit
  }
  w.effectiveInertia = J
  w.free = num / J
  w.held = num === 0
  w.holding = num === 0 ? (brakeT + fricT) / R : 0
}

/** Rate-limited steering: moves the car's road-wheel angle (C.steerAngle) towards the input. */
export function steerTowards(C: CarStore, d: ResolvedCar, eid: number, step: Substep): void {
  const target = C.steer[eid] * d.maxSteer
  let delta = C.steerAngle[eid]
  const max = d.steerRate * step.h
  const diff = target - delta
  delta = diff > max ? delta + max : diff < -max ? delta - max : target
  C.steerAngle[eid] = delta
}

/**
 * Integrates the planar body one substep under `f`: longitudinal explicit (the implicit wheels
 * bound its stiffness) except for held wheels, lateral and yaw with the diagonal implicit dampings
 * (stable at low speed and low rates, and exact in a steady state where the net force vanishes).
 * Then heading and position.
 */
export function integratePlanar(C: CarStore, d: ResolvedCar, eid: number, step: Substep, f: BodyForces): void {
  const h = step.h
  const fx = f.fx
  const cx = f.heldDamping
  const m = d.mass
  const vx = C.vx[eid]
  const vy = C.vy[eid]
  const r = C.yawRate[eid]
  const v = Math.sqrt(vx * vx + vy * vy)
  const k = d.dragK * v
  const axn = (fx - k * vx) / m + r * vy
  const ayn = (f.fy - k * vy) / m - r * vx
  // (with no wheel held the divisor is exactly 1: skipped)
  let nvx = cx === 0 ? vx + h * axn : vx + (h * axn) / (1 + (h * cx) / m)
  if (cx !== 0) {
    // static grip: held wheels that can stop the body this substep keep it exactly still (a held
    // tyre is not a damper that lets a steady outside force push the car along)
    const need = (m * (vx + h * (axn - f.heldForce / m))) / h
    if (need <= f.heldGrip && need >= -f.heldGrip) nvx = 0
  }
  const nvy = vy + (h * ayn) / (1 + (h * f.lateralDamping) / m)
  const nr = r + (h * f.mz) / d.iz / (1 + (h * f.yawDamping) / d.iz)
  C.vx[eid] = nvx
  C.vy[eid] = nvy
  C.yawRate[eid] = nr
  // longitudinal tyre force per unit mass: what transfers load to the axles (drag acts at the body)
  C.ax[eid] = fx / m
  const psi = C.heading[eid] + h * nr
  C.heading[eid] = psi
  const c = Math.cos(psi)
  const s = Math.sin(psi)
  C.x[eid] += h * (nvx * c - nvy * s)
  C.y[eid] += h * (nvx * s + nvy * c)
}
