// Levels of detail of one car: model switches, frozen cars, snapshots.
import { describe, expect, it } from 'vitest'
import type { Sim } from '../../src/index'
import { makeSim } from './helpers'

/** One host step of a steady corner at `speed` (P-controlled throttle, fixed steer). */
function cornerStep(sim: Sim, car: number, speed: number, steer: number): void {
  const ev = speed - sim.carState(car).speed
  sim.setInput(car, { gear: 1, steer, throttle: Math.max(0, Math.min(1, 0.8 * ev + 0.25)), brake: Math.max(0, Math.min(1, -0.5 * ev)) })
  sim.step(1 / 60)
}

const json = (v: unknown) => JSON.stringify(v)

describe('levels of detail', () => {
  it('full → singleTrack → full at 25 m/s in a steady corner: speed < 0.5%, yaw rate < 3% across each switch; roll settles in 0.5 s', () => {
    const sim = makeSim()
    const car = sim.addCar({ speed: 25 })
    for (let i = 0; i < 480; i++) cornerStep(sim, car, 25, 0.07)
    const steady = sim.carState(car)
    expect(steady.yawRate).toBeGreaterThan(0.15)
    expect(steady.roll).toBeGreaterThan(0.01)
    const worst = { speed: 0, yaw: 0 }
    let drift = 0
    const across = (level: 'full' | 'singleTrack') => {
      const before = sim.carState(car)
      sim.setLod(car, level)
      const now = sim.carState(car)
      expect(now.speed).toBe(before.speed)
      expect(now.yawRate).toBe(before.yawRate)
      // across the switch = the next 0.1 s against the state just before it; later the car drifts
      // towards the other model's own steady state (they differ by ≈2% here, see models.test.ts)
      for (let i = 0; i < 15; i++) {
        cornerStep(sim, car, 25, 0.07)
        const s = sim.carState(car)
        const ds = Math.abs(s.speed / before.speed - 1)
        const dy = Math.abs(s.yawRate / before.yawRate - 1)
        if (i < 6) { worst.speed = Math.max(worst.speed, ds); worst.yaw = Math.max(worst.yaw, dy) }
        drift = Math.max(drift, dy)
      }
    }
    across('singleTrack')
    expect(sim.getLod(car)).toEqual({ level: 'singleTrack', hz: 500 })
    expect(sim.carState(car).roll).toBe(0)
    for (let i = 0; i < 120; i++) cornerStep(sim, car, 25, 0.07)
    across('full')
    expect(sim.getLod(car)).toEqual({ level: 'full', hz: 1000 })
    console.log(`LOD switches at 25 m/s: worst speed change ${(worst.speed * 100).toFixed(3)}%, worst yaw-rate change ${(worst.yaw * 100).toFixed(2)}% (0.1 s after each switch; ${(drift * 100).toFixed(2)}% within 0.25 s)`)
    expect(worst.speed).toBeLessThan(0.005)
    expect(worst.yaw).toBeLessThan(0.03)
    // 0.25 s have passed since going up; at 0.5 s the roll is within 10% of its steady value
    for (let i = 0; i < 15; i++) cornerStep(sim, car, 25, 0.07)
    const rollAtHalf = sim.carState(car).roll
    for (let i = 0; i < 120; i++) cornerStep(sim, car, 25, 0.07)
    const rollSteady = sim.carState(car).roll
    console.log(`roll after going up: ${rollAtHalf.toFixed(4)} at 0.5 s, steady ${rollSteady.toFixed(4)}`)
    expect(Math.abs(rollAtHalf / rollSteady - 1)).toBeLessThan(0.1)
    expect(Math.abs(rollSteady / steady.roll - 1)).toBeLessThan(0.05)
  })

  it('wheel speeds, gear, engine, clock and accumulator survive a round trip', () => {
    const sim = makeSim()
    const car = sim.addCar({ speed: 20 })
    for (let i = 0; i < 200; i++) cornerStep(sim, car, 25, 0.05)
    const before = sim.carState(car)
    const acc = sim.components.Car.acc[car]
    sim.setLod(car, 'singleTrack', 240)
    sim.setLod(car, 'full')
    const after = sim.carState(car)
    expect(after.gear).toBe(before.gear)
    expect(after.gear).toBeGreaterThan(1)
    expect(after.engineRpm).toBe(before.engineRpm)
    expect(after.time).toBe(before.time)
    expect(sim.components.Car.acc[car]).toBeCloseTo(acc, 12)
    for (let i = 0; i < 4; i++) expect(Math.abs(after.wheelSpeeds[i] / before.wheelSpeeds[i] - 1)).toBeLessThan(0.005)
  })

  it('a frozen car keeps its state, ignores inputs, and resumes bit-identically', () => {
    const run = (freeze: boolean) => {
      const sim = makeSim()
      const car = sim.addCar({ speed: 12, heading: 0.3 })
      const other = sim.addCar({ position: [0, 30], speed: 5, lod: 'singleTrack' })
      sim.setInput(other, { gear: 1, throttle: 0.3 })
      for (let i = 0; i < 90; i++) cornerStep(sim, car, 15, 0.1)
      if (freeze) {
        sim.setLod(car, 'frozen')
        const snap = json(sim.snapshot(car))
        sim.setInput(car, { throttle: 1, steer: -1 })
        sim.stepMany(1 / 60, 100)
        const frozen = sim.snapshot(car) as any
        expect(frozen.level).toBe('frozen')
        frozen.level = 'full'
        frozen.input = JSON.parse(snap).input
        expect(json(frozen)).toBe(snap.replace('"level":"frozen"', '"level":"full"'))
        sim.setInput(car, JSON.parse(snap).input)
        sim.setLod(car, 'full')
      }
      for (let i = 0; i < 90; i++) cornerStep(sim, car, 15, 0.1)
      return { car: json(sim.snapshot(car)) }
    }
    const a = run(true)
    const b = run(false)
    // the frozen car's clock stopped while frozen: it matches a car that never paused
    expect(a.car).toBe(b.car)
  })

  it('snapshots round-trip exactly through JSON, -0 included, and record their model', () => {
    const sim = makeSim()
    const car = sim.addCar({ speed: 10 })
    sim.setInput(car, { steer: -0, gear: 1, throttle: 0.4 })
    sim.stepMany(1 / 60, 37)
    const snap = sim.snapshot(car)
    expect(snap.input.steer).toBe('-0')
    const text = JSON.stringify(snap)
    sim.stepMany(1 / 60, 50)
    const later = json(sim.snapshot(car))
    sim.restore(car, JSON.parse(text))
    expect(json(sim.snapshot(car))).toBe(text)
    expect(Object.is(sim.getInput(car).steer, -0)).toBe(true)
    sim.stepMany(1 / 60, 50)
    expect(json(sim.snapshot(car))).toBe(later)
    // into another car of another sim: the same future
    const sim2 = makeSim()
    const car2 = sim2.addCar()
    sim2.restore(car2, JSON.parse(text))
    sim2.stepMany(1 / 60, 50)
    expect(json(sim2.snapshot(car2))).toBe(later)
    // a single-track snapshot drops a full car to singleTrack, and back
    sim.setLod(car, 'singleTrack', 300)
    const st = JSON.parse(JSON.stringify(sim.snapshot(car)))
    expect(st.model).toBe('singleTrack')
    sim2.restore(car2, st)
    expect(sim2.getLod(car2)).toEqual({ level: 'singleTrack', hz: 300 })
    sim2.restore(car2, JSON.parse(text))
    expect(sim2.getLod(car2)).toEqual({ level: 'full', hz: 1000 })
    expect(sim2.carState(car2).model).toBe('fourWheel')
  })

  it('refuses hostile or malformed snapshots with a clear error, leaving the car untouched', () => {
    const sim = makeSim()
    const car = sim.addCar({ speed: 10 })
    sim.stepMany(1 / 60, 10)
    const good = JSON.stringify(sim.snapshot(car))
    sim.stepMany(1 / 60, 10)
    const before = json(sim.snapshot(car))
    const bad = (edit: (s: any) => unknown, pattern: RegExp) => {
      const s = JSON.parse(good)
      const r = edit(s)
      expect(() => sim.restore(car, r === undefined ? s : r)).toThrow(pattern)
      expect(json(sim.snapshot(car))).toBe(before)
    }
    bad(() => null, /snapshot must be an object/)
    bad(() => 'x', /snapshot must be an object/)
    bad(() => [], /snapshot must be an object/)
    bad((s) => { s.format = 'pitlane.world' }, /snapshot\.format/)
    bad((s) => { s.version = 2 }, /snapshot\.version/)
    bad((s) => { s.model = 'tank' }, /snapshot\.model/)
    bad((s) => { s.level = 'turbo' }, /snapshot\.level/)
    bad((s) => { s.level = 'singleTrack' }, /snapshot\.model/)
    bad((s) => { s.hz = 1e9 }, /snapshot\.hz/)
    bad((s) => { s.hz = '-0' }, /snapshot\.hz/)
    bad((s) => { delete s.state.vx }, /snapshot\.state\.vx is missing/)
    bad((s) => { s.state.vx = null }, /snapshot\.state\.vx/)
    bad((s) => { s.state.vx = '12' }, /snapshot\.state\.vx/)
    bad((s) => { s.state.x = 1e400 }, /snapshot\.state\.x must be finite/)
    bad((s) => { s.state.acc = 7 }, /snapshot\.state\.acc/)
    bad((s) => { s.state.wheelSpeed = [1, 2, 3] }, /wheelSpeed/)
    bad((s) => { s.state.wheelSpeed[2] = 'NaN' }, /wheelSpeed\[2\]/)
    bad((s) => { s.state.gearActual = 1.5 }, /gearActual/)
    bad((s) => { s.state.gearActual = 99 }, /gearActual/)
    bad((s) => { s.input.steer = 3 }, /snapshot\.input\.steer/)
    bad((s) => { s.input.gear = -2 }, /snapshot\.input\.gear/)
    bad((s) => { s.input = JSON.parse('{"__proto__": {"steer": 0}}') }, /snapshot\.input\.steer is missing/)
    bad((s) => { Object.setPrototypeOf(s.state, { vx: 1 }); delete s.state.vx }, /snapshot\.state\.vx is missing/)
    // __proto__ keys are ignored: a snapshot carrying one restores normally and pollutes nothing
    const withProto = JSON.parse(good.replace('"state":{', '"state":{"__proto__":{"polluted":1},'))
    sim.restore(car, withProto)
    expect(({} as any).polluted).toBeUndefined()
    expect(json(sim.snapshot(car))).toBe(good)
  })

  it('setLod refuses an unknown level, a bad hz or a non-car, changing nothing', () => {
    const sim = makeSim()
    const car = sim.addCar()
    const wall = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [5, 5, 1] })
    expect(() => sim.setLod(car, 'medium' as any)).toThrow(RangeError)
    expect(() => sim.setLod(car, 'singleTrack', 0)).toThrow(/hz/)
    expect(() => sim.setLod(car, 'singleTrack', NaN)).toThrow(/hz/)
    expect(() => sim.setLod(car, 'singleTrack', 1e7)).toThrow(/hz/)
    expect(() => sim.setLod(car, 'singleTrack', '240' as any)).toThrow(TypeError)
    expect(() => sim.setLod(wall, 'singleTrack')).toThrow(/not a car/)
    expect(() => sim.setLod(12345, 'singleTrack')).toThrow(/not a live entity/)
    expect(() => sim.getLod(wall)).toThrow(/not a car/)
    expect(sim.getLod(car)).toEqual({ level: 'full', hz: 1000 })
  })
})
