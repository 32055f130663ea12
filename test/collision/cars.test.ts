// Integration with the vehicle domain: a car's chassis box follows the car through
// setColliderPoseFast in the broadphase phase, is hit by rays, and is left out by the self-filter.
import { describe, expect, it } from 'vitest'
import { makeSim, cast } from './helpers'

describe('car chassis colliders', () => {
  it('are hit where the car is, report object = car and localId 0, and follow it as it drives', () => {
    const sim = makeSim({ height: 0 })
    const car = sim.addCar({ position: [0, 0], heading: 0 })
    sim.step(1 / 60)
    const h = cast(sim, [-20, 0, 0.6], [1, 0, 0], 100)!
    expect(h.object).toBe(car)
    expect(h.localId).toBe(0)
    expect(h.collider).not.toBe(car)
    expect(h.distance).toBeGreaterThan(17)
    expect(h.distance).toBeLessThan(19.5)
    // the self-filter leaves the car's own body out: the ray then meets nothing (the ground is below)
    expect(cast(sim, [-20, 0, 0.6], [1, 0, 0], 100, car, 0)).toBeNull()
    sim.setInput(car, { throttle: 1, gear: 1, clutch: 0 })
    sim.stepMany(1 / 60, 120)
    const x = (sim.carState(car) as { position: ArrayLike<number> }).position[0]
    expect(x).toBeGreaterThan(1)
    const h2 = cast(sim, [-20, 0, 0.6], [1, 0, 0], 100)!
    expect(h2.object).toBe(car)
    expect(h2.distance).toBeCloseTo(h.distance + x, 1)
    sim.remove(car)
    expect(cast(sim, [-20, 0, 0.6], [1, 0, 0], 100)).toBeNull()
  })
})
