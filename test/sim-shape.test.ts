import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, enableHosting } from '../src/index'

// What a sim object is: its methods are its own properties (a spread or Object.keys lists them),
// enableHosting adds its three, and each sim's methods act on that sim only.
describe('the sim object', () => {
  it('has its methods as own properties, the same keys in every sim, and the clock read-only', () => {
    const a = createSim(createWorld()), b = createSim(createWorld(), { gravity: 3.7, ground: false })
    b.addCar({ position: [0, 0] })
    expect(Object.keys(b)).toEqual(Object.keys(a))
    for (const name of ['step', 'stepMany', 'setPose', 'remove', 'addCollider', 'rayTest', 'addLidar', 'lidarScan', 'rayTestLidar',
      'addCar', 'setInput', 'getInput', 'carState', 'setLod', 'getLod', 'snapshot', 'restore', 'carDefinition', 'setAi', 'aiStatus', 'clearAi', 'aiPath']) {
      expect(typeof (a as unknown as Record<string, unknown>)[name]).toBe('function')
      expect(Object.keys(a)).toContain(name)
    }
    for (const name of ['time', 'dt', 'steps']) expect(Object.getOwnPropertyDescriptor(a, name)?.set).toBeUndefined()
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
