/** The racing demo's dynamic resolution: down a step per slow second to its floor, up after a good spell, and a failed step up retried later each time. */
import { describe, expect, it } from 'vitest'
import { createResolutionScaler } from '../../examples/racing/resolution'

describe('demo dynamic resolution', () => {
  it('ignores the warm-up, then steps down once per slow second, never under its floor', () => {
    const r = createResolutionScaler({ max: 1, min: 0.5, step: 0.125, low: 55, high: 59, holdS: 4, warmupS: 2 })
    expect([r.update(10, 1), r.update(10, 1)]).toEqual([null, null])
    expect(r.scale).toBe(1)
    const seen = Array.from({ length: 6 }, () => r.update(30, 1))
    expect(seen).toEqual([0.875, 0.75, 0.625, 0.5, null, null])
    expect(r.scale).toBe(0.5)
  })
  it('holds between the thresholds and steps up after holdS seconds at a good rate', () => {
    const r = createResolutionScaler({ warmupS: 0, holdS: 4 })
    r.update(40, 1)
    expect(r.scale).toBe(0.875)
    expect(r.update(57, 1)).toBeNull() // neither slow nor good
    expect([r.update(60, 1), r.update(60, 1), r.update(60, 1)]).toEqual([null, null, null])
    expect(r.update(60, 1)).toBe(1)
    expect(r.update(60, 1)).toBeNull() // at the top
  })
  it('waits twice as long before retrying a step up that made frames slow', () => {
    const r = createResolutionScaler({ warmupS: 0, holdS: 2 })
    r.update(40, 1) // 0.875
    const upAfter = () => { let s = 0; while (r.update(60, 1) === null) s++; return s + 1 }
    expect(upAfter()).toBe(2) // → 1
    r.update(40, 1) // the step up failed: back to 0.875
    expect(upAfter()).toBe(4)
    r.update(40, 1)
    expect(upAfter()).toBe(8)
    // a step up that holds resets the wait
    for (let i = 0; i < 2; i++) r.update(60, 1)
    r.update(40, 1)
    expect(upAfter()).toBe(2)
  })
  it('rejects a floor above the ceiling or a step of zero', () => {
    expect(() => createResolutionScaler({ min: 2, max: 1 })).toThrow(RangeError)
    expect(() => createResolutionScaler({ step: 0 })).toThrow(RangeError)
  })
})
