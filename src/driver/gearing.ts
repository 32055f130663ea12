/**
 * The driver's gear choice when setAi's `shift` hands it the gearbox. An automatic box only needs
 * drive engaged; on a manual box the driver shifts as a quick driver does, from the car's own
 * torque curve and ratios: up where the next gear pulls as hard at the wheels as this one (for
 * most engines that is just short of the limiter, never past it); down when the engine falls out
 * of its torque band, or, the more the driver asks for throttle, as soon as the gear below would
 * land the engine under its own upshift point (a kick-down: the gear that pulls hardest). A
 * downshift always lands below the lower gear's upshift point, so no shift is undone at once.
 */
import type { ResolvedCar } from '../vehicle/definition'

/** Numbers per gear in a shift table (gear g's record at g · SHIFT_STRIDE; gear 0's is unused). */
export const SHIFT_STRIDE = 5
/**
 * Offsets in a shift table record: the engine speed (rad/s) and road speed (m/s) of the upshift;
 * the road speeds (m/s) of the downshift at full throttle and with none; engine speed per road speed in the gear (1/m).
 */
export const SHIFT_UP_W = 0, SHIFT_UP_V = 1, SHIFT_KICK_V = 2, SHIFT_BAND_V = 3, SHIFT_W_PER_V = 4
/** The highest upshift point, as a fraction of the limiter: a step's rise in first gear stays below it. */
export const SHIFT_LIMIT = 0.97
/** A downshift lands the engine at most at this fraction of the lower gear's upshift point. */
export const DOWNSHIFT_MARGIN = 0.9
/** The torque band starts where the engine first gives this fraction of its most torque. */
export const BAND_TORQUE = 0.95
/** Engine speeds tried per gear looking for the upshift point. */
const SEARCH_STEPS = 256

/** Engine torque at full throttle at engine speed `we` (rad/s), N·m (the definition's curve, held flat beyond its ends). */
export function torqueAt(d: ResolvedCar, we: number): number {
  const cw = d.curveW, ct = d.curveT, n = cw.length
  if (we <= cw[0]) return ct[0]
  if (we >= cw[n - 1]) return ct[n - 1]
  let i = 1
  while (cw[i] < we) i++
  return ct[i - 1] + ((we - cw[i - 1]) / (cw[i] - cw[i - 1])) * (ct[i] - ct[i - 1])
}

const tables = new WeakMap<ResolvedCar, Float64Array>()

/**
 * The shift table of definition `d` (made once per definition): for each gear the upshift point,
 * where the next gear's force at the wheels (torque × overall ratio) first reaches this one's with
 * the next gear's engine past the clutch's engagement, capped at SHIFT_LIMIT × the limiter (the top
 * gear never shifts up); the kick-down speed, DOWNSHIFT_MARGIN × the gear below's upshift speed;
 * and the band's downshift speed, where the engine leaves the torque band (never above the kick-down's).
 */
export function shiftTable(d: ResolvedCar): Float64Array {
  let t = tables.get(d)
  if (t) return t
  t = new Float64Array((d.gears + 1) * SHIFT_STRIDE)
  const limit = SHIFT_LIMIT * d.maxW
  let most = 0
  for (let k = 0; k < d.curveT.length; k++) if (d.curveT[k] > most) most = d.curveT[k]
  let band = d.idleW
  for (let k = 0; k <= SEARCH_STEPS && torqueAt(d, band) < BAND_TORQUE * most; k++) band = d.idleW + ((limit - d.idleW) * k) / SEARCH_STEPS
  for (let g = 1; g <= d.gears; g++) {
    const o = g * SHIFT_STRIDE, ratio = d.overall[g]
    let up = g < d.gears ? limit : Infinity
    if (g < d.gears) {
      const next = d.overall[g + 1]
      for (let k = 0; k <= SEARCH_STEPS; k++) {
        const w = d.idleW + ((limit - d.idleW) * k) / SEARCH_STEPS, wNext = (w * next) / ratio
        if (wNext >= d.engageW && torqueAt(d, wNext) * next >= torqueAt(d, w) * ratio) { up = w; break }
      }
    }
    t[o + SHIFT_UP_W] = up
    t[o + SHIFT_UP_V] = (up * d.R) / ratio
    const kick = g > 1 ? DOWNSHIFT_MARGIN * t[(g - 1) * SHIFT_STRIDE + SHIFT_UP_V] : 0, inBand = (band * d.R) / ratio
    t[o + SHIFT_KICK_V] = kick
    t[o + SHIFT_BAND_V] = inBand < kick ? inBand : kick
    t[o + SHIFT_W_PER_V] = ratio / d.R
  }
  tables.set(d, t)
  return t
}

/** The gear for road speed `v` (m/s) out of neutral or reverse: the lowest that need not shift up at once. */
export function gearForSpeed(table: Float64Array, gears: number, v: number): number {
  let g = 1
  while (g < gears && v >= table[g * SHIFT_STRIDE + SHIFT_UP_V]) g++
  return g
}

/**
 * The manual gear the driver selects in `current` at road speed `v` (m/s) with the engine at `we`
 * (rad/s) and the throttle (the demand for a kick-down) at `throttle`, `shifting` while a shift is still under way: up once the
 * engine (not mid-shift) or the road speed passes the upshift point; down below the downshift speed
 * (from the band's with no throttle to the kick-down's with full), the engine there too (spinning
 * wheels keep the gear); out of neutral or reverse into the gear for the speed.
 */
export function manualGear(table: Float64Array, gears: number, current: number, v: number, we: number, throttle: number, shifting: boolean): number {
  if (current < 1 || current > gears) return gearForSpeed(table, gears, v)
  let g = current
  if (g < gears && !shifting && we >= table[g * SHIFT_STRIDE + SHIFT_UP_W]) g++
  while (g < gears && v >= table[g * SHIFT_STRIDE + SHIFT_UP_V]) g++
  if (g !== current) return g
  const o = g * SHIFT_STRIDE, band = table[o + SHIFT_BAND_V]
  if (g > 1 && we < (band + (table[o + SHIFT_KICK_V] - band) * throttle) * table[o + SHIFT_W_PER_V]) {
    while (g > 1) {
      const q = g * SHIFT_STRIDE, below = table[q + SHIFT_BAND_V]
      if (!(v < below + (table[q + SHIFT_KICK_V] - below) * throttle)) break
      g--
    }
  }
  return g
}
