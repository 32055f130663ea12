// Straight-line figures at both levels against real cars: hatchback (VW Polo 1.0 TSI DSG class:
// 0–100 km/h 9.3 s, 193 km/h, VW data; 100–0 km/h ≈ 35–38 m, magazine tests of the class) and
// sportsCar (Porsche 718 Cayman manual: 0–100 km/h 5.1 s, 275 km/h, Porsche data), and the
// coast-down at 100 km/h equal to aerodynamic drag plus rolling resistance.
import { describe, expect, it } from 'vitest'
import { presets, type CarDefinition } from '../../src/index'
import { makeSim, runUntil } from './helpers'

const LEVELS = ['full', 'singleTrack'] as const
const ROLLING = 0.012 // tarmac's rolling-resistance coefficient (surfaces.tarmac)

function acceleration(def: CarDefinition, lod: (typeof LEVELS)[number], shift: boolean): { t100: number; top: number } {
  const sim = makeSim()
  const car = sim.addCar({ definition: def, lod })
  if (lod === 'singleTrack') sim.setLod(car, 'singleTrack', 240)
  // a manual box is shifted as a driver would: up just below the limiter
  sim.setInput(car, { gear: 1, throttle: 1 })
  const limit = def.engine.maxRpm
  const step = () => {
    if (!shift) return
    const s = sim.carState(car)
    if (s.engineRpm > 0.97 * limit && s.gear < def.gearbox.ratios.length) sim.setInput(car, { gear: s.gear + 1 })
  }
  const t100 = runUntil(sim, () => { step(); return sim.carState(car).speed >= 100 / 3.6 }, 30)
  let last = 0
  let top = 0
  for (let i = 0; i < 40; i++) {
    for (let k = 0; k < 600; k++) { step(); sim.step(1 / 60) }
    top = sim.carState(car).speed * 3.6
    if (top - last < 0.3) break
    last = top
  }
  return { t100, top }
}

describe('straight line at both levels', () => {
  for (const lod of LEVELS) {
    it(`hatchback (${lod}): 0–100 km/h 8.0–11.0 s, top speed 180–205 km/h, 100–0 km/h 33–42 m`, () => {
      const { t100, top } = acceleration(presets.hatchback, lod, false)
      const sim = makeSim()
      const car = sim.addCar({ speed: 100 / 3.6, lod })
      if (lod === 'singleTrack') sim.setLod(car, 'singleTrack', 240)
      sim.setInput(car, { brake: 1 })
      runUntil(sim, () => sim.carState(car).speed < 0.01, 30, 1 / 240)
      const p = sim.carState(car).position
      const stop = Math.hypot(p[0], p[1])
      console.log(`hatchback ${lod}: 0-100 ${t100.toFixed(2)} s, top ${top.toFixed(1)} km/h, 100-0 ${stop.toFixed(1)} m`)
      expect(t100).toBeGreaterThanOrEqual(8)
      expect(t100).toBeLessThanOrEqual(11)
      expect(top).toBeGreaterThanOrEqual(180)
      expect(top).toBeLessThanOrEqual(205)
      expect(stop).toBeGreaterThanOrEqual(33)
      expect(stop).toBeLessThanOrEqual(42)
    })

    it(`sportsCar (${lod}): 0–100 km/h 4.8–5.6 s, top speed 265–285 km/h`, () => {
      const { t100, top } = acceleration(presets.sportsCar, lod, true)
      console.log(`sportsCar ${lod}: 0-100 ${t100.toFixed(2)} s, top ${top.toFixed(1)} km/h`)
      expect(t100).toBeGreaterThanOrEqual(4.8)
      expect(t100).toBeLessThanOrEqual(5.6)
      expect(top).toBeGreaterThanOrEqual(265)
      expect(top).toBeLessThanOrEqual(285)
    })

    it(`hatchback (${lod}): coasting in neutral at 100 km/h decelerates by drag plus rolling resistance (within 5%)`, () => {
      const sim = makeSim()
      const car = sim.addCar({ speed: 100 / 3.6, lod })
      if (lod === 'singleTrack') sim.setLod(car, 'singleTrack', 240)
      sim.setInput(car, { gear: 0 })
      sim.stepMany(1 / 60, 30) // settle the wheels and the load transfer
      const v0 = sim.carState(car).speed
      sim.stepMany(1 / 60, 60)
      const v1 = sim.carState(car).speed
      const measured = v0 - v1 // over 1 s
      const def = sim.carDefinition(car)
      const v = 0.5 * (v0 + v1)
      const expected = (0.5 * 1.204 * def.dragCoefficient * def.frontalArea * v * v) / def.mass + ROLLING * 9.81
      console.log(`coast-down ${lod}: ${measured.toFixed(4)} m/s² (drag + rolling ${expected.toFixed(4)})`)
      expect(Math.abs(measured / expected - 1)).toBeLessThan(0.05)
    })
  }
})
