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
import { substep as substep_ } from './substep'

// Imported bindings copied to module constants: test runners that turn imports into namespace
// lookups (vitest) would otherwise pay a property load per use in the hot loop.
const substep = substep_

/** Free (clutch-less) wheel speeds of this substep, per wheel index (scratch, filled by the model). */
export const ptFree = new Float64Array(4)
/** Effective inertia of each wheel this substep (inertia + implicit tyre term), kg·m² (scratch). */
export const ptJ = new Float64Array(4)
/** Ground speed of each wheel along its heading this substep, m/s (scratch, filled by the model). */
export const ptGround = new Float64Array(4)
/** Out: drive torque added to each wheel this substep, N·m (scratch). */
export const ptTorque = new Float64Array(4)

/**
 * In and out of the driveline solve (prepareDriveline): in [carrier, roll, S] (the driven wheels'
 * share-weighted free spin, share-weighted ground speed (m/s) and Σ share²/J), out with `lock`
 * [tc, engaged]: the drive torque at the wheels before the shares (N·m) and 1 when the clutch
 * carried torque this substep (scratch).
 */
export const ptSolve = new Float64Array(5)
/**
 * Out of prepareDriveline without `lock`: [engine torque (N·m), clutch capacity (N·m), overall
 * ratio of the gear], clutchTorque's inputs (scratch).
 */
export const ptDrive = new Float64Array(3)

// proportional idle controller: full throttle 100 rpm below idle
const IDLE_GAIN = 30 / (Math.PI * 100)

