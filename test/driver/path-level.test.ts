// The 'path' level: driven cars moved along their line, switches to and from singleTrack, refusals,
// the controller's path band, stepMany, world snapshots, replays, rays.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import {
  createSim, createReplayPlayer, createReplayRecorder, LodController, restoreWorld, samplePath, snapshotWorld, stadiumPath, type ReplayData, type Sim,
} from '../../src/index'
import { hostedSim, initRapier } from '../host/helpers'
import { buildScene, firstDifference, stateNumbers } from '../replay/scene'
import { expectSameAcceleration, straightPair } from './straight-pair'

const DT = 1 / 60
const OVAL = stadiumPath(200, 50, 2)

function drivenCar(sim: Sim, lod: 'full' | 'singleTrack' = 'singleTrack', maxSpeed = 30): number {
  const car = sim.addCar({ position: [-100, -50], heading: 0, speed: 10, lod })
  sim.setInput(car, { gear: 1 })
  sim.setAi(car, OVAL, { closed: true, maxSpeed })
  return car
}

/** The angle a − b wrapped into (−π, π]. */
const angleDiff = (a: number, b: number) => Math.atan2(Math.sin(a - b), Math.cos(a - b))

describe("the 'path' level", () => {
  it('moves a driven car along its line: on the line, heading its tangent (through the vertices smoothly), the profile speed at most, laps counted', () => {
    const sim = createSim(createWorld())
    const car = drivenCar(sim)
    sim.setLod(car, 'path')
    expect(sim.getLod(car).level).toBe('path')
    const line = sim.aiPath(car)!
    const tangent = new Float64Array(4)
    let last = sim.aiStatus(car)!.distance, worstOff = 0, worstHeading = 0, over = 0
    for (let k = 0; k < 60 * 40; k++) {
      sim.step(DT)
      const st = sim.carState(car), ai = sim.aiStatus(car)!
      expect(ai.distance).toBeGreaterThanOrEqual(last)
      last = ai.distance
      samplePath(line, ai.distance % line.length, tangent)
      worstOff = Math.max(worstOff, Math.hypot(st.position[0] - tangent[0], st.position[1] - tangent[1]))
      worstHeading = Math.max(worstHeading, Math.abs(angleDiff(st.heading, Math.atan2(tangent[3], tangent[2]))))
      over = Math.max(over, st.speed - ai.targetSpeed)
      expect(st.velocity[2]).toBe(0)
    }
    const ai = sim.aiStatus(car)!
    expect(ai.laps).toBe(Math.floor(ai.distance / line.length))
    expect(ai.laps).toBeGreaterThanOrEqual(1)
    expect(ai.lateralError).toBe(0)
    expect(worstOff).toBeLessThan(1e-6)
    // (the segment's direction, turned towards its neighbours' by at most half their turn: 2 m segments on a 50 m bend turn by 0.04 rad)
    expect(worstHeading).toBeLessThan(0.021)
    // (one step's braking at most: the profile is read where the step starts)
    expect(over).toBeLessThanOrEqual(6 / 60 + 1e-9)
    expect(sim.carState(car).time).toBeCloseTo(40 + 0, 6)
  })

  it('is not faster than the car: from 5 m/s its speed grows no faster than the single-track car it mirrors, and never past the profile', () => {
    // the path car's time to 20, 30 and 40 m/s within 10% of the physical car's (neither ahead by more)
    expectSameAcceleration(straightPair(createSim(createWorld()), 30).speeds)
  })

  it('switches singleTrack → path → singleTrack in a steady bend with speed and yaw-rate jumps within the full ↔ singleTrack bounds (0.5%, 3%)', () => {
    const sim = createSim(createWorld())
    const circle: number[] = []
    for (let i = 0; i < 180; i++) circle.push(80 * Math.cos((2 * Math.PI * i) / 180), 80 * Math.sin((2 * Math.PI * i) / 180))
    const car = sim.addCar({ position: [80, 0], heading: Math.PI / 2, speed: 15, lod: 'singleTrack' })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, circle, { closed: true, maxSpeed: 15 })
    sim.stepMany(DT, 60 * 20)
    const worst = { speed: 0, yaw: 0 }
    const across = (level: 'path' | 'singleTrack') => {
      const before = sim.carState(car)
      sim.setLod(car, level)
      for (let i = 0; i < 6; i++) {
        sim.step(DT)
        const s = sim.carState(car)
        worst.speed = Math.max(worst.speed, Math.abs(s.speed / before.speed - 1))
        worst.yaw = Math.max(worst.yaw, Math.abs(s.yawRate / before.yawRate - 1))
        expect(Math.hypot(s.position[0], s.position[1]) - 80).toBeLessThan(0.5)
      }
    }
    across('path')
    sim.stepMany(DT, 120)
    const onPath = sim.carState(car)
    across('singleTrack')
    expect(sim.getLod(car).level).toBe('singleTrack')
    // wheels, gear and engine carried: the wheels roll at the car's speed, the engine turns with them
    const after = sim.carState(car)
    const R = sim.carDefinition(car).wheelRadius
    for (const w of after.wheelSpeeds) expect(Math.abs((w * R) / after.speed - 1)).toBeLessThan(0.05)
    expect(after.gear).toBeGreaterThanOrEqual(1)
    expect(after.time).toBeGreaterThan(onPath.time)
    sim.stepMany(DT, 120)
    expect(Math.abs(sim.aiStatus(car)!.lateralError)).toBeLessThan(0.3)
    console.log(`path switches at 15 m/s on an 80 m circle: worst speed change ${(worst.speed * 100).toFixed(3)}%, yaw rate ${(worst.yaw * 100).toFixed(2)}% (0.1 s after each)`)
    expect(worst.speed).toBeLessThan(0.005)
    expect(worst.yaw).toBeLessThan(0.03)
  })

  it('is refused without a driver, at addCar, and on a hosted car; clearAi drops a path car to singleTrack', async () => {
    const sim = createSim(createWorld())
    const plain = sim.addCar({ speed: 5 })
    const before = sim.snapshot(plain)
    expect(() => sim.setLod(plain, 'path')).toThrow(/no driver/)
    expect(sim.snapshot(plain)).toEqual(before)
    expect(() => sim.addCar({ lod: 'path' })).toThrow(/needs a driver/)
    const car = drivenCar(sim)
    sim.setLod(car, 'path')
    sim.stepMany(DT, 30)
    sim.clearAi(car)
    expect(sim.getLod(car).level).toBe('singleTrack')
    expect(sim.aiStatus(car)).toBeNull()
    // a path snapshot onto a car without a driver is refused too
    const again = drivenCar(sim)
    sim.setLod(again, 'path')
    expect(() => sim.restore(plain, sim.snapshot(again))).toThrow(/no driver/)
    await initRapier()
    const { sim: hsim, rapier } = hostedSim()
    const hosted = hsim.addCar({ speed: 5 })
    hsim.setAi(hosted, OVAL, { closed: true })
    rapier.host(hosted)
    expect(() => hsim.setLod(hosted, 'path')).toThrow(/hosted/)
    expect(hsim.getLod(hosted).level).toBe('full')
    // and hosting a path car raises it to full first
    const later = hsim.addCar({ position: [0, 30], speed: 5 })
    hsim.setAi(later, OVAL, { closed: true })
    hsim.setLod(later, 'path')
    rapier.host(later)
    expect(hsim.getLod(later).level).toBe('full')
  })

  it('rays see a path car where it is', () => {
    const sim = createSim(createWorld())
    const car = drivenCar(sim)
    sim.setLod(car, 'path')
    sim.stepMany(DT, 200)
    const p = sim.carState(car).position
    const hits = sim.rayTest([p[0], p[1], 10], [0, 0, -1], 20)
    expect(hits.size()).toBe(1)
    expect(hits.at(0)!.object).toBe(car)
  })
})

