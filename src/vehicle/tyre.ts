/**
 * The tyre law shared by both models: a simplified Magic Formula F = D·sin(C·atan(B·ρ)) on the
 * normalised combined slip ρ = |(κ/κpeak, tanα/αpeak)| (friction ellipse by similarity), with
 * load-sensitive friction; past the peak the force direction blends to oppose the slip velocity
 * (fully sliding at ρ ≥ 2), so a locked wheel brakes along its path and gives no steering. Slip velocities are divided by max(|vx|, vLow) (slip regularisation),
 * so at walking pace the tyre acts as a stiff damper and a stopped car stays exactly still.
 * The result is returned as two secant "damping" coefficients (N per m/s of slip velocity):
 * Fx = cx·(ωR − vx), Fy = −cy·vy. Both are ≥ 0, which is what lets the wheel-spin and body
 * updates treat the tyre implicitly (unconditionally damped) at any substep.
 */
import type { ResolvedCar } from './definition'

/** Slip-regularisation speed, m/s: below it slip is measured against this speed. */
export const V_LOW = 0.5

/** Input of tyreDamping: [fz, grip, vx, vy, slipV] (scratch: doubles passed as arguments would be boxed). */
export const tyreIn = new Float64Array(5)
/** Output of tyreDamping: [cx, cy, peak force D]. Overwritten by every call (no allocation). */
export const tyreOut = new Float64Array(3)

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
 * Computes the tyre's secant damping coefficients into tyreOut from tyreIn: load fz (N), surface
 * grip, wheel-frame ground velocity (vx, vy) and slip velocity ωR − vx. (The single-track model
 * evaluates the same law inline for its axle pairs, on the tabulated curve.)
 */
export function tyreDamping(d: ResolvedCar): void {
  const fz = tyreIn[0]
  const grip = tyreIn[1]
  const vx = tyreIn[2]
  const vy = tyreIn[3]
  const slipV = tyreIn[4]
  if (fz <= 0) { tyreOut[0] = 0; tyreOut[1] = 0; tyreOut[2] = 0; return }
  const ax = vx < 0 ? -vx : vx
  // 0.5 = V_LOW as a literal: V8 keeps a module binding boxed, and a phi of it with ax would box
  // ax too (an allocation per call)
  const den = ax > 0.5 ? ax : 0.5
  let mu = d.mu * grip * (1 - d.loadSens * (fz / d.fz0 - 1))
  const muMin = 0.3 * d.mu * grip
  if (mu < muMin) mu = muMin
  const D = mu * fz
  const sx = slipV / (den * d.peakSlip)
  const sy = vy / (den * d.peakSlipAngle)
  const rho = Math.sqrt(sx * sx + sy * sy)
  const B = d.mfB
  const C = d.mfC
  // F(ρ)/ρ, with its limit D·B·C at ρ → 0
  const g = rho > 1e-6 ? (D * Math.sin(C * Math.atan(B * rho))) / rho : D * B * C
  let cx = g / (den * d.peakSlip)
  let cy = g / (den * d.peakSlipAngle)
  if (rho > 1) {
    // sliding: the force turns to oppose the slip velocity itself (a locked wheel cannot steer)
    const beta = rho > 2 ? 1 : rho - 1
    const iso = (g * rho) / Math.sqrt(slipV * slipV + vy * vy)
    cx += beta * (iso - cx)
    cy += beta * (iso - cy)
  }
  tyreOut[0] = cx
  tyreOut[1] = cy
  tyreOut[2] = D
}
