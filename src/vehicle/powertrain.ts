/**
 * The powertrain shared by both models: engine torque (curve, idle control, rev limiter, engine
 * braking), gear selection (automatic or manual), clutch with a launch aid, and the driveline
 * solve. The driveline is solved implicitly: the driven wheels' free speeds (tyre treated
 * implicitly, brakes applied) and effective inertias come in, and the clutch torque that would
 * lock engine and wheels together this substep is computed and clamped to the clutch capacity,
 * so a stiff locked driveline stays stable at any substep.
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { Substep } from './substep'
import { V_LOW } from './tyre'
import { createWheelSpin, type WheelSpin } from './wheel'

/**
 * The driveline's numbers in one substep: its wheels (FL, FR, RL, RR; the single-track model uses
 * 0 and 2 for its axles) with their free spin and the drive torque they get, the driven wheels'
 * sums, what prepareDriveline prepares, and the clutch lock's result.
 */
export interface Driveline {
  /** The wheels, FL, FR, RL, RR. */
  wheels: WheelSpin[]
  /** Driven wheels' share-weighted free spin, rad/s. */
  carrier: number
  /** Driven wheels' share-weighted ground speed, m/s. */
  roll: number
  /** Driven wheels' Σ share²/J, 1/(kg·m²). */
  inertiaSum: number
  /** Prepared: engine torque, N·m. */
  engineTorque: number
  /** Prepared: clutch capacity, N·m (0: open, no torque). */
  capacity: number
  /** Prepared: overall ratio of the gear engaged. */
  ratio: number
  /** Prepared: the engine speed the engine torque adds over a substep, h·torque / inertia, rad/s. */
  engineImpulse: number
  /** Prepared: ratio² · efficiency, the wheels' inertia as the clutch sees it per unit of their Σ share²/J. */
  lockGain: number
  /** Engine speed before (in) and after (out) lockClutch, rad/s. */
  engineSpeed: number
  /** Out of lockClutch: drive torque at the wheels before the shares, N·m. */
  driveTorque: number
}

/** A Driveline to fill (numbers start as NaN: decision 0007). */
export function createDriveline(): Driveline {
  return {
    wheels: [createWheelSpin(), createWheelSpin(), createWheelSpin(), createWheelSpin()],
    carrier: NaN, roll: NaN, inertiaSum: NaN, engineTorque: NaN, capacity: NaN, ratio: NaN, engineImpulse: NaN, lockGain: NaN, engineSpeed: NaN, driveTorque: NaN,
  }
}

// proportional idle controller: full throttle 100 rpm below idle
const IDLE_GAIN = 30 / (Math.PI * 100)

// Net engine torque at engine speed `we` (rad/s) and pedal `throttle`, N·m.
function engineTorque(d: ResolvedCar, we: number, throttle: number): number {
  let th = we > d.maxW ? 0 : throttle
  const idle = (d.idleW - we) * IDLE_GAIN
  if (idle > th) th = idle > 1 ? 1 : idle
  const cw = d.curveW
  const ct = d.curveT
  const n = cw.length
  let t: number
  if (we <= cw[0]) t = ct[0]
  else if (we >= cw[n - 1]) t = ct[n - 1]
  else {
    let i = 1
    while (cw[i] < we) i++
    const f = (we - cw[i - 1]) / (cw[i] - cw[i - 1])
    t = ct[i - 1] + f * (ct[i] - ct[i - 1])
  }
  return th * t - (1 - th) * d.frictionPerW * (we > 0 ? we : 0)
}

/**
 * Steps engine and clutch for one substep from the free spin of dl's wheels with drive share
 * `share`, and sets every wheel's drive torque (the four-wheel model). `pairs`: apply the
 * limited-slip coupling between wheels 0–1 and 2–3.
 */