describe('LodController pathBeyond', () => {
  it('sends driven cars beyond it to path (cars without a driver skip the band), frozenBeyond may be Infinity', () => {
    const sim = createSim(createWorld())
    const near = drivenCar(sim)
    const driven = sim.addCar({ position: [400, 0] })
    sim.setAi(driven, OVAL, { closed: true })
    const undriven = sim.addCar({ position: [400, 10] })
    const lod = new LodController(sim, { singleTrackBeyond: 60, pathBeyond: 150, frozenBeyond: Infinity })
    lod.update((c) => (c === near ? 0 : 400))
    expect(sim.getLod(near).level).toBe('full')
    expect(sim.getLod(driven).level).toBe('path')
    expect(sim.getLod(undriven).level).toBe('singleTrack')
    lod.update(() => 100)
    expect(sim.getLod(driven).level).toBe('singleTrack')
    expect(() => new LodController(sim, { singleTrackBeyond: 60, pathBeyond: 30 })).toThrow(/pathBeyond/)
    expect(() => new LodController(sim, { pathBeyond: 400, frozenBeyond: 300 })).toThrow(/pathBeyond/)
  })

  it('keeps stepMany bit-identical to step, and world snapshots and replays exact, with path cars switching', () => {
    const run = (many: boolean) => {
      const { sim, cars, lidars } = buildScene({ cars: 8, levelOf: () => 'singleTrack' })
      new LodController(sim, { singleTrackBeyond: 20, pathBeyond: 50, frozenBeyond: Infinity, hysteresis: 5, singleTrackHz: 240 }).install({ focus: cars[0] })
      if (many) sim.stepMany(DT, 600)
      else for (let k = 0; k < 600; k++) sim.step(DT)
      return { sim, cars, numbers: stateNumbers(sim, cars, lidars), lidars }
    }
    const a = run(true), b = run(false)
    expect(firstDifference(a.numbers, b.numbers)).toBe(-1)
    expect(a.cars.some((c) => a.sim.getLod(c).level === 'path')).toBe(true)

    // world snapshot mid-run, restored into the same sim later: the continuation repeats bit for bit
    const snap = JSON.parse(JSON.stringify(snapshotWorld(a.sim)))
    a.sim.stepMany(DT, 300)
    const end = stateNumbers(a.sim, a.cars, a.lidars)
    restoreWorld(a.sim, snap)
    a.sim.stepMany(DT, 300)
    expect(firstDifference(stateNumbers(a.sim, a.cars, a.lidars), end)).toBe(-1)

    // a replay recorded under the controller plays back exactly in a fresh sim without one
    const { sim, cars, lidars } = buildScene({ cars: 8, levelOf: () => 'singleTrack' })
    new LodController(sim, { singleTrackBeyond: 20, pathBeyond: 50, frozenBeyond: Infinity, hysteresis: 5, singleTrackHz: 240 }).install({ focus: cars[0] })
    const rec = createReplayRecorder(sim, { keyframeEvery: 200 })
    const levels = new Set<string>()
    for (let k = 0; k < 480; k++) { sim.step(DT); for (const c of cars) levels.add(sim.getLod(c).level) }
    expect(levels.has('path')).toBe(true)
    const final = stateNumbers(sim, cars, lidars)
    const data = JSON.parse(JSON.stringify(rec.save())) as ReplayData
    const other = buildScene({ cars: 8, levelOf: () => 'singleTrack' })
    const player = createReplayPlayer(other.sim, data)
    player.seek(480)
    expect(firstDifference(stateNumbers(other.sim, other.cars, other.lidars), final)).toBe(-1)
    player.seek(150)
    player.advance(330)
    expect(firstDifference(stateNumbers(other.sim, other.cars, other.lidars), final)).toBe(-1)
  })
})

