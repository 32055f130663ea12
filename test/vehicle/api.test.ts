// The vehicle API as a user calls it: addCar, inputs, state, errors, removal, poses, surfaces, host dt.
import { describe, expect, it } from 'vitest'
import { removeEntity } from 'bitecs'
import { presets, surfaceGrid, surfaces, type CarDefinition } from '../../src/index'
import { makeSim } from './helpers'

const json = (v: unknown) => JSON.stringify(v)

describe('vehicle API', () => {
  it('a new car starts in neutral with no input, at rest or rolling at the speed asked', () => {
    const sim = makeSim()
    const car = sim.addCar({ position: [3, 4], heading: 0.5, speed: 12 })
    expect(sim.getInput(car)).toEqual({ steer: 0, throttle: 0, brake: 0, handbrake: 0, clutch: 0, gear: 0 })
    const s = sim.carState(car)
    expect(s.gear).toBe(0)
    expect(s.level).toBe('full')
    expect(s.model).toBe('fourWheel')
    expect(s.speed).toBe(12)
    expect(s.position.slice(0, 2)).toEqual([3, 4])
    expect(s.velocity[0]).toBeCloseTo(12 * Math.cos(0.5), 12)
    for (const w of s.wheelSpeeds) expect(w).toBeCloseTo(12 / presets.hatchback.wheelRadius, 12)
    expect(s.engineRpm).toBeCloseTo(presets.hatchback.engine.idleRpm, 9)
    expect(sim.getLod(car)).toEqual({ level: 'full', hz: 1000 })
    const st = sim.addCar({ lod: 'singleTrack' })
    expect(sim.getLod(st)).toEqual({ level: 'singleTrack', hz: 500 })
    expect(sim.components.Car.wheelbase[car]).toBe(presets.hatchback.wheelbase)
    expect(sim.components.Car.maxSteer[car]).toBe(presets.hatchback.maxSteer)
  })

  it('setInput validates every field first, clamps finite values, and sets only what it is given', () => {
    const sim = makeSim()
    const car = sim.addCar()
    sim.setInput(car, { throttle: 0.5, gear: 1 })
    const before = sim.getInput(car)
    expect(() => sim.setInput(car, { steer: 0.2, throttle: NaN })).toThrow(RangeError)
    expect(() => sim.setInput(car, { steer: 0.2, throttle: NaN })).toThrow(/input\.throttle/)
    expect(() => sim.setInput(car, { brake: Infinity })).toThrow(/input\.brake must be finite/)
    expect(() => sim.setInput(car, { steer: 0.3, gear: 1.5 })).toThrow(/input\.gear must be an integer/)
    expect(() => sim.setInput(car, { clutch: '1' as any })).toThrow(TypeError)
    expect(() => sim.setInput(car, { steering: 1 } as any)).toThrow(/input\.steering is not an input field/)
    expect(() => sim.setInput(car, null as any)).toThrow(TypeError)
    expect(sim.getInput(car)).toEqual(before)
    sim.setInput(car, { steer: 5, throttle: -1, brake: 2, handbrake: 0.5, clutch: 9, gear: 99 })
    expect(sim.getInput(car)).toEqual({ steer: 1, throttle: 0, brake: 1, handbrake: 0.5, clutch: 1, gear: 7 })
    sim.setInput(car, { gear: -5, steer: -3 })
    expect(sim.getInput(car)).toMatchObject({ gear: -1, steer: -1, brake: 1 })
  })

  it('every per-car call refuses an entity that is not a car', () => {
    const sim = makeSim()
    const car = sim.addCar()
    const ball = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [20, 0, 1] })
    const calls: [string, (eid: any) => unknown][] = [
      ['setInput', (e) => sim.setInput(e, { throttle: 1 })],
      ['getInput', (e) => sim.getInput(e)],
      ['carState', (e) => sim.carState(e)],
      ['setLod', (e) => sim.setLod(e, 'frozen')],
      ['getLod', (e) => sim.getLod(e)],
      ['snapshot', (e) => sim.snapshot(e)],
      ['restore', (e) => sim.restore(e, sim.snapshot(car))],
    ]
    for (const [name, f] of calls) {
      expect(() => f(ball), name).toThrow(/is not a car/)
      expect(() => f(sim.ground), name).toThrow(/is not a car/)
      expect(() => f(9999), name).toThrow(/not a live entity/)
      expect(() => f('1'), name).toThrow(TypeError)
      expect(() => f(-1), name).toThrow(RangeError)
    }
  })

  it('addCar refuses a bad definition or option by name and creates nothing', () => {
    const sim = makeSim()
    const first = sim.addCar()
    sim.remove(first)
    const bad = (options: any, pattern: RegExp) => expect(() => sim.addCar(options)).toThrow(pattern)
    bad({ definition: { ...presets.hatchback, mass: -1 } }, /options\.definition\.mass must be in/)
    bad({ definition: { ...presets.hatchback, mass: '1200' } }, /options\.definition\.mass must be a number/)
    bad({ definition: { ...presets.hatchback, cgToFront: 3 } }, /options\.definition\.cgToFront/)
    bad({ definition: { ...presets.hatchback, drive: 'both' } }, /options\.definition\.drive must be one of/)
    bad({ definition: { ...presets.hatchback, tyre: { ...presets.hatchback.tyre, mu: NaN } } }, /options\.definition\.tyre\.mu must be finite/)
    bad({ definition: { ...presets.hatchback, engine: { ...presets.hatchback.engine, torqueCurve: [[1000, 100], [900, 120]] } } }, /options\.definition\.engine\.torqueCurve\[1\]/)
    bad({ definition: { ...presets.hatchback, gearbox: { ...presets.hatchback.gearbox, ratios: [3, -1] } } }, /options\.definition\.gearbox\.ratios\[1\]/)
    bad({ definition: { ...presets.hatchback, brakes: undefined } }, /options\.definition\.brakes must be an object/)
    bad({ position: [1, NaN] }, /options\.position\[1\]/)
    bad({ position: [1] }, /options\.position/)
    bad({ heading: Infinity }, /options\.heading/)
    bad({ speed: 'fast' }, /options\.speed/)
    bad({ lod: 'medium' }, /options\.lod/)
    bad(42, /options must be an object/)
    // nothing was created: the next car gets the same recycled id
    expect(sim.addCar()).toBe(first)
    const heavy: CarDefinition = { ...presets.van, mass: 2600 }
    expect(sim.carState(sim.addCar({ definition: heavy })).model).toBe('fourWheel')
  })

  it('each car has a chassis box collider that rays see, that follows it, and that goes with it', () => {
    const sim = makeSim()
    const car = sim.addCar({ position: [10, 0], speed: 15 })
    const down = [0, 0, -1]
    let hit = sim.rayTest([10, 0, 5], down, 10)
    expect(hit.size()).toBe(1)
    expect(hit.at(0)!.object).toBe(car)
    expect(hit.at(0)!.localId).toBe(0)
    expect(hit.at(0)!.position[2]).toBeCloseTo(presets.hatchback.height, 6)
    sim.setInput(car, { gear: 1, throttle: 0.3 })
    sim.stepMany(1 / 60, 60)
    const p = sim.carState(car).position
    expect(sim.rayTest([p[0], p[1], 5], down, 10).at(0)!.object).toBe(car)
    expect(sim.rayTest([10, 0, 5], down, 10).at(0)!.object).toBe(sim.ground)
    // a frozen car is still hit
    sim.setLod(car, 'frozen')
    sim.stepMany(1 / 60, 10)
    expect(sim.rayTest([p[0], p[1], 5], down, 10).at(0)!.object).toBe(car)
    const collider = sim.components.Car.collider[car]
    sim.remove(car)
    expect(sim.rayTest([p[0], p[1], 5], down, 10).at(0)!.object).toBe(sim.ground)
    expect(() => sim.carState(car)).toThrow()
    expect(() => sim.setPose(collider, [0, 0, 0])).toThrow()
    // a raw removeEntity does the same
    const other = sim.addCar({ position: [-20, 0] })
    const oc = sim.components.Car.collider[other]
    expect(sim.rayTest([-20, 0, 5], down, 10).at(0)!.object).toBe(other)
    removeEntity(sim.world, other)
    expect(sim.rayTest([-20, 0, 5], down, 10).at(0)!.object).toBe(sim.ground)
    expect(() => sim.setPose(oc, [0, 0, 0])).toThrow()
    // removing only the chassis collider leaves a car that still drives
    const third = sim.addCar({ position: [40, 0] })
    sim.remove(sim.components.Car.collider[third])
    expect(sim.components.Car.collider[third]).toBe(-1)
    sim.setInput(third, { gear: 1, throttle: 1 })
    sim.stepMany(1 / 60, 30)
    expect(sim.carState(third).speed).toBeGreaterThan(1)
  })

  it('setPose teleports a car: position, heading from the rotation, velocity kept in its own frame', () => {
    const sim = makeSim()
    const car = sim.addCar({ speed: 10 })
    const yaw = Math.PI / 2
    sim.setPose(car, [50, -20, 7], [Math.cos(yaw), -Math.sin(yaw), 0, Math.sin(yaw), Math.cos(yaw), 0, 0, 0, 1])
    let s = sim.carState(car)
    expect(s.position[0]).toBe(50)
    expect(s.position[1]).toBe(-20)
    expect(s.heading).toBeCloseTo(yaw, 12)
    expect(s.velocity[0]).toBeCloseTo(0, 9)
    expect(s.velocity[1]).toBeCloseTo(10, 9)
    expect(sim.rayTest([50, -20, 5], [0, 0, -1], 10).at(0)!.object).toBe(car)
    // quaternion [x, y, z, w] for a heading of -0.3
    sim.setPose(car, [0, 0], [0, 0, Math.sin(-0.15), Math.cos(-0.15)])
    s = sim.carState(car)
    expect(s.heading).toBeCloseTo(-0.3, 12)
    expect(() => sim.setPose(car, [0, 0], [1, 2, 3])).toThrow(/rotation/)
    expect(() => sim.setPose(car, [NaN, 0])).toThrow(/position/)
    expect(sim.carState(car).heading).toBeCloseTo(-0.3, 12)
  })

  it('any host dt works: the car keeps its own substep clock, and no time is lost or gained', () => {
    const run = (dts: number[]) => {
      const sim = makeSim()
      const car = sim.addCar({ speed: 8 })
      sim.setInput(car, { gear: 1, throttle: 0.6, steer: 0.2 })
      for (const dt of dts) sim.step(dt)
      return { time: sim.carState(car).time, snap: sim.snapshot(car) }
    }
    const a = run(Array(60).fill(1 / 60))
    const b = run(Array(144).fill(1 / 144))
    let rest = 1
    const vary: number[] = []
    let k = 1
    while (rest > 1e-12) { const dt = Math.min(rest, ((k * 7919) % 23 + 3) / 1000); vary.push(dt); rest -= dt; k++ }
    const c = run(vary)
    for (const r of [a, b, c]) expect(r.time).toBeCloseTo(1, 9)
    // the same 1000 substeps with the same input: the same bits
    const strip = (s: any) => json({ ...s, state: { ...s.state, acc: 0 } })
    expect(strip(b.snap)).toBe(strip(a.snap))
    expect(strip(c.snap)).toBe(strip(a.snap))
    // a 1 Hz host step is fine too
    const slow = makeSim()
    const car = slow.addCar()
    slow.setInput(car, { gear: 1, throttle: 1 })
    slow.step(1)
    slow.step(1)
    expect(slow.carState(car).time).toBeCloseTo(2, 9)
    expect(slow.carState(car).speed).toBeGreaterThan(5)
  })

  it('surfaces: built-ins, a painted grid with O(1) lookup, and per-wheel grip (split-μ braking yaws)', () => {
    const grid = surfaceGrid({ origin: [-100, -100], cellSize: 1, columns: 400, rows: 200, palette: [surfaces.tarmac, surfaces.ice] })
    expect(grid.surfaceAt(0, 0)).toBe(surfaces.tarmac)
    // paint y > 0 (the car's left) with ice from x = 0 on
    for (let x = 0; x < 300; x++) for (let y = 0; y < 100; y++) grid.paint(x + 0.5, y + 0.5, 1)
    expect(grid.surfaceAt(10.2, 3.7)).toBe(surfaces.ice)
    expect(grid.surfaceAt(10.2, -3.7)).toBe(surfaces.tarmac)
    expect(grid.surfaceAt(1e6, 0)).toBe(surfaces.tarmac)
    expect(() => surfaceGrid({ origin: [0, 0], cellSize: 0, columns: 1, rows: 1, palette: [surfaces.tarmac] })).toThrow(/options\.cellSize/)
    expect(() => surfaceGrid({ origin: [0, 0], cellSize: 1, columns: 2, rows: 1, palette: [surfaces.tarmac], cells: [0, 3] })).toThrow(/options\.cells\[1\]/)
    expect(() => grid.paint(0, 0, 5)).toThrow(/index/)
    const brakeSplit = (map?: typeof grid) => {
      const sim = makeSim(map ? { surfaces: map } : undefined)
      const car = sim.addCar({ position: [5, 0], speed: 20 })
      sim.setInput(car, { brake: 1 })
      sim.stepMany(1 / 60, 60)
      return sim.carState(car)
    }
    const even = brakeSplit()
    const split = brakeSplit(grid)
    expect(Math.abs(even.heading)).toBeLessThan(1e-9)
    // more braking force on the right (tarmac) side: the car yaws right
    expect(split.heading).toBeLessThan(-0.02)
    expect(split.speed).toBeGreaterThan(even.speed)
    expect(() => makeSim({ surfaces: {} as any })).toThrow(/surfaces/)
  })

  it('stepMany is bit-identical to repeated step', () => {
    const mk = () => {
      const sim = makeSim()
      const a = sim.addCar({ speed: 10 })
      const b = sim.addCar({ position: [0, 20], lod: 'singleTrack', definition: presets.sportsCar })
      sim.setInput(a, { gear: 1, throttle: 0.7, steer: 0.3 })
      sim.setInput(b, { gear: 1, throttle: 1 })
      return { sim, a, b }
    }
    const x = mk()
    const y = mk()
    for (let i = 0; i < 120; i++) x.sim.step(1 / 60)
    y.sim.stepMany(1 / 60, 120)
    expect(json(x.sim.snapshot(x.a))).toBe(json(y.sim.snapshot(y.a)))
    expect(json(x.sim.snapshot(x.b))).toBe(json(y.sim.snapshot(y.b)))
  })
})

