// A game server may step at 10 Hz or even once a second. The single-track model prepares its
// powertrain (gear, engine torque, clutch capacity) once per 1/60 s of its own substeps, however
// long the host step is, so a coarse host step drives the car as 60 Hz steps do: the same gear
// changes, no engine held at one torque past its limiter for the whole step.
import { describe, expect, it } from 'vitest'
import { presets } from '../../src/index'
import { makeSim } from './helpers'

/** A hatchback launched flat out from rest at single-track 240 Hz, stepped `steps` times by `dt`. */
function launch(dt: number, steps: number) {
  const sim = makeSim()
  const car = sim.addCar({ definition: presets.hatchback, position: [0, 0] })
  sim.setLod(car, 'singleTrack', 240)
  sim.setInput(car, { gear: 1, throttle: 1 })
  let maxRpm = 0
  for (let i = 0; i < steps; i++) {
    sim.step(dt)
    maxRpm = Math.max(maxRpm, sim.carState(car).engineRpm)
  }
  return { state: sim.carState(car), maxRpm }
}

describe('single-track at a coarse host step', () => {
  it('a 10 s launch at 0.5 s and 2 s host steps ends as at 1/60 s: speed, gear and engine', () => {
    const fine = launch(1 / 60, 600)
    expect(fine.state.speed).toBeGreaterThan(25) // it really launched (≈ 106 km/h after 10 s)
    for (const [dt, steps] of [[0.5, 20], [2, 5]]) {
      const coarse = launch(dt, steps)
      expect(Math.abs(coarse.state.speed - fine.state.speed)).toBeLessThan(0.01 * fine.state.speed)
      expect(coarse.state.gear).toBe(fine.state.gear)
      expect(Math.abs(coarse.state.engineRpm - fine.state.engineRpm)).toBeLessThan(0.01 * fine.state.engineRpm)
      // no higher than 60 Hz steps take it (the old once-per-host-step preparation: 14,000 rpm at 2 s)
      expect(coarse.maxRpm).toBeLessThan(fine.maxRpm + 100)
    }
  })
})
