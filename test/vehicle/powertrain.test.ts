// Gearbox, clutch, handbrake and differential behaviour a driver would notice.
import { describe, expect, it } from 'vitest'
import { presets, surfaceGrid, surfaces, type CarDefinition } from '../../src/index'
import { makeSim } from './helpers'

describe('powertrain', () => {
  it('automatic: -1 reverses, 0 is neutral, >= 1 drives and shifts by itself', () => {
    const sim = makeSim()
    const car = sim.addCar()
    sim.setInput(car, { gear: -1, throttle: 0.5 })
    sim.stepMany(1 / 60, 180)
    expect(sim.carState(car).gear).toBe(-1)
    expect(sim.carState(car).speed).toBeLessThan(-3)
    sim.setInput(car, { gear: 0, throttle: 1, brake: 1 })
    sim.stepMany(1 / 60, 120)
    const n = sim.carState(car)
    expect(n.gear).toBe(0)
    expect(Math.abs(n.speed)).toBeLessThan(1e-3)
    // neutral: the engine revs freely, the limiter holds it
    expect(n.engineRpm).toBeGreaterThan(5000)
    expect(n.engineRpm).toBeLessThan(presets.hatchback.engine.maxRpm + 200)
  })

  it('manual: the gear asked for is the gear engaged; a high gear launches slowly (clutch slips, no stall)', () => {
    const launch = (gear: number) => {
      const sim = makeSim()
      const car = sim.addCar({ definition: presets.sportsCar })
      sim.setInput(car, { gear, throttle: 1 })
      sim.stepMany(1 / 60, 120)
      const s = sim.carState(car)
      expect(s.gear).toBe(gear)
      expect(s.engineRpm).toBeGreaterThan(presets.sportsCar.engine.idleRpm * 0.9)
      return s.speed
    }
    const first = launch(1)
    const fifth = launch(5)
    expect(first).toBeGreaterThan(8)
    expect(fifth).toBeGreaterThan(0.5)
    expect(fifth).toBeLessThan(first)
  })

  it('the handbrake locks the rear wheels only', () => {
    const sim = makeSim()
    const car = sim.addCar({ speed: 15 })
    sim.setInput(car, { handbrake: 1 })
    sim.stepMany(1 / 60, 15)
    const w = sim.carState(car).wheelSpeeds
    expect(w[2]).toBe(0)
    expect(w[3]).toBe(0)
    expect(w[0]).toBeGreaterThan(20)
    expect(w[1]).toBeGreaterThan(20)
  })

  it('on split grip a limited-slip differential pulls away better than an open one', () => {
    // left half of the world ice, right half tarmac: the car straddles the line
    const grid = surfaceGrid({ origin: [-50, -50], cellSize: 1, columns: 400, rows: 100, palette: [surfaces.tarmac, surfaces.ice], cells: Array.from({ length: 40000 }, (_, i) => (Math.floor(i / 400) >= 50 ? 1 : 0)) })
    const run = (def: CarDefinition) => {
      const sim = makeSim({ surfaces: grid })
      const car = sim.addCar({ definition: def, position: [0, 0] })
      sim.setInput(car, { gear: 1, throttle: 1 })
      sim.stepMany(1 / 60, 120)
      return sim.carState(car).speed
    }
    const base = { ...presets.sportsCar, tractionControl: false }
    const lsd = run(base)
    const open = run({ ...base, differential: 'open' })
    expect(lsd).toBeGreaterThan(open * 1.15)
  })
})
