import { describe, expect, it } from 'vitest'
import { createPolyline } from '../../src/driver/polyline'
import { pointCurvatures } from '../../src/driver/curvature'
import { buildSpeedProfile, profileSpeedAt } from '../../src/driver/profile'
import { stadiumPath } from '../../src/driver/path'
import { resolveAiOptions } from '../../src/driver/options'

const limits = { maxSpeed: 30, lateralAccel: 6, brakeDecel: 6, driveAccel: 3 }

describe('speed profile', () => {
  it('on the 200 m / 50 m stadium: bends at sqrt(6 * 50), straights accelerate at 3 and brake at 6 (analytic)', () => {
    const poly = createPolyline(stadiumPath(200, 50, 1), true)
    const v = buildSpeedProfile(poly, pointCurvatures(poly), limits)
    const vb = Math.sqrt(300)
    let checked = 0
    for (let i = 0; i < poly.n; i++) {
      const x = poly.x[i], y = poly.y[i]
      if (Math.abs(x) > 100.5) { expect(v[i]).toBeCloseTo(vb, 9); continue }
      // distance since the last bend point (one bend chord c before the straight) and to the next
      const c = 2 * 50 * Math.sin(Math.PI / 2 / Math.round(50 * Math.PI))
      const along = y < 0 ? x + 100 : 100 - x
      const expected = Math.min(30, Math.sqrt(vb * vb + 2 * 3 * (along + c)), Math.sqrt(vb * vb + 2 * 6 * (200 - along + c)))
      expect(v[i]).toBeCloseTo(expected, 6)
      checked++
    }
    expect(checked).toBe(402) // 2 × 200 straight points and the 2 bend entries
  })

  it('obeys every cap and both passes, on a closed path whose slowest point is just after the start', () => {
    // a wobbly closed path: tight bend right after point 0, so the wrap-around must carry its braking back
    const pts: number[][] = []
    for (let i = 0; i < 400; i++) {
      const a = (2 * Math.PI * i) / 400
      const r = 100 + 40 * Math.sin(3 * a + 0.3)
      pts.push([r * Math.cos(a), r * Math.sin(a)])
    }
    const poly = createPolyline(pts, true)
    const k = pointCurvatures(poly)
    const v = buildSpeedProfile(poly, k, limits)
    for (let i = 0; i < poly.n; i++) {
      const j = (i + 1) % poly.n, ds = poly.s[i + 1] - poly.s[i]
      expect(v[i]).toBeLessThanOrEqual(Math.min(30, Math.sqrt(6 / Math.abs(k[i]))) + 1e-12)
      expect(v[i]).toBeLessThanOrEqual(Math.sqrt(v[j] ** 2 + 2 * 6 * ds) + 1e-9)
      expect(v[j]).toBeLessThanOrEqual(Math.sqrt(v[i] ** 2 + 2 * 3 * ds) + 1e-9)
    }
    // and it is the largest such profile: every point sits on one of its constraints
    for (let i = 0; i < poly.n; i++) {
      const j = (i + 1) % poly.n, h = (i + poly.n - 1) % poly.n
      const cap = Math.min(30, Math.sqrt(6 / Math.abs(k[i])))
      const brake = Math.sqrt(v[j] ** 2 + 2 * 6 * (poly.s[i + 1] - poly.s[i]))
      const drive = Math.sqrt(v[h] ** 2 + 2 * 3 * (poly.s[h + 1] - poly.s[h]))
      expect(Math.min(cap, brake, drive) - v[i]).toBeLessThan(1e-9)
    }
  })

  it('an open path ends in a stop, braking at brakeDecel', () => {
    const pts: number[][] = []
    for (let i = 0; i <= 300; i++) pts.push([i, 0])
    const poly = createPolyline(pts, false)
    const v = buildSpeedProfile(poly, pointCurvatures(poly), { ...limits, brakeDecel: 5 })
    expect(v[300]).toBe(0)
    for (let i = 0; i <= 300; i++) expect(v[i]).toBeCloseTo(Math.min(30, Math.sqrt(2 * 5 * (300 - i))), 9)
    // v² is linear along a segment, and the slope is the profile's acceleration
    const acc = new Float64Array(1)
    const mid = profileSpeedAt(poly, v, 295, 295.5, acc)
    expect(mid).toBeCloseTo(Math.sqrt(2 * 5 * 4.5), 9)
    expect(acc[0]).toBeCloseTo(-5, 9)
  })
})

describe('driver options', () => {
  it('fills defaults', () => {
    expect(resolveAiOptions(undefined)).toEqual({
      maxSpeed: 30, lateralAccel: 6, brakeDecel: 6, driveAccel: 3, lateralOffset: 0, closed: false, lookahead: 0.5, shift: false,
      traffic: 'avoid', width: [0, 0], gap: 0.8, aggression: 0.5, obstacleMask: 0,
    })
    expect(resolveAiOptions({ closed: true, lateralOffset: -2, lookahead: 0 }).lateralOffset).toBe(-2)
    expect(resolveAiOptions({ shift: true }).shift).toBe(true)
  })

  it('refuses out-of-range options naming them', () => {
    for (const key of ['maxSpeed', 'lateralAccel', 'brakeDecel', 'driveAccel']) {
      expect(() => resolveAiOptions({ [key]: 0 })).toThrow(new RegExp(`options.${key} must be > 0`))
      expect(() => resolveAiOptions({ [key]: -1 })).toThrow(RangeError)
      expect(() => resolveAiOptions({ [key]: NaN })).toThrow(new RegExp(`options.${key} must be finite`))
      expect(() => resolveAiOptions({ [key]: '3' })).toThrow(TypeError)
    }
    expect(() => resolveAiOptions({ lookahead: -0.1 })).toThrow(/options.lookahead must be in \[0, 60\]/)
    expect(() => resolveAiOptions({ lookahead: 1e308 })).toThrow(/options.lookahead/)
    for (const key of ['maxSpeed', 'lateralAccel', 'brakeDecel', 'driveAccel']) expect(() => resolveAiOptions({ [key]: 1e308 })).toThrow(new RegExp(`options.${key} must be <= 1000`))
    expect(() => resolveAiOptions({ lateralOffset: Infinity })).toThrow(/options.lateralOffset/)
    expect(() => resolveAiOptions({ lateralOffset: -1e308 })).toThrow(/options.lateralOffset must be in/)
    expect(() => resolveAiOptions({ closed: 'yes' })).toThrow(/options.closed must be a boolean/)
    expect(() => resolveAiOptions({ maxspeed: 3 })).toThrow(/options.maxspeed is not an option \(expected one of maxSpeed, /)
    expect(() => resolveAiOptions(5)).toThrow(/options must be an object/)
    expect(() => resolveAiOptions([])).toThrow(TypeError)
  })
})
