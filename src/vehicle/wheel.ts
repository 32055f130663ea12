/**
 * Wheel spin and planar-body steps shared by both models. The wheel is integrated implicitly
 * against its tyre (the tyre is a stiff damper near zero slip), then brake and rolling-resistance
 * torques act as friction that can hold the wheel exactly still (a locked or parked wheel).
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import { ptFree as ptFree_, ptJ as ptJ_ } from './powertrain'
import { substep as substep_ } from './substep'

// Imported bindings copied to module constants: test runners that turn imports into namespace
// lookups (vitest) would otherwise pay a property load per use in the hot loop.
const ptFree = ptFree_
const ptJ = ptJ_
const substep = substep_

/** Input of freeWheel: [omega, iw, cx, vxw, brakeT, fricT] (scratch). */
export const wheelIn = new Float64Array(6)
/** Input of integratePlanar: [fx, fy, mz, cx, cy, cr] (scratch). */
export const bodyIn = new Float64Array(6)

/** Per wheel: 1 when friction held the wheel at rest this substep (scratch). */
export const wheelHeld = new Uint8Array(4)

// ABS holds a braked wheel's slip ratio at this fraction of the tyre's peak slip
const ABS_SLIP = 0.85

/**
 * Free (no drive torque) implicit spin update of wheel slot `i` from wheelIn (see
 * freeSpinMomentum): writes ptFree[i] (rad/s), ptJ[i] (wheelInertia) and wheelHeld[i].
 */
export function freeWheel(d: ResolvedCar, i: number): void {
  const h = substep[0]
  const iw = wheelIn[1]
  const cx = wheelIn[2]
  const J = wheelInertia(d, h, iw, cx)
  const num = freeSpinMomentum(d, h, wheelIn[0], iw, cx, wheelIn[3], wheelIn[4], wheelIn[5], J)
  ptFree[i] = num / J
  ptJ[i] = J
  wheelHeld[i] = num === 0 ? 1 : 0
}

/** A wheel's effective inertia over a substep of `h` s: inertia `iw` (kg·m²) plus the implicit tyre term of damping `cx` (N/(m/s)), kg·m². */
export function wheelInertia(d: ResolvedCar, h: number, iw: number, cx: number): number {
  const R = d.R
  return iw + h * R * R * cx
}

/**
 * Free (no drive torque) implicit spin update of a wheel over a substep of `h` s: spin `omega`, inertia `iw`, tyre damping
 * `cx` (N/(m/s)) at ground speed `vxw`, pedal brake torque `brakeT` and other friction `fricT`
 * (handbrake, rolling resistance), effective inertia `J` (wheelInertia). With ABS the pedal may
 * slow the wheel only down to the slip ratio ABS_SLIP·peakSlip (an ideal slip controller, so the
 * car brakes near the tyre's peak and keeps steering). Returns J·ω after the substep (N·m·s): the
 * free spin is that over J, and 0 means friction holds the wheel at rest. Small and on plain
 * numbers, so that V8 inlines it into both models (a call it did not inline would box them).
 */
export function freeSpinMomentum(d: ResolvedCar, h: number, omega: number, iw: number, cx: number, vxw: number, brakeT: number, fricT: number, J: number): number {
  const R = d.R
  const base = iw * omega + h * R * cx * vxw
  let num = friction(base, h * (brakeT + fricT))
  // The spin without the pedal, for ABS, taken on every call rather than in the (rarely run) ABS
  // branch: there V8 saw the call too seldom to inline it, and a call's (tagged) result merged
  // into num made num tagged on every path, a heap number per wheel per substep.
  const unbraked = friction(base, h * fricT)
  if (d.abs && brakeT > 0 && (vxw > 1 || vxw < -1)) {
    const limit = (vxw * (1 - ABS_SLIP * d.peakSlip) * J) / R
    if (vxw > 0 && num < limit) num = unbraked < limit ? unbraked : limit
    else if (vxw < 0 && num > limit) num = unbraked > limit ? unbraked : limit
  }
  return num
}

// Friction impulse f (≥ 0) on angular momentum-like `num`: reduces |num|, stopping at 0.
function friction(num: number, f: number): number {
  return num > f ? num - f : num < -f ? num + f : 0
}

/** Rate-limited steering: moves the car's road-wheel angle (C.steerAngle) towards the input. */
export function steerTowards(C: CarStore, d: ResolvedCar, eid: number): void {
  const target = C.steer[eid] * d.maxSteer
  let delta = C.steerAngle[eid]
  const step = d.steerRate * substep[0]
  const diff = target - delta
  delta = diff > step ? delta + step : diff < -step ? delta - step : target
  C.steerAngle[eid] = delta
}

/**
 * Integrates the planar body one substep from bodyIn: body-frame force (fx, fy), yaw moment mz,
 * damping cx, cy, cr. Longitudinal explicit (the implicit wheels bound its stiffness) except `cx` for held wheels,
 * lateral and yaw with the diagonal implicit damping `cy`, `cr` (stable at low speed and low rates,
 * and exact in a steady state where the net force vanishes). Then heading and position.
 */
export function integratePlanar(C: CarStore, d: ResolvedCar, eid: number): void {
  const h = substep[0]
  const fx = bodyIn[0]
  const fy = bodyIn[1]
  const mz = bodyIn[2]
  const cx = bodyIn[3]
  const cy = bodyIn[4]
  const cr = bodyIn[5]
  const m = d.mass
  const vx = C.vx[eid]
  const vy = C.vy[eid]
  const r = C.yawRate[eid]
  const v = Math.sqrt(vx * vx + vy * vy)
  const k = d.dragK * v
  const axn = (fx - k * vx) / m + r * vy
  const ayn = (fy - k * vy) / m - r * vx
  // (with no wheel held the divisor is exactly 1: skipped)
  const nvx = cx === 0 ? vx + h * axn : vx + (h * axn) / (1 + (h * cx) / m)
  const nvy = vy + (h * ayn) / (1 + (h * cy) / m)
  const nr = r + (h * mz) / d.iz / (1 + (h * cr) / d.iz)
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
