// The gearbox as a driver feels it: kick-down from a cruise, no engine speed past the limiter's
// band whatever the inputs, and a manual shift that takes its time.
import { describe, expect, it } from 'vitest'
import { presets, type CarDefinition, type Sim } from '../../src/index'
import { seededRandom } from '../random'
import { makeSim, runUntil } from './helpers'

const LEVELS = ['full', 'singleTrack'] as const

// seconds from the first step until `until()` holds (the car's own clock)
function timeUntil(sim: Sim, car: number, until: () => boolean): number {
  const t0 = sim.carState(car).time
  return runUntil(sim, until, 30) === Infinity ? Infinity : sim.carState(car).time - t0
}

describe('gearbox', () => {
  for (const lod of LEVELS) {
    it(`automatic kicks down: 60→100 km/h from a cruise within 5% of the standing start's split (${lod})`, () => {
      const standing = makeSim()
      const a = standing.addCar({ lod })
      standing.setInput(a, { gear: 1, throttle: 1 })
      const t60 = timeUntil(standing, a, () => standing.carState(a).speed >= 60 / 3.6)
      const split = timeUntil(standing, a, () => standing.carState(a).speed >= 100 / 3.6)
      const cruise = makeSim()
      const b = cruise.addCar({ lod, speed: 60 / 3.6 })
      cruise.setInput(b, { gear: 1 })
      for (let i = 0; i < 600; i++) {
        cruise.setInput(b, { throttle: Math.max(0, Math.min(1, 0.15 + 0.5 * (60 / 3.6 - cruise.carState(b).speed))) })
        cruise.step(1 / 60)
      }
      const cruiseGear = cruise.carState(b).gear
      cruise.setInput(b, { throttle: 1 })
      const kicked = timeUntil(cruise, b, () => cruise.carState(b).speed >= 100 / 3.6)
      console.log(`${lod}: 0-60 ${t60.toFixed(2)} s; 60-100 standing ${split.toFixed(2)} s, from a cruise in gear ${cruiseGear} ${kicked.toFixed(2)} s`)
      expect(cruiseGear).toBeGreaterThanOrEqual(4)
      expect(kicked / split).toBeLessThan(1.05)
      expect(kicked / split).toBeGreaterThan(0.95)
    })
  }

  for (const lod of LEVELS) {
    it(`the engine never passes 1.03 × its limiter: 20 seeds of random abuse, every preset, and a handbrake slide (${lod})`, () => {
      for (const name of ['hatchback', 'sportsCar', 'van'] as const) {
        const def: CarDefinition = presets[name]
        const limit = 1.03 * def.engine.maxRpm
        let worst = 0
        for (let seed = 1; seed <= 20; seed++) {
          const r = seededRandom(seed)
          const sim = makeSim()
          const car = sim.addCar({ definition: def, lod, speed: r() * 30 })
          for (let s = 0; s < (lod === 'full' ? 300 : 900); s++) {
            if (s % 20 === 0) sim.setInput(car, { steer: r() * 2 - 1, throttle: r() < 0.3 ? 0 : r(), brake: r() < 0.7 ? 0 : r(), handbrake: r() < 0.85 ? 0 : 1, clutch: r() < 0.85 ? 0 : r(), gear: Math.floor(r() * (def.gearbox.ratios.length + 2)) - 1 })
            sim.step(1 / 60)
            worst = Math.max(worst, sim.carState(car).engineRpm)
          }
        }
        expect(worst, `${name}`).toBeLessThan(limit)
      }
      // the van in 1st, into a handbrake slide at full lock from 20 m/s, then the wheel straightened
      const sim = makeSim()
      const car = sim.addCar({ definition: presets.van, lod, speed: 20 })
      sim.setInput(car, { gear: 1, throttle: 0.5, steer: 1, handbrake: 1 })
      let worst = 0
      for (let s = 0; s < 420; s++) {
        if (s === 120) sim.setInput(car, { steer: 0, handbrake: 0 })
        sim.step(1 / 60)
        worst = Math.max(worst, sim.carState(car).engineRpm)
      }
      expect(worst).toBeLessThan(1.03 * presets.van.engine.maxRpm)
    })
  }

  it('a manual shift interrupts the drive for the shift time', () => {
    const sim = makeSim()
    const car = sim.addCar({ definition: presets.sportsCar, lod: 'singleTrack', speed: 10 })
    sim.setInput(car, { gear: 1, throttle: 1 })
    sim.stepMany(1 / 60, 30)
    expect(sim.carState(car).clutch).toBe(1)
    sim.setInput(car, { gear: 2 })
    sim.step(1 / 60)
    expect(sim.carState(car).gear).toBe(2)
    expect(sim.carState(car).clutch).toBe(0)
    const shift = presets.sportsCar.gearbox.shiftTime
    sim.stepMany(1 / 60, Math.floor(shift * 60) - 2)
    expect(sim.carState(car).clutch).toBe(0)
    sim.stepMany(1 / 60, 3)
    expect(sim.carState(car).clutch).toBe(1)
  })
})
