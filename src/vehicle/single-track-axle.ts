/**
 * The single-track model's axle: its two tyres lumped in closed form, and the axle wheel's free
 * spin (single-track.ts runs it twice a substep).
 */
import type { ResolvedCar } from './definition'
import type { Substep } from './substep'
import { corneringFactor, CURVE_END, CURVE_PER_UNIT, CURVE_SQ_PER_UNIT, MU_FLOOR, PAST_PEAK_AT, STIFFNESS_SENS, V_LOW } from './tyre'
import { freeSpin, type WheelSpin } from './wheel'

/** A host step's constants of the axle law, per definition and substep. */
export interface AxleConstants {
  /** 1 / nominal tyre load, 1/N. */
  invFz0: number
  /** 1 / peak slip ratio. */
  invPeakSlip: number
  /** Twice the friction coefficient (a pair of tyres). */
  pairMu: number
  /** Twice the friction coefficient times its load sensitivity. */
  pairMuLoss: number
  /** Twice a wheel's spin inertia (the axle's), kg·m². */
  iw2: number
}

/** One axle's tyre pair in a substep: what the substep sets, and what axleForces computes. */
export interface AxlePair {
  /** The axle's load, N. */
  load: number
  /** Wheel-frame ground velocity along and across the wheel, m/s. */
  u: number; w: number
  /** The axle wheel's spin, rad/s. */
  omega: number
  /** Surface grip factor. */
  grip: number
  /** Steady lateral load transfer across the axle, N. */
  spread: number
  /** One wheel's pedal brake torque, N·m. */
  halfT: number
  /** Track width, m. */
  track: number
  /** The steering's compliance per unit of the pair's cornering stiffness (0: none, the rear). */
  compliance: number
  /** The axle's other friction torque (rolling resistance, handbrake), N·m. */
  friction: number
  /** Out: the pair's secant dampings, N/(m/s). */
  cx: number; cy: number
  /** Out: the pair's peak force, N. */
  peak: number
  /** Out: yaw moment of the uneven brake forces across the axle, N·m. */
  turn: number
}

/** An AxlePair to fill (numbers start as NaN: decision 0007). */
export function createAxlePair(): AxlePair {
  return { load: NaN, u: NaN, w: NaN, omega: NaN, grip: NaN, spread: NaN, halfT: NaN, track: NaN, compliance: NaN, friction: NaN, cx: NaN, cy: NaN, peak: NaN, turn: NaN }
}

const PAIR_STIFF_LOSS = 2 * STIFFNESS_SENS

/**
 * One axle's tyre pair (`pair`'s dampings, peak and brake yaw moment) and its wheel's free spin
 * (`spin`): tyre.ts's law for its two tyres at half the axle load ± the steady lateral load
 * transfer Δ (ay ≈ r·vx), summed in closed form: both the peak and the cornering stiffness are
 * quadratic in the load, so the pair's are twice one tyre's at half the load less a term in Δ².
 * The front pair's stiffness is in series with the steering's compliance.
 */
