// Hosted cars against the Rapier world: a box wall stops a car at 40 m/s without tunnelling, and
// two hosted cars colliding conserve momentum (a short contact: tyre impulses are small).
import { beforeAll, describe, expect, it } from 'vitest'
import { addWall, hostedSim, initRapier } from './helpers'

beforeAll(initRapier)

describe('hosted car into a box wall', () => {
  it('stops at a 0.3 m wall from 40 m/s (it travels 0.67 m per 60 Hz step) and never tunnels', () => {
    const { sim, rapier, world } = hostedSim()
    const face = 30
    // thinner than one step of travel: only continuous collision detection stops it
    addWall(world, face + 0.15, 0, 1, 0.15, 5, 1)
    const car = sim.addCar({ position: [0, 0], speed: 40 })
    rapier.host(car)
    // the driver keeps the throttle on: after the rebound the engine presses the car to the wall
    sim.setInput(car, { gear: 1, throttle: 0.5 })
    const half = 0.5 * 4.053 // hatchback length / 2
    let maxFront = -Infinity
    let hitAt = -1
    let impact = 0
    for (let i = 0; i < 180; i++) {
      sim.step(1 / 60)
      const s = sim.carState(car)
      maxFront = Math.max(maxFront, s.position[0] + half)
      if (hitAt < 0 && s.speed < 30) hitAt = i
      if (hitAt < 0) impact = s.speed
    }
    const s = sim.carState(car)
    expect(hitAt).toBeGreaterThan(0)
    expect(impact).toBeGreaterThan(39)
    // the free run to the wall takes (30 − 2.03) / 40 s ≈ 42 steps
    expect(hitAt).toBeGreaterThanOrEqual(40)
    expect(hitAt).toBeLessThanOrEqual(44)
    expect(maxFront).toBeLessThan(face + 0.05)
    expect(Math.abs(s.speed)).toBeLessThan(0.5)
    expect(s.position[0] + half).toBeGreaterThan(face - 0.3)
    expect(Math.abs(s.position[1])).toBeLessThan(0.05)
  })
})

// total momentum of cars a and b (world frame)
function momentum(sim: ReturnType<typeof hostedSim>['sim'], a: number, b: number, m: number): [number, number] {
  const va = sim.carState(a).velocity
  const vb = sim.carState(b).velocity
  return [m * (va[0] + vb[0]), m * (va[1] + vb[1])]
}

describe('two hosted cars colliding', () => {
  const cases = [
    { name: 'rear-end at 20 m/s', heading: 0, by: 0, speed: 20 },
    { name: 'T-bone at 15 m/s', heading: Math.PI / 2, by: 0.8, speed: 15 },
  ]
  for (const c of cases) {
    it(`conserves momentum within 5%: ${c.name}`, () => {
      const { sim, rapier } = hostedSim()
      const a = sim.addCar({ position: [0, c.by], speed: c.speed })
      const b = sim.addCar({ position: [8, 0], heading: c.heading })
      for (const car of [a, b]) { rapier.host(car); sim.setInput(car, { gear: 0 }) }
      const m = 1250
      let before: [number, number] = [0, 0]
      let contact = -1
      for (let i = 0; i < 60 && contact < 0; i++) {
        before = momentum(sim, a, b, m)
        sim.step(1 / 60)
        const vb = sim.carState(b).velocity
        if (Math.hypot(vb[0], vb[1]) > 0.05) contact = i
      }
      expect(contact).toBeGreaterThan(0)
      sim.stepMany(1 / 60, 2)
      const after = momentum(sim, a, b, m)
      const p = Math.hypot(before[0], before[1])
      const vb = sim.carState(b).velocity
      // the impact happened: b was pushed along a's direction to a good share of a's speed
      expect(vb[0]).toBeGreaterThan(0.3 * c.speed)
      expect(sim.carState(a).velocity[0]).toBeLessThan(0.8 * c.speed)
      expect(Math.hypot(after[0] - before[0], after[1] - before[1]) / p).toBeLessThan(0.05)
    })
  }
})