/** Net engine torque at engine speed `we` (rad/s) and pedal `throttle`, N·m. */
export function engineTorque(d: ResolvedCar, we: number, throttle: number): number {
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
 * Steps engine and clutch for one substep given ptFree/ptJ of the wheels with drive share
 * `share`; writes the drive torque of every wheel into ptTorque. `pairs`: apply the limited-slip
 * coupling between wheels 0–1 and 2–3.
 */
export function stepDriveline(C: CarStore, d: ResolvedCar, eid: number, share: Float64Array, pairs: boolean): void {
  let carrier = 0
  let roll = 0
  let S = 0
  for (let i = 0; i < 4; i++) {
    const s = share[i]
    if (s !== 0) { carrier += s * ptFree[i]; roll += s * ptGround[i]; S += (s * s) / ptJ[i] }
    ptTorque[i] = 0
  }
  ptSolve[0] = carrier
  ptSolve[1] = roll
  ptSolve[2] = S
  prepareDriveline(C, d, eid, 1, true)
  if (ptSolve[4] === 0) return
  const tc = ptSolve[3]
  for (let i = 0; i < 4; i++) ptTorque[i] = share[i] * tc
  if (pairs && d.lsd) {
    if (share[0] > 0) lsdPair(d, 0, 1, tc * (share[0] + share[1]))
    if (share[2] > 0) lsdPair(d, 2, 3, tc * (share[2] + share[3]))
  }
  if (d.tcs) {
    // called here, not through a per-wheel wrapper: a wrapper optimised on its own before
    // tcsTorque had feedback would call it uninlined, boxing its doubles on every call
    const h = substep[0]
    for (let i = 0; i < 4; i++) if (share[i] !== 0) ptTorque[i] = tcsTorque(d, h, ptTorque[i], ptGround[i], ptFree[i], ptJ[i])
  }
}

/**
 * Gear, engine torque and clutch capacity for the next `steps` substeps, from ptSolve's carrier
 * and roll (written into ptDrive): gear selection and the shift timer (run down by steps·h), the
 * engine's torque at its present speed and the clutch's capacity; with `lock`, then this
 * substep's clutch and engine speed too, into ptSolve (one call for the four-wheel model, which
 * prepares every substep with steps = 1; the single-track model prepares once per host step, at
 * most 1/60 s of substeps, see single-track.ts). One function on purpose: too large for V8 to
 * inline into a model's substep loop, it inlines engineTorque and the clutch itself (a torque
 * lookup left as a call from the loop would box its doubles).
 */
export function prepareDriveline(C: CarStore, d: ResolvedCar, eid: number, steps: number, lock: boolean): void {
  const carrier = ptSolve[0]
  // Gear: automatic logic or the manual input, and the shift timer. A gear the engine cannot take
  // at this road speed (over-revving it past 5% above the limiter, or turning it backwards at half
  // that; a slow roll the wrong way is fine, the clutch slips) is not engaged: the box stays in
  // neutral until it fits. That check takes the larger of the driven wheels' spin and the spin
  // they would have rolling on the ground (a locked wheel spins up again).
  const prev = C.gearActual[eid]
  let gear = prev
  let timer = C.shiftTimer[eid] - steps * substep[0]
  if (timer < 0) timer = 0
  const want = C.gear[eid]
  const throttle = C.throttle[eid]
  if (!d.automatic) {
    gear = want < -1 ? -1 : want > d.gears ? d.gears : want
  } else if (want <= 0) {
    gear = want < 0 ? -1 : 0
  } else if (prev <= 0) {
    // into drive: the lowest gear that does not have to shift up at once
    gear = 1
    while (gear < d.gears && carrier * d.overall[gear] > d.upW) gear++
  } else if (timer === 0) {
    // shift on the speed the gearbox input would turn at, the throttle choosing early or late upshifts
    const w = carrier * d.overall[gear]
    const light = Math.min(d.upW, 2.1 * d.downW)
    const up = light + (d.upW - light) * throttle
    if (w > up && gear < d.gears) { gear++; timer = d.shiftTime }
    else if (w < d.downW && gear > 1) { gear--; timer = d.shiftTime }
  }
  if (gear !== prev && gear !== 0) {
    const roll = ptSolve[1] / d.R
    const w = (Math.abs(roll) > Math.abs(carrier) ? roll : carrier) * d.overall[gear < 0 ? 0 : gear]
    if (w > 1.05 * d.maxW || w < -0.5 * d.maxW) gear = 0
  }
  C.gearActual[eid] = gear
  C.shiftTimer[eid] = timer

  // engine torque (no throttle while shifting) and the clutch's capacity (none in neutral or
  // while shifting; its engagement ramps from idle to engageW, no division past it)
  const we = C.engineSpeed[eid]
  const shifting = timer > 0
  const te = engineTorque(d, we, shifting ? 0 : throttle)
  let cap = 0
  let G = 0
  if (gear !== 0) {
    G = d.overall[gear < 0 ? 0 : gear]
    const over = we - d.idleW
    const span = d.engageW - d.idleW
    const engage = over >= span ? 1 : over > 0 ? over / span : 0
    cap = d.clutchTorque * engage * (1 - C.clutch[eid]) * (shifting ? 0 : 1)
  }
  if (lock) {
    // this substep's clutch and engine speed (clutchTorque, engineSpeedAfter)
    const h = substep[0]
    const tcl = clutchTorque(d, h, we, carrier, ptSolve[2], te, cap, G)
    C.engineSpeed[eid] = engineSpeedAfter(d, h, we, te, tcl)
    ptSolve[3] = cap > 0 ? G * d.efficiency * tcl : 0
    ptSolve[4] = cap > 0 ? 1 : 0
  } else { ptDrive[0] = te; ptDrive[1] = cap; ptDrive[2] = G }
}

/**
 * The clutch torque of a substep of `h` s (N·m, engine side) that would lock the engine (speed `we`,
 * rad/s) and the driven wheels (share-weighted free spin `carrier`, Σ share²/J `S`) together,
 * with prepareDriveline's engine torque `te`, clutch capacity `cap` (it carries torque iff cap > 0)
 * and overall ratio `G`, clamped to the capacity; 0 with no capacity. The torque at the wheels
 * before the shares is G·efficiency·that where cap > 0. Small and on plain numbers, so that V8
 * inlines it into both models.
 */
export function clutchTorque(d: ResolvedCar, h: number, we: number, carrier: number, S: number, te: number, cap: number, G: number): number {
  if (!(cap > 0)) return 0
  const ie = d.engineInertia
  const tcl = (we - G * carrier + (h * te) / ie) / (h * (1 / ie + G * G * d.efficiency * S))
  return tcl > cap ? cap : tcl < -cap ? -cap : tcl
}

/** The engine speed after a substep of `h` s at engine torque `te` against clutch torque `tcl` (N·m) from `we`, rad/s (≥ 0). */
export function engineSpeedAfter(d: ResolvedCar, h: number, we: number, te: number, tcl: number): number {
  const w = we + (h * (te - tcl)) / d.engineInertia
  return w > 0 ? w : 0
}

// Traction control (ideal, brake/torque based): the drive torque may spin a wheel up only to the
// slip ratio TCS_SLIP·peakSlip; the rest is dissipated (and so the engine is held back).
const TCS_SLIP = 0.85
/**
 * Traction control over a substep of `h` s: drive torque `t` (N·m) limited so that a wheel of
 * free spin `free` (rad/s), effective inertia `J` and ground speed `u` (m/s) spins up at most to
 * TCS_SLIP·peakSlip. Small and on plain numbers, so that V8 inlines it into both models.
 */
export function tcsTorque(d: ResolvedCar, h: number, t: number, u: number, free: number, J: number): number {
  // 0.5 = V_LOW as a literal: a phi of the (boxed) module binding would box u (an allocation)
  const den = u > 0.5 ? u : u < -0.5 ? -u : 0.5
  const w = free + (h * t) / J
  if (t > 0) {
    const max = (u + TCS_SLIP * d.peakSlip * den) / d.R
    if (w > max) return max > free ? ((max - free) * J) / h : 0
  } else if (t < 0) {
    const min = (u - TCS_SLIP * d.peakSlip * den) / d.R
    if (w < min) return min < free ? ((min - free) * J) / h : 0
  }
  return t
}

// Limited slip: moves torque from the faster wheel of a driven pair to the slower one, at most
// preload + locking·|input|, never more than would equalise them this substep.
function lsdPair(d: ResolvedCar, i: number, j: number, input: number): void {
  const h = substep[0]
  if (input === 0 && d.lsdPreload === 0) return
  const wi = ptFree[i] + (h * ptTorque[i]) / ptJ[i]
  const wj = ptFree[j] + (h * ptTorque[j]) / ptJ[j]
  let t = (wi - wj) / (h * (1 / ptJ[i] + 1 / ptJ[j]))
  const cap = d.lsdPreload + d.lsdLocking * (input < 0 ? -input : input)
  if (t > cap) t = cap
  else if (t < -cap) t = -cap
  ptTorque[i] -= t
  ptTorque[j] += t
}
