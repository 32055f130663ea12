// A driven car left in neutral never moves: the first step after setAi warns once per sim, naming
// both fixes (a gear in setInput, or setAi's shift); a car in gear or with a shifting driver, set
// up in either order before the step, is not warned about.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, stadiumPath } from '../../src/index'

const path = stadiumPath(200, 60)

afterEach(() => { vi.restoreAllMocks() })

describe('a driven car in neutral', () => {
  it('warns once per sim, naming setInput gear and setAi shift, and the car indeed stays put', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sim = createSim(createWorld())
    const car = sim.addCar({ position: [-100, -60], heading: 0 })
    sim.setAi(car, path, { closed: true, maxSpeed: 20 })
    expect(warn).not.toHaveBeenCalled() // setAi itself says nothing: a gear may follow before the step
    sim.stepMany(1 / 60, 120)
    expect(warn).toHaveBeenCalledTimes(1)
    const text = String(warn.mock.calls[0]![0])
    expect(text).toMatch(new RegExp(`car ${car} `))
    expect(text).toMatch(/sim\.setInput\(car, \{ gear: 1 \}\)/)
    expect(text).toMatch(/shift: true/)
    expect(sim.aiStatus(car)!.neutral).toBe(true)
    expect(Math.abs(sim.carState(car).speed)).toBeLessThan(0.01) // it did not move
    // another car in neutral in the same sim: no second warning
    const other = sim.addCar({ position: [-60, -60], heading: 0 })
    sim.setAi(other, path, { closed: true, maxSpeed: 20 })
    sim.stepMany(1 / 60, 10)
    expect(warn).toHaveBeenCalledTimes(1)
    // a new sim warns again
    const again = createSim(createWorld())
    again.setAi(again.addCar({ position: [-100, -60] }), path, { closed: true })
    again.step(1 / 60)
    expect(warn).toHaveBeenCalledTimes(2)
  })

  it('stays quiet for a car put in gear (before or after setAi) or given a shifting driver', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sim = createSim(createWorld())
    const before = sim.addCar({ position: [-100, -60], heading: 0 })
    sim.setInput(before, { gear: 1 })
    sim.setAi(before, path, { closed: true, maxSpeed: 20 })
    const after = sim.addCar({ position: [-80, -60], heading: 0 })
    sim.setAi(after, path, { closed: true, maxSpeed: 20 })
    sim.setInput(after, { gear: 1 })
    const shifting = sim.addCar({ position: [-60, -60], heading: 0 })
    sim.setAi(shifting, path, { closed: true, maxSpeed: 20, shift: true })
    sim.stepMany(1 / 60, 120)
    expect(warn).not.toHaveBeenCalled()
    for (const car of [before, after, shifting]) expect(sim.aiStatus(car)!.distance).toBeGreaterThan(5)
  })
})
