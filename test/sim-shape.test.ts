import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, enableHosting } from '../src/index'

// Every sim is built the same way (one object literal, its methods own properties in one order), so
// V8 gives all sims one hidden class: code that meets several sims (a server running several races,
// tests, benches) stays monomorphic on `sim.` reads. A prototype per sim gave each sim its own class.
describe('the sim object', () => {
  it('has the same own keys in the same order and the same prototype in every sim', () => {
    const a = createSim(createWorld()), b = createSim(createWorld(), { gravity: 3.7, ground: false })
    b.addCar({ position: [0, 0] })
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype)
    expect(Object.getPrototypeOf(b)).toBe(Object.getPrototypeOf(a))
    expect(Object.keys(b)).toEqual(Object.keys(a))
    for (const name of ['step', 'stepMany', 'setPose', 'remove', 'addCollider', 'rayTest', 'addLidar', 'lidarScan', 'rayTestLidar',
      'addCar', 'setInput', 'getInput', 'carState', 'setLod', 'getLod', 'snapshot', 'restore', 'setAi', 'aiStatus', 'clearAi']) {
      expect(Object.keys(a)).toContain(name)
      expect(typeof (a as unknown as Record<string, unknown>)[name]).toBe('function')
    }
  })

  it('gets the same keys again in every sim that enables hosting', () => {
    const a = createSim(createWorld()), b = createSim(createWorld())
    enableHosting(a); enableHosting(b)
    expect(Object.keys(b)).toEqual(Object.keys(a))
    expect(Object.keys(a)).toEqual(expect.arrayContaining(['setHost', 'clearHost', 'hostOf']))
  })

  it('keeps each sim\'s methods its own', () => {
    const a = createSim(createWorld()), b = createSim(createWorld())
    const car = a.addCar({ position: [5, 0] })
    expect(a.carState(car).position[0]).toBeCloseTo(5, 9)
    expect(() => b.carState(car)).toThrow(/not a live entity|not a car/)
  })
})
