// Cars over rolling hills (a heightfield, amplitude 3 m, wavelength 80 m: gentle enough that a
// car at these speeds stays on the ground, A·(2π/λ)²·v² < g), level switches on a slope, and
// the new state through snapshots and stepMany.
import { describe, expect, it } from 'vitest'
import type { Sim } from '../../src/index'
import { makeSim } from './helpers'
import { addHills, addSlope } from './terrain-helpers'

const A = 3
const LAMBDA = 80

/** Holds `target` speed with throttle and brake (a P-controller) and straight steering. */
function holdSpeed(sim: Sim, car: number, target: number): void {
  const e = target - sim.carState(car).speed
  sim.setInput(car, { throttle: Math.max(0, Math.min(1, 0.3 + 0.5 * e)), brake: Math.max(0, Math.min(1, -0.3 * e)), steer: 0 })
}

/** The body's axes (x forward, y left, z up) in the world from heading, pitch (+ nose down) and roll (+ left up). */
function axes(heading: number, pitch: number, roll: number) {
  const cp = Math.cos(heading), sp = Math.sin(heading), ct = Math.cos(pitch), st = Math.sin(pitch), cf = Math.cos(roll), sf = Math.sin(roll)
  return {
    ex: [cp * ct, sp * ct, -st],
    ey: [cp * st * sf - sp * cf, sp * st * sf + cp * cf, ct * sf],
    ez: [cp * st * cf + sp * sf, sp * st * cf - cp * sf, ct * cf],
  }
}

describe.each(['full', 'singleTrack'] as const)('rolling hills (%s)', (level) => {
  for (const v of [15, 20]) {
    it(`at ${v} m/s each wheel stays on the surface (rayTest under it within 2 cm of the hills) and the pitch follows the slope`, () => {
      const sim = makeSim({ ground: false })
      const z = addHills(sim, A, LAMBDA, 400)
      const car = sim.addCar({ position: [-150, 0], speed: v, lod: level })
      sim.setInput(car, { gear: 1 })
      const d = sim.carDefinition(car)
      const a = d.cgToFront, b = d.wheelbase - a
      const corners = [[a, d.trackFront / 2], [a, -d.trackFront / 2], [-b, d.trackRear / 2], [-b, -d.trackRear / 2]]
      let worst = 0, worstPitch = 0, lowest = Infinity, highest = -Infinity, samples = 0
      for (let i = 0; i < 60 * 12; i++) {
        holdSpeed(sim, car, v)
        sim.step(1 / 60)
        if (i < 60) continue // settled
        const s = sim.carState(car)
        expect(s.grounded).toEqual([true, true, true, true])
        const { ex, ey, ez } = axes(s.heading, s.pitch, s.roll)
        for (const [x, y] of corners) {
          const start = [0, 1, 2].map((k) => s.position[k] + x * ex[k] + y * ey[k] + d.cgHeight * ez[k])
          const hits = sim.rayTest(start, [-ez[0], -ez[1], -ez[2]], 3 * d.cgHeight, car, 0)
          expect(hits.size()).toBe(1)
          const p = hits.at(0)!.position
          worst = Math.max(worst, Math.abs(p[2] - z(p[0], p[1])))
        }
        // the slope between the axles' ground points (+ nose down when it falls ahead)
        const [cx, cy] = [s.position[0], s.position[1]]
        const slope = Math.atan2(z(cx - b, cy) - z(cx + a, cy), d.wheelbase)
        worstPitch = Math.max(worstPitch, Math.abs(s.pitch - slope))
        lowest = Math.min(lowest, s.position[2]); highest = Math.max(highest, s.position[2])
        samples++
      }
      expect(samples).toBeGreaterThan(600)
      expect(worst).toBeLessThan(0.02)
      // the four-wheel body pitches on its springs too (braking, accelerating, the ground's heave)
      expect(worstPitch).toBeLessThan(level === 'full' ? 0.03 : 0.005)
      expect(highest - lowest).toBeGreaterThan(5) // over the hills, up and down by metres
    })
  }
})

describe('level switches on a slope carry the motion across', () => {
  for (const [from, to] of [['full', 'singleTrack'], ['singleTrack', 'full']] as const) {
    it(`${from} → ${to} climbing 10%: height within 2 cm and speed within 0.5% of a twin that did not switch`, () => {
      const run = (switchTo: typeof to | null) => {
        const sim = makeSim({ ground: false })
        addSlope(sim, 0.1)
        const car = sim.addCar({ position: [-100, 0], speed: 15, lod: from })
        sim.setInput(car, { throttle: 0.6, gear: 1 })
        sim.stepMany(1 / 60, 120)
        if (switchTo) sim.setLod(car, switchTo)
        sim.stepMany(1 / 60, 30)
        return sim.carState(car)
      }
      const twin = run(null), switched = run(to)
      expect(Math.abs(switched.position[2] - twin.position[2])).toBeLessThan(0.02)
      expect(Math.abs(switched.speed - twin.speed) / twin.speed).toBeLessThan(0.005)
      expect(switched.grounded).toEqual([true, true, true, true])
    })
  }
})

describe('the new state in snapshots and stepMany', () => {
  it('a snapshot taken on a hill restores exactly; stepMany is bit-identical to step on terrain', () => {
    const make = () => {
      const sim = makeSim({ ground: false })
      addHills(sim, A, LAMBDA, 400)
      const cars = [sim.addCar({ position: [-140, 0], speed: 18 }), sim.addCar({ position: [-140, 10], speed: 18, lod: 'singleTrack' })]
      for (const c of cars) sim.setInput(c, { throttle: 0.5, gear: 1, steer: 0.05 })
      return { sim, cars }
    }
    const a = make(), b = make()
    for (let i = 0; i < 100; i++) a.sim.step(1 / 60)
    b.sim.stepMany(1 / 60, 100)
    for (let k = 0; k < 2; k++) expect(JSON.stringify(b.sim.snapshot(b.cars[k]))).toBe(JSON.stringify(a.sim.snapshot(a.cars[k])))
    const snaps = a.cars.map((c) => JSON.parse(JSON.stringify(a.sim.snapshot(c))))
    expect(Math.abs(a.sim.carState(a.cars[0]).position[2] - 0.55)).toBeGreaterThan(0.5) // on the hills, not at ground height
    const c = make()
    c.cars.forEach((car, k) => c.sim.restore(car, snaps[k]))
    a.sim.stepMany(1 / 60, 60)
    c.sim.stepMany(1 / 60, 60)
    for (let k = 0; k < 2; k++) expect(c.sim.carState(c.cars[k])).toEqual(a.sim.carState(a.cars[k]))
  })
})
