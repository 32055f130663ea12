// Cars on slopes, from first principles: a 10% slope (the top face of a long tilted slab), at
// both the four-wheel (full) and the single-track level. Braked, the car holds (the brakes'
// static grip against m·g·sinθ); released in neutral it rolls down at g·sinθ less rolling
// resistance and drag; at full throttle the hatchback climbs 15% from rest; on a 6% grade its top
// speed is where the definition's power at the wheels meets v·(m·g·sinθ + rolling + drag).
import { describe, expect, it } from 'vitest'
import { presets } from '../../src/index'
import { makeSim } from './helpers'
import { addSlope, powerBalanceTopSpeed } from './terrain-helpers'

const G = 9.81
const RR = 0.012 // tarmac's rolling resistance (the sim has no surface map)
const LEVELS = ['full', 'singleTrack'] as const

/** A car on the slope of `grade` at x (uphill +x), heading uphill (0) or downhill (π). */
function onSlope(grade: number, level: 'full' | 'singleTrack', x = 100, heading = 0, half = 400, speed = 0) {
  const sim = makeSim({ ground: false }) // a world of the slope only
  const angle = addSlope(sim, grade, half)
  const car = sim.addCar({ position: [x, 0], heading, lod: level, speed })
  return { sim, car, angle }
}

/** The distance along the slope of two car positions. */
function along(a: number[], b: number[]): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2])
}

describe.each(LEVELS)('on a slope (%s)', (level) => {
  it('sits on its wheels on the slope, pitched nose up with it, all wheels grounded', () => {
    const { sim, car, angle } = onSlope(0.1, level)
    sim.setInput(car, { brake: 1 })
    for (let i = 0; i < 120; i++) sim.step(1 / 60)
    const s = sim.carState(car)
    expect(s.pitch).toBeCloseTo(-angle, 2)
    expect(s.grounded).toEqual([true, true, true, true])
    // centre of mass at its ride height above the slope (along the normal)
    const surface = 0.1 * s.position[0]
    expect(Math.abs((s.position[2] - surface) * Math.cos(angle) - presets.hatchback.cgHeight)).toBeLessThan(0.01)
  })

  for (const hold of [{ brake: 1 }, { handbrake: 1 }] as const) {
    it(`braked (${Object.keys(hold)[0]} 1) on 10% it creeps < 1 mm per simulated minute`, () => {
      const { sim, car } = onSlope(0.1, level)
      sim.setInput(car, { ...hold, gear: 0 })
      for (let i = 0; i < 120; i++) sim.step(1 / 60) // settle on the springs
      const p0 = sim.carState(car).position
      sim.stepMany(1 / 60, 3600)
      expect(along(p0, sim.carState(car).position)).toBeLessThan(0.001)
    })
  }

  it('released in neutral on 10% it rolls down at g·sinθ less rolling resistance and drag (within 10%)', () => {
    const { sim, car, angle } = onSlope(0.1, level)
    sim.setInput(car, { brake: 1, gear: 0 })
    for (let i = 0; i < 60; i++) sim.step(1 / 60)
    sim.setInput(car, { brake: 0 })
    const p0 = sim.carState(car).position
    const T = 3
    sim.stepMany(1 / 60, T * 60)
    const s = sim.carState(car)
    const d = presets.hatchback
    const v = Math.hypot(...s.velocity)
    // drag at the mean speed over the run (it is small here)
    const a = G * Math.sin(angle) - RR * G * Math.cos(angle) - (0.5 * 1.204 * d.dragCoefficient * d.frontalArea * (v / 2) ** 2) / d.mass
    expect(s.position[0]).toBeLessThan(p0[0]) // downhill
    expect(Math.abs(v / T - a) / a).toBeLessThan(0.1)
    expect(Math.abs((2 * along(p0, s.position)) / (T * T) - a) / a).toBeLessThan(0.1)
  })

  it('the hatchback climbs 15% from rest at full throttle', () => {
    const { sim, car } = onSlope(0.15, level, -300)
    sim.setInput(car, { throttle: 1, gear: 1 })
    const p0 = sim.carState(car).position
    sim.stepMany(1 / 60, 10 * 60)
    const s = sim.carState(car)
    expect(s.position[0] - p0[0]).toBeGreaterThan(50)
    expect(s.speed).toBeGreaterThan(8)
    expect(s.grounded).toEqual([true, true, true, true])
  })

  it('its top speed on a 6% grade matches its definition\'s power balance within 5%', () => {
    const d = presets.hatchback
    const angle = Math.atan(0.06)
    const expected = powerBalanceTopSpeed(d, angle)
    // from a little below it, for a minute (2.6 km of the slope)
    const { sim, car } = onSlope(0.06, level, -2800, 0, 3000, 0.9 * expected)
    sim.setInput(car, { throttle: 1, gear: 1 })
    sim.stepMany(1 / 60, 55 * 60)
    const s = sim.carState(car)
    const v = Math.hypot(...s.velocity)
    sim.stepMany(1 / 60, 5 * 60)
    const v2 = Math.hypot(...sim.carState(car).velocity)
    expect(Math.abs(v2 - v)).toBeLessThan(0.1) // at its top speed
    expect(sim.carState(car).grounded).toEqual([true, true, true, true])
    expect(Math.abs(v2 - expected) / expected).toBeLessThan(0.05)
  })
})