export function axleForces(d: ResolvedCar, step: Substep, k: AxleConstants, pair: AxlePair, spin: WheelSpin): void {
  const { u, w, omega, grip, spread, halfT, compliance } = pair
  const { R, mu: mu0, loadSens } = d
  const { invFz0, invPeakSlip } = k
  let cx = 0
  let cy = 0
  let brakeT = 0
  let peak = 0
  let turn = 0
  const fz = 0.5 * pair.load
  if (fz > 0) {
    const au = Math.abs(u)
    const den = au > V_LOW ? au : V_LOW
    const x = fz * invFz0 - 1
    let muRatio = 1 - loadSens * x
    if (muRatio < MU_FLOOR) muRatio = MU_FLOOR
    const spread2 = spread * spread * invFz0
    // the pair's peak force and its cornering stiffness per unit of corneringPerLoad, both
    // per unit of grip (it scales them alike)
    let D = k.pairMu * muRatio * fz - k.pairMuLoss * spread2
    const floorD = MU_FLOOR * k.pairMu * muRatio * fz
    if (D < floorD) D = floorD
    const stiffNominal = 2 * fz * corneringFactor(x)
    let stiff = stiffNominal - PAIR_STIFF_LOSS * spread2
    if (stiff < MU_FLOOR * stiffNominal) stiff = MU_FLOOR * stiffNominal
    D *= grip
    peak = D
    const series = compliance !== 0 ? 1 + compliance * grip * stiff : 1
    // one division for 1/den and the pair's 1/(den·tan αpeak) (its peak slip angle gives it
    // that stiffness with peak D: tan αpeak = tan αpeak0·D·compliance / (μ0·grip·stiff))
    const dc = D * series * d.peakSlipAngle
    const q = 1 / (den * dc)
    const invDen = dc * q
    const angleDen = mu0 * grip * stiff * q
    // each wheel gets half the axle's brake torque, and the inner (lighter) wheel carries no
    // more of it than its own peak force: the rest locks it (or ABS releases it), not the pair
    brakeT = halfT
    if (halfT > 0) {
      // the inner and outer tyres' peak forces as wheel torques
      const transfer = Math.abs(spread)
      const fzIn = fz - transfer
      const fzOut = fz + transfer
      const muIn = 1 - loadSens * (fzIn * invFz0 - 1)
      const muOut = 1 - loadSens * (fzOut * invFz0 - 1)
      const innerT = fzIn > 0 ? mu0 * grip * (muIn > MU_FLOOR ? muIn : MU_FLOOR) * fzIn * R : 0
      const outerT = mu0 * grip * (muOut > MU_FLOOR ? muOut : MU_FLOOR) * fzOut * R
      const innerBrake = halfT < innerT ? halfT : innerT
      brakeT += innerBrake
      // the outer wheel's larger brake force turns the car out of the corner (−, for a left turn)
      if (halfT > innerBrake && u !== 0) {
        const moment = (0.5 * pair.track * ((halfT < outerT ? halfT : outerT) - innerBrake)) / R
        turn = (spread * u > 0 ? -1 : 1) * moment
      }
    }
    const slipV = omega * R - u
    const sx = slipV * invDen * invPeakSlip
    const sy = w * angleDen
    // F(ρ)/ρ from the table (below the peak from ρ², no square root), the formula past its end
    const curve = d.tyreTable
    const rho2 = sx * sx + sy * sy
    if (rho2 < 1) {
      const q = rho2 * CURVE_SQ_PER_UNIT
      const j = q | 0
      const g0 = curve[j]
      const g = D * (g0 + (q - j) * (curve[j + 1] - g0))
      cx = g * invDen * invPeakSlip
      cy = g * angleDen
    } else {
      const rho = Math.sqrt(rho2)
      let g: number
      if (rho < CURVE_END) {
        const q = (rho - 1) * CURVE_PER_UNIT
        const j = q | 0
        const g0 = curve[PAST_PEAK_AT + j]
        g = D * (g0 + (q - j) * (curve[PAST_PEAK_AT + j + 1] - g0))
      } else g = (D * Math.sin(d.mfC * Math.atan(d.mfB * rho))) / rho
      cx = g * invDen * invPeakSlip
      cy = g * angleDen
      // sliding: the force turns to oppose the slip velocity itself
      const beta = rho > 2 ? 1 : rho - 1
      const iso = (g * rho) / Math.sqrt(slipV * slipV + w * w)
      cx += beta * (iso - cx)
      cy += beta * (iso - cy)
    }
  }
  pair.cx = cx; pair.cy = cy; pair.peak = peak; pair.turn = turn
  spin.omega = omega; spin.inertia = k.iw2; spin.damping = cx; spin.ground = u
  spin.brakeTorque = brakeT
  spin.frictionTorque = pair.friction
  freeSpin(d, step, spin)
}