describe('vehicle API bounds', () => {
  it('refuses an absurd start speed and bounds the work of a huge host step', () => {
    const sim = makeSim()
    expect(() => sim.addCar({ speed: 1e9 })).toThrow(/options\.speed must be in/)
    const car = sim.addCar({ speed: 20 })
    const t0 = performance.now()
    sim.step(1e308)
    expect(performance.now() - t0).toBeLessThan(2000)
    const s = sim.carState(car)
    expect(s.time).toBeCloseTo(10, 9)
    for (const v of [...s.position, ...s.velocity, s.yawRate, ...s.wheelSpeeds]) expect(Number.isFinite(v)).toBe(true)
  })
})

describe('a definition whose full model is single-track', () => {
  it('runs single-track at its own rate at level full, and its snapshots restore at full', () => {
    const sim = makeSim()
    const car = sim.addCar({ definition: { ...presets.hatchback, model: 'singleTrack', hz: 300 }, speed: 10 })
    expect(sim.getLod(car)).toEqual({ level: 'full', hz: 300 })
    expect(sim.carState(car).model).toBe('singleTrack')
    sim.setInput(car, { gear: 1, throttle: 0.5 })
    sim.stepMany(1 / 60, 60)
    expect(sim.carState(car).time).toBeCloseTo(1, 9)
    const snap = JSON.parse(JSON.stringify(sim.snapshot(car)))
    sim.setLod(car, 'singleTrack', 240)
    expect(sim.getLod(car)).toEqual({ level: 'singleTrack', hz: 240 })
    sim.restore(car, snap)
    expect(sim.getLod(car)).toEqual({ level: 'full', hz: 300 })
    // a four-wheel snapshot at full cannot fit it
    const other = sim.addCar()
    const fw = JSON.parse(JSON.stringify(sim.snapshot(other)))
    expect(() => sim.restore(car, fw)).toThrow(/snapshot\.model/)
  })
})