export function stepDriveline(C: CarStore, d: ResolvedCar, eid: number, step: Substep, dl: Driveline, share: Float64Array, pairs: boolean): void {
  const wheels = dl.wheels
  let carrier = 0
  let roll = 0
  let S = 0
  for (let i = 0; i < 4; i++) {
    const s = share[i]
    const w = wheels[i]
    if (s !== 0) { carrier += s * w.free; roll += s * w.ground; S += (s * s) / w.effectiveInertia }
    w.torque = 0
  }
  dl.carrier = carrier
  dl.roll = roll
  dl.inertiaSum = S
  prepareDriveline(C, d, eid, step, 1, dl)
  dl.engineSpeed = C.engineSpeed[eid]
  lockClutch(d, step, dl)
  C.engineSpeed[eid] = dl.engineSpeed
  if (!(dl.capacity > 0)) return
  const tc = dl.driveTorque
  for (let i = 0; i < 4; i++) wheels[i].torque = share[i] * tc
  if (pairs && d.lsd) {
    if (share[0] > 0) lsdPair(d, step, dl, share, 0, 1)
    if (share[2] > 0) lsdPair(d, step, dl, share, 2, 3)
  }
  if (d.tcs) for (let i = 0; i < 4; i++) if (share[i] !== 0) tractionControl(d, step, wheels[i])
}

// A kick-down lands the engine at most at this fraction of the upshift point of the throttle.
const KICK_MARGIN = 0.9
// A gear is engaged only while it turns the engine at most this far past the limiter.
const FIT_ABOVE = 1.02

/**
 * Gear, engine torque and clutch capacity for the next `steps` substeps, from dl.carrier and
 * dl.roll, into dl.engineTorque, dl.capacity and dl.ratio: gear selection and the shift timer
 * (run down by `steps` substeps), the engine's torque at its present speed and the clutch's
 * capacity. The four-wheel model prepares every substep; the single-track model at most every
 * 1/60 s of substeps (single-track.ts).
 */
export function prepareDriveline(C: CarStore, d: ResolvedCar, eid: number, step: Substep, steps: number, dl: Driveline): void {
  const carrier = dl.carrier
  // The gearbox input speed the driven wheels ask of the engine: the larger of their spin and the
  // spin they would have rolling on the ground (a locked wheel spins up again).
  const rolling = dl.roll / d.R
  const wheelW = Math.abs(rolling) > Math.abs(carrier) ? rolling : carrier
  const prev = C.gearActual[eid]
  let gear = prev
  let timer = C.shiftTimer[eid] - steps * step.h
  if (timer < 0) timer = 0
  const want = C.gear[eid]
  const throttle = C.throttle[eid]
  if (!d.automatic) {
    // the gear asked for, or neutral until it fits (see below)
    gear = want < -1 ? -1 : want > d.gears ? d.gears : want
    if (gear !== prev && prev !== 0 && gear !== 0 && timer === 0) timer = d.shiftTime
  } else if (want <= 0) {
    gear = want < 0 ? -1 : 0
  } else if (prev <= 0) {
    // into drive: the lowest gear that does not have to shift up at once
    gear = 1
    while (gear < d.gears && wheelW * d.overall[gear] > d.upW) gear++
  } else if (timer === 0) {
    // the shift map: the throttle moves both shift points up (early upshifts when light, kick-down
    // when floored); a downshift lands below KICK_MARGIN of the upshift point, so it never hunts
    const w = wheelW * d.overall[gear]
    const light = Math.min(d.upW, 2.1 * d.downW)
    const up = light + (d.upW - light) * throttle
    let down = d.downW
    if (gear > 1) {
      const kick = (KICK_MARGIN * up * d.overall[gear]) / d.overall[gear - 1]
      if (kick > down) down += (kick - down) * throttle
    }
    if (w > up && gear < d.gears) { gear++; timer = d.shiftTime }
    else if (w < down && gear > 1) { gear--; timer = d.shiftTime }
  }
  // A gear the engine cannot take at this road speed (past the limiter by more than FIT_ABOVE, or
  // turning it backwards at half the limiter; a slow roll the wrong way is fine, the clutch slips)
  // is not engaged, checked at every preparation: the box is in neutral until the gear fits.
  if (gear !== 0) {
    const w = wheelW * d.overall[gear < 0 ? 0 : gear]
    if (w > FIT_ABOVE * d.maxW || w < -0.5 * d.maxW) gear = 0
  }
  C.gearActual[eid] = gear
  C.shiftTimer[eid] = timer

  // engine torque (while shifting the throttle matches the engine to the new gear's speed) and
  // the clutch's capacity (none in neutral or while shifting; its engagement ramps from idle to
  // engageW, no division past it)
  const we = C.engineSpeed[eid]
  const shifting = timer > 0
  let G = 0
  if (gear !== 0) G = d.overall[gear < 0 ? 0 : gear]
  const te = engineTorque(d, we, shifting ? (gear > 0 && we < wheelW * G ? 1 : 0) : throttle)
  dl.engineTorque = te
  dl.engineImpulse = (step.h * te) / d.engineInertia
  let cap = 0
  if (gear !== 0) {
    const over = we - d.idleW
    const span = d.engageW - d.idleW
    const engage = over >= span ? 1 : over > 0 ? over / span : 0
    cap = d.clutchTorque * engage * (1 - C.clutch[eid]) * (shifting ? 0 : 1)
  }
  dl.capacity = cap
  dl.ratio = G
  dl.lockGain = G * G * d.efficiency
}

