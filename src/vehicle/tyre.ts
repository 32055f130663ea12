/**
 * The tyre law shared by both models: a simplified Magic Formula F = D·sin(C·atan(B·ρ)) on the
 * normalised combined slip ρ = |(κ/κpeak, tanα/αpeak)| (friction ellipse by similarity), with
 * load-sensitive friction; past the peak the force direction blends to oppose the slip velocity
 * (fully sliding at ρ ≥ 2), so a locked wheel brakes along its path and gives no steering. Slip
 * velocities are divided by max(|vx|, V_LOW) (slip regularisation), so at walking pace the tyre acts as a stiff damper and a stopped car stays exactly still.
 * The result is returned as two secant "damping" coefficients (N per m/s of slip velocity):
 * Fx = cx·(ωR − vx), Fy = −cy·vy. Both are ≥ 0, which is what lets the wheel-spin and body
 * updates treat the tyre implicitly (unconditionally damped) at any substep.
 */
import type { ResolvedCar } from './definition'

/** Slip-regularisation speed, m/s: below it slip is measured against this speed. */
export const V_LOW = 0.5
/** Load sensitivity never takes the friction coefficient (or the cornering stiffness per load) below this fraction of the nominal one. */
export const MU_FLOOR = 0.3
/**
 * Load sensitivity of the cornering stiffness: Cα(Fz) = Cα0·Fz·(1 − k·(Fz/Fz0 − 1)) with k = 1/3,
 * so Cα peaks at twice the nominal load and a tyre loaded above nominal needs more slip angle.
 */
export const STIFFNESS_SENS = 1 / 3

/** Cornering stiffness per load of a tyre `x` above nominal load (Fz/Fz0 − 1), relative to the nominal (STIFFNESS_SENS, floored at MU_FLOOR). */
export function corneringFactor(x: number): number {
  const f = 1 - STIFFNESS_SENS * x
  return f > MU_FLOOR ? f : MU_FLOOR
}

/** One tyre's slip state (set by the caller) and its secant dampings (set by tyreDamping). */
export interface TyreSlip {
  /** Normal load, N. */
  load: number
  /** Surface grip factor. */
  grip: number
  /** Wheel-frame ground velocity along the wheel, m/s. */
  vx: number
  /** Wheel-frame ground velocity across the wheel, m/s. */
  vy: number
  /** Slip velocity ωR − vx, m/s. */
  slip: number
  /** Factor on the peak slip angle from the steering's compliance (1: none). */
  compliance: number
  /** Out: longitudinal damping, Fx = cx·slip, N/(m/s). */
  cx: number
  /** Out: lateral damping, Fy = −cy·vy, N/(m/s). */
  cy: number
  /** Out: peak force D, N. */
  peak: number
}

/** A TyreSlip to fill (numbers start as NaN: decision 0007). */
export function createTyreSlip(): TyreSlip {
  return { load: NaN, grip: NaN, vx: NaN, vy: NaN, slip: NaN, compliance: NaN, cx: NaN, cy: NaN, peak: NaN }
}

// The curve tabulated for the single-track model (the exact formula beyond CURVE_END: deep sliding).
/** The tabulated curve covers ρ in [0, CURVE_END). */
export const CURVE_END = 4
/** Table entries per unit of ρ², below the peak (ρ < 1): table[i] is at ρ² = i / CURVE_SQ_PER_UNIT. */
export const CURVE_SQ_PER_UNIT = 1024
/** Table entries per unit of ρ past the peak: table[PAST_PEAK_AT + i] is at ρ = 1 + i / CURVE_PER_UNIT. */
export const CURVE_PER_UNIT = 256
/** Where the past-the-peak part of the table starts. */
export const PAST_PEAK_AT = CURVE_SQ_PER_UNIT + 1
const curveTables = new Map<string, Float64Array>()

/**
 * The curve's secant per unit peak force, sin(C·atan(B·ρ))/ρ (limit B·C at ρ → 0), for shape
 * factors B, C, in two parts: below the peak sampled every 1/CURVE_SQ_PER_UNIT of ρ² over [0, 1]
 * (it is even in ρ, so smooth in ρ², and a model finds it from ρ² without a square root), then
 * every 1/CURVE_PER_UNIT of ρ over [1, CURVE_END] from PAST_PEAK_AT. Built once per definition
 * (14 kB). Linear interpolation in it is within 2e-5 of the formula (relative) for slideRatio ≤
 * 0.9 (1e-5 for the presets' 0.8; 2e-2 at the sharpest allowed curve, 0.999, whose peak is at
 * ρ ≈ 0.04), and skips an atan and a sin: the single-track model's tyre (single-track.ts).
 */
export function tyreCurveTable(B: number, C: number): Float64Array {
  // definitions are resolved per addCar: cars on the same tyre share one table
  const key = `${B} ${C}`
  const known = curveTables.get(key)
  if (known !== undefined) return known
  if (curveTables.size >= 64) curveTables.clear()
  const t = new Float64Array(PAST_PEAK_AT + (CURVE_END - 1) * CURVE_PER_UNIT + 1)
  curveTables.set(key, t)
  t[0] = B * C
  for (let i = 1; i < PAST_PEAK_AT; i++) {
    const rho = Math.sqrt(i / CURVE_SQ_PER_UNIT)
    t[i] = Math.sin(C * Math.atan(B * rho)) / rho
  }
  for (let i = PAST_PEAK_AT; i < t.length; i++) {
    const rho = 1 + (i - PAST_PEAK_AT) / CURVE_PER_UNIT
    t[i] = Math.sin(C * Math.atan(B * rho)) / rho
  }
  return t
}

/**
 * Computes the tyre's secant dampings (t.cx, t.cy, t.peak) from its slip state. (The single-track
 * model evaluates the same law in its loop for its axle pairs, on the tabulated curve.)
 */
export function tyreDamping(d: ResolvedCar, t: TyreSlip): void {
  const fz = t.load
  const grip = t.grip
  const vx = t.vx
  const vy = t.vy
  const slipV = t.slip
  if (fz <= 0) { t.cx = 0; t.cy = 0; t.peak = 0; return }
  const ax = Math.abs(vx)
  const den = ax > V_LOW ? ax : V_LOW
  const x = fz * d.invFz0 - 1
  let muRatio = 1 - d.loadSens * x
  if (muRatio < MU_FLOOR) muRatio = MU_FLOOR
  const D = d.mu * grip * muRatio * fz
  // the peak slip angle that gives the tyre its load-sensitive cornering stiffness with this peak
  // force, in series with the steering's compliance: tan αpeak·muRatio·compliance / corneringFactor
  const stiff = corneringFactor(x)
  const angleDen = den * d.peakSlipAngle * muRatio * t.compliance
  const sx = slipV / (den * d.peakSlip)
  const sy = (vy * stiff) / angleDen
  const rho = Math.sqrt(sx * sx + sy * sy)
  const B = d.mfB
  const C = d.mfC
  // F(ρ)/ρ, with its limit D·B·C at ρ → 0
  const g = rho > 1e-6 ? (D * Math.sin(C * Math.atan(B * rho))) / rho : D * B * C
  let cx = g / (den * d.peakSlip)
  let cy = (g * stiff) / angleDen
  if (rho > 1) {
    // sliding: the force turns to oppose the slip velocity itself (a locked wheel cannot steer)
    const beta = rho > 2 ? 1 : rho - 1
    const iso = (g * rho) / Math.sqrt(slipV * slipV + vy * vy)
    cx += beta * (iso - cx)
    cy += beta * (iso - cy)
  }
  t.cx = cx
  t.cy = cy
  t.peak = D
}
