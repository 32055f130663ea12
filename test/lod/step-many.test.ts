import { describe, expect, it } from 'vitest'
import { LodController } from '../../src/index'
import { buildScene, firstDifference, stateNumbers } from '../replay/scene'

function pair(withController: boolean) {
  const a = buildScene({ cars: 7, lidars: 3 })
  const b = buildScene({ cars: 7, lidars: 3 })
  if (withController) {
    for (const s of [a, b]) new LodController(s.sim, { singleTrackBeyond: 50, frozenBeyond: 90, hysteresis: 5, singleTrackHz: 240 }).install({ focus: s.cars[0] })
  }
  return { a, b }
}

describe('stepMany is bit-identical to repeated step', () => {
  for (const withController of [false, true]) {
    it(`600 steps of 1/60 s, mixed levels, drivers, lidars${withController ? ', LodController following a car' : ''}`, () => {
      const { a, b } = pair(withController)
      const start = stateNumbers(a.sim, a.cars, a.lidars)
      expect(firstDifference(start, stateNumbers(b.sim, b.cars, b.lidars))).toBe(-1)
      const levelsSeen = new Set<string>()
      for (let i = 0; i < 600; i++) {
        a.sim.step(1 / 60)
        if (withController) for (const c of a.cars) levelsSeen.add(`${c}:${a.sim.getLod(c).level}`)
      }
      b.sim.stepMany(1 / 60, 600)
      const sa = stateNumbers(a.sim, a.cars, a.lidars)
      const sb = stateNumbers(b.sim, b.cars, b.lidars)
      const at = firstDifference(sa, sb)
      expect(at, `first differing number at index ${at}: ${sa[at]} vs ${sb[at]}`).toBe(-1)
      // Not vacuous: cars moved, lidars saw things, and (with the controller) levels changed.
      expect(firstDifference(start, sa)).not.toBe(-1)
      const moved = a.cars.filter((c, i) => a.sim.getLod(c).level !== 'frozen' || withController).length
      expect(moved).toBeGreaterThan(0)
      expect(a.lidars.some((l) => a.sim.lidarScan(l).count > 0)).toBe(true)
      if (withController) expect(levelsSeen.size).toBeGreaterThan(a.cars.length)
      expect(sa.every(Number.isFinite)).toBe(true)
      expect(a.sim.steps).toBe(600)
      expect(Object.is(a.sim.time, b.sim.time)).toBe(true)
    })
  }
})
