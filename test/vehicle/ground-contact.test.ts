// What wheels stand on: every shape in the car's groundMask but never a car's chassis, a
// collider's own surface, a car dropped from a height, and no tunnelling through a heightfield at
// 60 m/s.
import { describe, expect, it } from 'vitest'
import { box, surfaces } from '../../src/index'
import { makeSim } from './helpers'
import { addHills } from './terrain-helpers'

describe('wheel–ground contact', () => {
  it('a car on a box platform stands on it; with the platform out of its groundMask it stands on the ground below', () => {
    for (const [mask, onTop] of [[-1, true], [~2, false]] as const) {
      const sim = makeSim()
      sim.addCollider(box(10, 10, 0.5), { position: [0, 0, 0.5], group: 2 })
      const car = sim.addCar({ position: [0, 0], groundMask: mask })
      sim.stepMany(1 / 60, 60)
      const s = sim.carState(car)
      expect(s.grounded).toEqual([true, true, true, true])
      expect(s.position[2]).toBeCloseTo(sim.carDefinition(car).cgHeight + (onTop ? 1 : 0), 2)
    }
  })

  it('never stands on a car: one car on top of another falls through its chassis to the ground', () => {
    const sim = makeSim()
    sim.addCar({ position: [0, 0] })
    const top = sim.addCar({ position: [0, 0, 3] })
    sim.stepMany(1 / 60, 120)
    const s = sim.carState(top)
    expect(s.grounded).toEqual([true, true, true, true])
    expect(s.position[2]).toBeCloseTo(sim.carDefinition(top).cgHeight, 2)
  })

  it('[x, y, z] drops the car from z: it falls freely, lands on its suspension and settles', () => {
    const sim = makeSim()
    const car = sim.addCar({ position: [0, 0, 5.55] })
    expect(sim.carState(car).grounded).toEqual([false, false, false, false])
    sim.stepMany(1 / 60, 30) // 0.5 s: 1.2 m of free fall
    expect(sim.carState(car).position[2]).toBeCloseTo(5.55 - 0.5 * 9.81 * 0.25, 2)
    sim.stepMany(1 / 60, 240)
    const s = sim.carState(car)
    expect(s.grounded).toEqual([true, true, true, true])
    expect(Math.abs(s.position[2] - 0.55)).toBeLessThan(0.01)
    expect(Math.abs(s.velocity[2])).toBeLessThan(0.01)
  })

  it("a collider's surface sets the wheels' grip on it: braking on an ice slab takes far longer than on tarmac", () => {
    const stop = (surface?: { name: string; grip: number; rollingResistance: number }) => {
      const sim = makeSim()
      sim.addCollider(box(200, 10, 0.5), { position: [100, 0, -0.4], surface })
      const car = sim.addCar({ position: [0, 0], speed: 20 })
      sim.setInput(car, { brake: 1 })
      let t = 0
      while (sim.carState(car).speed > 0.1 && t < 60) { sim.step(1 / 60); t += 1 / 60 }
      return t
    }
    const tarmac = stop(), ice = stop(surfaces.ice)
    // decelerations ∝ grip: ice's is a tenth of tarmac's
    expect(ice / tarmac).toBeGreaterThan(5)
    expect(() => makeSim().addCollider(box(1, 1, 1), { surface: { name: 'x', grip: -1, rollingResistance: 0 } })).toThrow(RangeError)
  })

  it('refuses a bad groundMask, naming it', () => {
    const sim = makeSim()
    expect(() => sim.addCar({ groundMask: 1.5 })).toThrow(/options.groundMask/)
    expect(() => sim.addCar({ groundMask: 'all' as unknown as number })).toThrow(TypeError)
  })

  it('does not sink through a heightfield at 60 m/s over hills', () => {
    const sim = makeSim({ ground: false })
    const z = addHills(sim, 1, 200, 1200, 2)
    for (const lod of ['full', 'singleTrack'] as const) {
      const car = sim.addCar({ position: [-500, lod === 'full' ? 0 : 20], speed: 60, lod })
      let lowest = Infinity
      for (let i = 0; i < 60 * 12; i++) {
        sim.setInput(car, { throttle: 1, gear: 1 })
        sim.step(1 / 60)
        const s = sim.carState(car)
        lowest = Math.min(lowest, s.position[2] - z(s.position[0], s.position[1]))
      }
      expect(sim.carState(car).position[0]).toBeGreaterThan(100)
      expect(lowest).toBeGreaterThan(0.3) // the centre of mass stays well above the surface
    }
  })
})

describe('setPose on terrain', () => {
  it('seats a teleported car on the surface at its new place (a hill top from a valley), keeping its speed', () => {
    const sim = makeSim({ ground: false })
    const z = addHills(sim, 3, 80, 400)
    const car = sim.addCar({ position: [-20, 0], speed: 10 }) // a valley: z = −3
    sim.setPose(car, [20, 0]) // a crest: z = +3
    const s = sim.carState(car)
    expect(s.position[2]).toBeCloseTo(z(20, 0) + 0.55, 1)
    expect(s.speed).toBeCloseTo(10, 6)
    sim.stepMany(1 / 60, 30)
    expect(sim.carState(car).grounded).toEqual([true, true, true, true])
  })
})
