// setAi's `shift`: the driver engages drive and shifts a manual box by the car's torque curve and
// ratios; a driver left in neutral is reported; bad values refused.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, presets, stadiumPath, type CarDefinition, type Sim } from '../../src/index'
import { expectSameAcceleration, straightPair } from './straight-pair'

const DT = 1 / 60
const TRACK = stadiumPath(500, 60, 2) // long straights: the sports car reaches 4th
const MANUAL: CarDefinition = presets.sportsCar
/** `definition` with its gearbox made automatic (true) or manual (false). */
const withBox = (definition: CarDefinition, automatic: boolean): CarDefinition => ({ ...definition, gearbox: { ...definition.gearbox, automatic } })

/** A lap from a standing start at singleTrack: the time, the highest engine speed and the top gear used. */
function lap(definition: CarDefinition, options: { shift?: boolean; gear: number }) {
  const sim = createSim(createWorld())
  const car = sim.addCar({ definition, position: [-250, -60], heading: 0, speed: 0, lod: 'singleTrack' })
  sim.setInput(car, { gear: options.gear })
  sim.setAi(car, TRACK, { closed: true, maxSpeed: 50, shift: options.shift })
  const L = sim.aiPath(car)!.length
  let maxRpm = 0, topGear = 0, t = 0
  while (sim.aiStatus(car)!.distance < L && t < 200) {
    sim.step(DT)
    t += DT
    const st = sim.carState(car)
    maxRpm = Math.max(maxRpm, st.engineRpm)
    topGear = Math.max(topGear, st.gear)
  }
  return { t, maxRpm, topGear }
}

describe("setAi's shift option", () => {
  it('shifts a manual box: the engine stays under the limiter and a lap is as quick as with an automatic box', () => {
    const shiftedLaps = new Map<CarDefinition, number>()
    for (const preset of [presets.hatchback, presets.sportsCar, presets.van]) {
      const limit = preset.engine.maxRpm
      const manual = lap(withBox(preset, false), { shift: true, gear: 1 })
      shiftedLaps.set(preset, manual.t)
      const automatic = lap(withBox(preset, true), { gear: 1 })
      console.log(`${preset.name}: a lap with the manual box shifted by the driver ${manual.t.toFixed(2)} s (max ${manual.maxRpm.toFixed(0)} of ${limit} rpm, up to gear ${manual.topGear}), automatic ${automatic.t.toFixed(2)} s`)
      expect(manual.maxRpm).toBeLessThanOrEqual(limit)
      expect(manual.topGear).toBeGreaterThanOrEqual(4)
      expect(Math.abs(manual.t / automatic.t - 1)).toBeLessThan(0.02)
    }
    // (not vacuous: left to the user in first gear, the car sits on its limiter and is slow)
    const stuck = lap(MANUAL, { gear: 1 })
    expect(stuck.maxRpm).toBeGreaterThan(0.99 * MANUAL.engine.maxRpm)
    expect(stuck.t / shiftedLaps.get(MANUAL)!).toBeGreaterThan(1.1)
  })

  it('engages drive out of neutral (an automatic too); a driver left in neutral is reported and does not move the car', () => {
    const sim = createSim(createWorld())
    const [left, manual, automatic] = [MANUAL, MANUAL, presets.hatchback].map((definition, k) => {
      const car = sim.addCar({ definition, position: [-250 + 10 * k, -60], heading: 0, lod: 'singleTrack' })
      sim.setInput(car, { gear: 0 })
      sim.setAi(car, TRACK, { closed: true, shift: k > 0 })
      return car
    })
    expect(sim.aiStatus(left)!.neutral).toBe(true)
    sim.stepMany(DT, 180)
    expect(sim.aiStatus(left)!.neutral).toBe(true)
    expect(sim.carState(left).speed).toBeLessThan(0.1)
    expect(sim.getInput(left).gear).toBe(0)
    for (const car of [manual, automatic]) {
      expect(sim.aiStatus(car)!.neutral).toBe(false)
      expect(sim.getInput(car).gear).toBeGreaterThanOrEqual(1)
      expect(sim.carState(car).speed).toBeGreaterThan(5)
    }
    // reverse selected: the shifting driver puts it in a forward gear
    sim.setInput(manual, { gear: -1 })
    sim.step(DT)
    expect(sim.getInput(manual).gear).toBeGreaterThanOrEqual(1)
  })

  it('carries through the path level: a path car accelerates as its shifting driver would and comes back in a gear that fits', () => {
    const sim = createSim(createWorld())
    const { cars, speeds } = straightPair(sim, 20, withBox(presets.hatchback, false), true)
    expectSameAcceleration(speeds)
    // a rear-driven manual car too (its launch is grip-bound: the load moving rearwards counts)
    expectSameAcceleration(straightPair(createSim(createWorld()), 20, MANUAL, true).speeds)
    sim.setLod(cars[1], 'singleTrack')
    const back = sim.carState(cars[1])
    expect(back.gear).toBe(sim.carState(cars[0]).gear)
    expect(back.engineRpm).toBeLessThan(presets.hatchback.engine.maxRpm)
    sim.stepMany(DT, 60)
    expect(sim.carState(cars[1]).engineRpm).toBeLessThan(presets.hatchback.engine.maxRpm)
  })

  it('is refused unless a boolean, naming it; the default leaves the gear to the user', () => {
    const sim: Sim = createSim(createWorld())
    const car = sim.addCar({ definition: MANUAL })
    for (const bad of ['yes', 1, null]) expect(() => sim.setAi(car, TRACK, { closed: true, shift: bad as never })).toThrow(/options\.shift must be a boolean/)
    expect(() => sim.setAi(car, TRACK, { closed: true, shift: 'yes' as never })).toThrow(TypeError)
    expect(sim.aiStatus(car)).toBeNull()
    sim.setInput(car, { gear: 2 })
    sim.setAi(car, TRACK, { closed: true })
    sim.stepMany(DT, 120)
    expect(sim.getInput(car).gear).toBe(2)
  })
})
