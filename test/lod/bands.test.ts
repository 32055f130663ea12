import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { keptBetween, nextLevel, LEVEL_FULL, LEVEL_SINGLE_TRACK, LEVEL_FROZEN, LEVEL_PATH } from '../../src/lod/bands'

const b = { singleTrackBeyond: 60, pathBeyond: 300, frozenBeyond: 300, hysteresis: 10 }

describe('distance bands with hysteresis', () => {
  it('gives the plain band far from the edges, from any starting level', () => {
    for (const cur of [LEVEL_FULL, LEVEL_SINGLE_TRACK, LEVEL_FROZEN]) {
      expect(nextLevel(b, cur, 0, false)).toBe(LEVEL_FULL)
      expect(nextLevel(b, cur, 49.9, false)).toBe(LEVEL_FULL)
      expect(nextLevel(b, cur, 150, false)).toBe(LEVEL_SINGLE_TRACK)
      expect(nextLevel(b, cur, 310.1, false)).toBe(LEVEL_FROZEN)
      expect(nextLevel(b, cur, Infinity, false)).toBe(LEVEL_FROZEN)
      expect(nextLevel(b, cur, 150, true)).not.toBe(LEVEL_SINGLE_TRACK)
    }
  })

  it('never changes level while a car oscillates across an edge by less than the hysteresis', () => {
    fc.assert(fc.property(
      fc.constantFrom(60, 300), fc.double({ min: -9.999, max: 9.999, noNaN: true }), fc.array(fc.double({ min: -9.999, max: 9.999, noNaN: true }), { minLength: 1, maxLength: 50 }), fc.boolean(), fc.constantFrom(LEVEL_FULL, LEVEL_SINGLE_TRACK, LEVEL_FROZEN),
      (edge, start, wiggle, external, initial) => {
        // Reach a steady level at the start position first (at most one change), then wiggle.
        let lvl: number = initial
        for (let k = 0; k < 3; k++) lvl = nextLevel(b, lvl, edge + start, external)
        for (const w of wiggle) {
          const next = nextLevel(b, lvl, edge + w, external)
          if (next !== lvl) return false
        }
        return true
      }), { numRuns: 500 })
  })

  it('switches once a car is beyond the edge by more than the hysteresis', () => {
    expect(nextLevel(b, LEVEL_FULL, 70.001, false)).toBe(LEVEL_SINGLE_TRACK)
    expect(nextLevel(b, LEVEL_FULL, 69.999, false)).toBe(LEVEL_FULL)
    expect(nextLevel(b, LEVEL_SINGLE_TRACK, 49.999, false)).toBe(LEVEL_FULL)
    expect(nextLevel(b, LEVEL_SINGLE_TRACK, 50.001, false)).toBe(LEVEL_SINGLE_TRACK)
    expect(nextLevel(b, LEVEL_SINGLE_TRACK, 310.001, false)).toBe(LEVEL_FROZEN)
    expect(nextLevel(b, LEVEL_FROZEN, 289.999, false)).toBe(LEVEL_SINGLE_TRACK)
    expect(nextLevel(b, LEVEL_FROZEN, 290.001, false)).toBe(LEVEL_FROZEN)
  })

  it('never gives an external car singleTrack, at any distance or start level', () => {
    fc.assert(fc.property(fc.constantFrom(LEVEL_FULL, LEVEL_SINGLE_TRACK, LEVEL_FROZEN), fc.double({ min: -1, max: 1e6, noNaN: true }), (cur, d) =>
      nextLevel(b, cur, d, true) !== LEVEL_SINGLE_TRACK), { numRuns: 500 })
    expect(nextLevel(b, LEVEL_FULL, 311, true)).toBe(LEVEL_FROZEN)
    expect(nextLevel(b, LEVEL_FROZEN, 289, true)).toBe(LEVEL_FULL)
  })
})

describe('the path band', () => {
  const p = { singleTrackBeyond: 60, pathBeyond: 150, frozenBeyond: 300, hysteresis: 10 }
  const levels = [LEVEL_FULL, LEVEL_SINGLE_TRACK, LEVEL_PATH, LEVEL_FROZEN]
  it('puts driven cars beyond pathBeyond at path; cars without a driver and external cars skip it', () => {
    for (const cur of levels) {
      expect(nextLevel(p, cur, 0, false, true)).toBe(LEVEL_FULL)
      expect(nextLevel(p, cur, 100, false, true)).toBe(LEVEL_SINGLE_TRACK)
      expect(nextLevel(p, cur, 200, false, true)).toBe(LEVEL_PATH)
      expect(nextLevel(p, cur, 400, false, true)).toBe(LEVEL_FROZEN)
      expect(nextLevel(p, cur, 200, false, false)).toBe(LEVEL_SINGLE_TRACK)
      expect(nextLevel(p, cur, 200, true, true)).toBe(LEVEL_FULL)
      expect(nextLevel({ ...p, frozenBeyond: Infinity }, cur, 1e12, false, true)).toBe(LEVEL_PATH)
    }
  })
  it('never changes level while a car oscillates across any edge by less than the hysteresis', () => {
    fc.assert(fc.property(
      fc.constantFrom(60, 150, 300), fc.double({ min: -9.999, max: 9.999, noNaN: true }), fc.array(fc.double({ min: -9.999, max: 9.999, noNaN: true }), { minLength: 1, maxLength: 50 }),
      fc.boolean(), fc.boolean(), fc.constantFrom(...levels),
      (edge, start, wiggle, external, driven, initial) => {
        let lvl: number = initial
        for (let k = 0; k < 3; k++) lvl = nextLevel(p, lvl, edge + start, external, driven)
        for (const w of wiggle) if (nextLevel(p, lvl, edge + w, external, driven) !== lvl) return false
        return true
      },
    ))
  })
})

describe('keptBetween', () => {
  it('gives exactly the distances at which nextLevel keeps a level, for every level and mark', () => {
    const out = new Float64Array(2)
    const bands = [b, { singleTrackBeyond: 60, pathBeyond: 150, frozenBeyond: Infinity, hysteresis: 10 }, { singleTrackBeyond: 5, pathBeyond: 5, frozenBeyond: 40, hysteresis: 0 }]
    fc.assert(fc.property(
      fc.constantFrom(...bands), fc.constantFrom(LEVEL_FULL, LEVEL_SINGLE_TRACK, LEVEL_FROZEN, LEVEL_PATH), fc.boolean(), fc.boolean(),
      fc.oneof(fc.double({ min: 0, max: 400, noNaN: true }), fc.constantFrom(0, Infinity)), fc.constantFrom(0, -10, 10), fc.double({ min: -1, max: 1, noNaN: true }),
      (bb, current, external, driven, far, h, near) => {
        // anywhere, or near an edge ± the hysteresis (where the levels change)
        const edges = [bb.singleTrackBeyond, bb.pathBeyond, bb.frozenBeyond].filter(Number.isFinite)
        const d = near > 0.5 ? far : edges[Math.floor(Math.abs(near) * 1e6) % edges.length] + h * (bb.hysteresis / 10) + near
        keptBetween(bb, current, external, driven, out, 0)
        const kept = d >= out[0] && d <= out[1]
        return kept === (nextLevel(bb, current, d, external, driven) === current)
      }), { numRuns: 4000 })
  })
})
