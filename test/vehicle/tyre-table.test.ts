// The single-track model's tabulated tyre curve against the formula it stands for.
import { describe, expect, it } from 'vitest'
import { CURVE_END, CURVE_PER_UNIT, CURVE_SQ_PER_UNIT, PAST_PEAK_AT, tyreCurveTable } from '../../src/vehicle/tyre'

// the definition's shape factors from its slideRatio (as resolveDefinition)
function shape(slideRatio: number): [number, number] {
  const C = 2 - (2 / Math.PI) * Math.asin(slideRatio)
  return [Math.tan(Math.PI / (2 * C)), C]
}

// as single-track.ts reads it: by ρ² below the peak, by ρ past it
function interpolate(t: Float64Array, rho: number): number {
  if (rho * rho < 1) {
    const q = rho * rho * CURVE_SQ_PER_UNIT
    const j = q | 0
    return t[j] + (q - j) * (t[j + 1] - t[j])
  }
  const q = (rho - 1) * CURVE_PER_UNIT
  const j = PAST_PEAK_AT + (q | 0)
  return t[j] + (q - (q | 0)) * (t[j + 1] - t[j])
}

describe('tyreCurveTable', () => {
  it('is within 2e-5 of sin(C·atan(B·ρ))/ρ over its range for slideRatio up to 0.9', () => {
    for (const slideRatio of [0.05, 0.3, 0.6, 0.8, 0.9]) {
      const [B, C] = shape(slideRatio)
      const t = tyreCurveTable(B, C)
      let worst = 0
      for (let k = 0; k < 20000; k++) {
        const rho = (k * CURVE_END) / 20000
        const exact = rho > 1e-6 ? Math.sin(C * Math.atan(B * rho)) / rho : B * C
        worst = Math.max(worst, Math.abs(interpolate(t, rho) - exact) / exact)
      }
      expect(worst).toBeLessThan(2e-5)
    }
  })

  it('is shared by definitions with the same curve', () => {
    const [B, C] = shape(0.8)
    expect(tyreCurveTable(B, C)).toBe(tyreCurveTable(B, C))
  })
})
