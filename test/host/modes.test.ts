// Determinism (same inputs, same bits, crashes included) and the game-steps-Rapier mode.
import { beforeAll, describe, expect, it } from 'vitest'
import { attachRapier } from '../../src/rapier/index'
import { RAPIER, addWall, hostedSim, initRapier, rel } from './helpers'

beforeAll(initRapier)

function crashScene() {
  const h = hostedSim()
  addWall(h.world, 25, 0, 1, 0.5, 10, 1)
  const cars = [
    h.sim.addCar({ position: [0, 0], speed: 25 }),
    h.sim.addCar({ position: [12, 1], heading: 0.3, speed: 5 }),
    h.sim.addCar({ position: [5, -8], heading: 1.2, speed: 15 }),
  ]
  for (const c of cars) { h.rapier.host(c); h.sim.setInput(c, { gear: 1, throttle: 0.6, steer: 0.1 }) }
  return { ...h, cars }
}

describe('hosted modes', () => {
  it('two identical hosted scenes with collisions give identical bits', () => {
    const a = crashScene()
    const b = crashScene()
    a.sim.stepMany(1 / 60, 50)
    for (let i = 0; i < 50; i++) b.sim.step(1 / 60)
    for (let k = 0; k < 3; k++) {
      expect(b.sim.snapshot(b.cars[k])).toEqual(a.sim.snapshot(a.cars[k]))
    }
    // something did hit something: the first car was stopped by the second or the wall
    expect(a.sim.carState(a.cars[0]).speed).toBeLessThan(20)
  })

  it('stepWorld false: the game steps Rapier after sim.step, and the car still tracks and collides', () => {
    const { sim, rapier, world } = hostedSim(undefined, { stepWorld: false })
    addWall(world, 60, 0, 1, 0.5, 10, 1)
    const free = sim.addCar({ position: [0, 40], speed: 10 })
    const car = sim.addCar({ position: [0, 0], speed: 10 })
    rapier.host(car)
    for (const c of [free, car]) sim.setInput(c, { gear: 1, throttle: 0.5 })
    for (let i = 0; i < 120; i++) {
      sim.step(1 / 60)
      world.timestep = 1 / 60
      world.step()
    }
    expect(rel(sim.carState(car).speed, sim.carState(free).speed)).toBeLessThan(0.02)
    for (let i = 0; i < 240; i++) { sim.step(1 / 60); world.step() }
    // the free car drove through x = 60; the hosted one is held at the wall
    expect(sim.carState(free).position[0]).toBeGreaterThan(80)
    expect(sim.carState(car).position[0] + 0.5 * 4.053).toBeLessThan(59.5 + 0.05)
    expect(sim.carState(car).position[0] + 0.5 * 4.053).toBeGreaterThan(59)
  })

  it('options are validated before anything changes', () => {
    const { sim } = hostedSim()
    const world = new RAPIER.World({ x: 0, y: 0, z: 0 })
    expect(() => attachRapier(sim, world, RAPIER, { rate: 'fast' as never })).toThrow(RangeError)
    expect(() => attachRapier(sim, world, RAPIER, { rate: 'substep', stepWorld: false })).toThrow(/substep/)
    expect(() => attachRapier(sim, world, RAPIER, { clearance: -1 })).toThrow(RangeError)
    expect(() => attachRapier(sim, {} as never, RAPIER)).toThrow(/rapierWorld/)
    expect(() => attachRapier(sim, world, {} as never)).toThrow(/RAPIER/)
    expect(() => attachRapier({} as never, world, RAPIER)).toThrow(/sim/)
    expect(world.bodies.len()).toBe(0)
  })
})
