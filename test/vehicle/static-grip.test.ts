// Static grip: a braked car under a steady outside force below its grip (a 10% slope, the force
// added by hand every substep) stays put; above its grip it slides.
import { describe, expect, it } from 'vitest'
import { presets } from '../../src/index'
import { makeSim } from './helpers'

function pushed(lod: 'full' | 'singleTrack', g: number, seconds: number): number {
  const sim = makeSim()
  const def = presets.hatchback
  const car = sim.addCar({ lod, heading: 0.4 })
  const hz = sim.getLod(car).hz
  sim.setInput(car, { brake: 1 })
  sim.stepMany(1 / 60, 30)
  const p = sim.carState(car).position
  const C = sim.components.Car
  // one host step per substep, so the force is the same at every substep: a constant force
  const dv = (g * 9.81) / hz
  for (let i = 0; i < seconds * hz; i++) {
    C.vx[car] += dv
    sim.step(1 / hz)
  }
  const q = sim.carState(car).position
  expect(def.brakes.maxTorque).toBeGreaterThan(0)
  return Math.hypot(q[0] - p[0], q[1] - p[1])
}

describe('static grip', () => {
  for (const lod of ['full', 'singleTrack'] as const) {
    it(`a braked car pushed with 0.1 g for a minute moves < 1 mm; with 1.5 g it slides (${lod})`, () => {
      const held = pushed(lod, 0.1, 60)
      const slid = pushed(lod, 1.5, 1)
      console.log(`${lod}: pushed with 0.1 g for 60 s ${(held * 1000).toFixed(3)} mm; with 1.5 g for 1 s ${slid.toFixed(2)} m`)
      expect(held).toBeLessThan(0.001)
      expect(slid).toBeGreaterThan(1)
    })
  }
})