/**
 * The clutch over one substep: the clutch torque that would lock the engine (dl.engineSpeed) and
 * the driven wheels (dl.carrier, dl.inertiaSum) together under the prepared engine torque, clamped
 * to the prepared capacity (none when it is 0); then the engine speed after the substep into
 * dl.engineSpeed (≥ 0) and the torque at the wheels before the shares into dl.driveTorque.
 */
export function lockClutch(d: ResolvedCar, step: Substep, dl: Driveline): void {
  const h = step.h
  const we = dl.engineSpeed
  const te = dl.engineTorque
  const cap = dl.capacity
  const ie = d.engineInertia
  let tcl = 0
  if (cap > 0) {
    tcl = (we - dl.ratio * dl.carrier + dl.engineImpulse) / (h * (d.invEngineInertia + dl.lockGain * dl.inertiaSum))
    tcl = tcl > cap ? cap : tcl < -cap ? -cap : tcl
  }
  const w = we + (h * (te - tcl)) / ie
  dl.engineSpeed = w > 0 ? w : 0
  dl.driveTorque = cap > 0 ? dl.ratio * d.efficiency * tcl : 0
}

// Traction control (ideal, brake/torque based): the drive torque may spin a wheel up only to the
// slip ratio TCS_SLIP·peakSlip; the rest is dissipated (and so the engine is held back).
const TCS_SLIP = 0.85
/**
 * Traction control: wheel `wheel`'s drive torque limited so that it spins up at most to
 * TCS_SLIP·peakSlip, and its spin after the substep with the torque it leaves (wheel.spinAfter).
 */
export function tractionControl(d: ResolvedCar, step: Substep, wheel: WheelSpin): void {
  const h = step.h
  const { torque: t, ground: u, free, effectiveInertia: J } = wheel
  const au = Math.abs(u)
  const den = au > V_LOW ? au : V_LOW
  const w = free + (h * t) / J
  let limited = t
  if (t > 0) {
    const max = (u + TCS_SLIP * d.peakSlip * den) / d.R
    if (w > max) limited = max > free ? ((max - free) * J) / h : 0
  } else if (t < 0) {
    const min = (u - TCS_SLIP * d.peakSlip * den) / d.R
    if (w < min) limited = min < free ? ((min - free) * J) / h : 0
  }
  wheel.torque = limited
  wheel.spinAfter = limited === t ? w : free + (h * limited) / J
}

// Limited slip: moves torque from the faster wheel of a driven pair to the slower one, at most
// preload + locking·|input|, never more than would equalise them this substep.
function lsdPair(d: ResolvedCar, step: Substep, dl: Driveline, share: Float64Array, i: number, j: number): void {
  const h = step.h
  const input = dl.driveTorque * (share[i] + share[j])
  if (input === 0 && d.lsdPreload === 0) return
  const a = dl.wheels[i]
  const b = dl.wheels[j]
  const wi = a.free + (h * a.torque) / a.effectiveInertia
  const wj = b.free + (h * b.torque) / b.effectiveInertia
  let t = (wi - wj) / (h * (1 / a.effectiveInertia + 1 / b.effectiveInertia))
  const cap = d.lsdPreload + d.lsdLocking * Math.abs(input)
  if (t > cap) t = cap
  else if (t < -cap) t = -cap
  a.torque -= t
  b.torque += t
}
