// Traffic (setAi traffic: 'avoid'): the options, following with width 0, a stopped car or an
// obstacle on the line (passed or queued behind), a lone car's lap, and determinism.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { box, createSim, restoreWorld, smoothClosedPath, snapshotWorld, type Sim } from '../../src/index'
import { slotOnPath } from '../grid'
import { CIRCUIT_1200, field, overlapping } from './traffic-field'
import { decodeF64, encodeF64 } from '../../src/replay/codec'

/** A sim with one driven car at slot 0 (of 100) and whatever `more` adds. */
function pair(ai: Record<string, unknown>, more: (sim: Sim) => number): { sim: Sim; car: number; other: number } {
  const sim = createSim(createWorld())
  const a = slotOnPath(CIRCUIT_1200, 0, 100)
  const car = sim.addCar({ position: [a.x, a.y], heading: a.heading, speed: 10, lod: 'singleTrack' })
  sim.setLod(car, 'singleTrack', 120)
  sim.setInput(car, { gear: 1 })
  sim.setAi(car, CIRCUIT_1200, { closed: true, maxSpeed: 25, ...ai })
  return { sim, car, other: more(sim) }
}

/** A car (no driver unless `driven`) standing at slot `slot` of 100. */
function standing(sim: Sim, slot: number, frozen = false): number {
  const b = slotOnPath(CIRCUIT_1200, slot, 100)
  const car = sim.addCar({ position: [b.x, b.y], heading: b.heading, speed: 0, lod: 'singleTrack' })
  if (frozen) { sim.setAi(car, CIRCUIT_1200, { closed: true, traffic: 'ignore' }); sim.setLod(car, 'frozen') }
  return car
}

/** Runs `seconds`, checking overlaps at 20 Hz; returns the count and the least speed of `car` after `settle` s. */
function drive(sim: Sim, cars: number[], car: number, seconds: number, settle = 3): { overlaps: number; minSpeed: number } {
  let overlaps = 0, minSpeed = Infinity
  for (let k = 0; k < seconds * 20; k++) {
    sim.stepMany(1 / 60, 3)
    overlaps += overlapping(sim, cars).length
    if (k >= settle * 20) minSpeed = Math.min(minSpeed, sim.components.Car.speed[car])
  }
  return { overlaps, minSpeed }
}

describe('traffic options', () => {
  it('defaults: avoid, width 0, gap 0.8, aggression 0.5, obstacleMask 0; aiStatus has ahead, gap, passing', () => {
    const { sim, car } = pair({}, () => -1)
    expect(sim.internal.drivers.paths[car]!.options).toMatchObject({ traffic: 'avoid', width: [0, 0], gap: 0.8, aggression: 0.5, obstacleMask: 0 })
    sim.step(1 / 60)
    expect(sim.aiStatus(car)).toMatchObject({ ahead: -1, gap: Infinity, passing: false })
    sim.setAi(car, CIRCUIT_1200, { closed: true, width: [1, 2.5] })
    expect(sim.internal.drivers.paths[car]!.options.width).toEqual([1, 2.5])
  })

  it('bad values are refused naming the option, and change nothing', () => {
    const { sim, car } = pair({ width: 2 }, () => -1)
    const before = sim.internal.drivers.paths[car]
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ traffic: 'swerve' }, /options\.traffic/], [{ traffic: true }, /options\.traffic/],
      [{ width: -1 }, /options\.width/], [{ width: Infinity }, /options\.width/], [{ width: [1] }, /options\.width/], [{ width: [1, -2] }, /options\.width\[1\]/],
      [{ width: 'wide' }, /options\.width/], [{ gap: -0.1 }, /options\.gap/], [{ gap: NaN }, /options\.gap/], [{ aggression: 1.5 }, /options\.aggression/],
      [{ aggression: -1 }, /options\.aggression/], [{ obstacleMask: 1.5 }, /options\.obstacleMask/], [{ obstacleMask: -1 }, /options\.obstacleMask/],
      [{ lanes: 2 }, /lanes/],
    ]
    for (const [options, message] of bad) {
      expect(() => sim.setAi(car, CIRCUIT_1200, { closed: true, ...options } as never)).toThrow(message)
      let kind: string | undefined
      try { sim.setAi(car, CIRCUIT_1200, { closed: true, ...options } as never) } catch (e) { kind = (e as Error).constructor.name }
      expect(['RangeError', 'TypeError']).toContain(kind)
    }
    expect(() => sim.setAi(car, CIRCUIT_1200, { closed: true, traffic: 'swerve' } as never)).toThrow(RangeError)
    expect(() => sim.setAi(car, CIRCUIT_1200, { closed: true, aggression: 2 })).toThrow(RangeError)
    expect(sim.internal.drivers.paths[car]).toBe(before)
  })
})

describe('following and obstacles', () => {
  it('width 0: a faster car follows a slower one at its gap, without overlapping, stopping or passing', () => {
    const { sim, car, other } = pair({ maxSpeed: 30 }, (s) => {
      const b = slotOnPath(CIRCUIT_1200, 6, 100)
      const slow = s.addCar({ position: [b.x, b.y], heading: b.heading, speed: 10, lod: 'singleTrack' })
      s.setLod(slow, 'singleTrack', 120)
      s.setInput(slow, { gear: 1 })
      s.setAi(slow, CIRCUIT_1200, { closed: true, maxSpeed: 14 })
      return slow
    })
    const r = drive(sim, [car, other], car, 90)
    expect(r.overlaps).toBe(0)
    expect(r.minSpeed).toBeGreaterThan(5)
    const st = sim.aiStatus(car)!
    expect(st.ahead).toBe(other)
    expect(st.passing).toBe(false)
    // it caught up (the slower car started ~72 m ahead) and holds about gap × its speed (+ the standstill gap)
    const v = sim.components.Car.speed[car]
    expect(st.gap).toBeGreaterThan(0.8 * v)
    expect(st.gap).toBeLessThan(0.8 * v + 8)
    expect(st.distance).toBeLessThan(sim.aiStatus(other)!.distance + 72)
  })

  for (const frozen of [false, true]) {
    it(`a stopped ${frozen ? 'frozen driven' : 'parked'} car on the line is passed with width 4 and queued behind with width 0`, () => {
      for (const width of [4, 0]) {
        const { sim, car, other } = pair({ width }, (s) => standing(s, 8, frozen))
        const r = drive(sim, [car, other], car, width ? 25 : 20, 25)
        expect(r.overlaps).toBe(0)
        const st = sim.aiStatus(car)!
        const stopAt = 0.08 * sim.aiPath(car)!.length
        if (width) {
          expect(st.distance).toBeGreaterThan(stopAt + 50)
          expect(Math.abs(st.lateralError)).toBeLessThan(0.5) // back on its line
        } else {
          expect(sim.components.Car.speed[car]).toBeLessThan(0.3)
          expect(st.ahead).toBe(other)
          expect(st.gap).toBeGreaterThan(1)
          expect(st.gap).toBeLessThan(4)
        }
      }
    })
  }

  it('a car standing close behind a stopped car (a grid slot) pulls out round it and passes, touching nothing', () => {
    for (const bumperGap of [3.6, 6]) {
      const sim = createSim(createWorld())
      const b = slotOnPath(CIRCUIT_1200, 100, 1000)
      const stopped = sim.addCar({ position: [b.x, b.y], heading: b.heading, speed: 0, lod: 'singleTrack' })
      const back = bumperGap + 4.053 // (the hatchback's length)
      const car = sim.addCar({ position: [b.x - Math.cos(b.heading) * back, b.y - Math.sin(b.heading) * back], heading: b.heading, speed: 0, lod: 'singleTrack' })
      sim.setInput(car, { gear: 1 })
      sim.setAi(car, CIRCUIT_1200, { closed: true, maxSpeed: 25, width: 4 })
      const r = drive(sim, [car, stopped], car, 20, 20)
      expect(r.overlaps).toBe(0)
      expect(sim.aiStatus(car)!.distance).toBeGreaterThan(100)
    }
  })

  it('a collider of a group in obstacleMask on its line stops it; with the default mask it is not an obstacle', () => {
    for (const mask of [2, 0]) {
      const { sim, car, other } = pair({ obstacleMask: mask }, (s) => {
        const b = slotOnPath(CIRCUIT_1200, 8, 100)
        return s.addCollider(box(1, 1, 1), { position: [b.x, b.y, 1], group: 2 })
      })
      for (let k = 0; k < 20 * 60; k++) sim.step(1 / 60)
      const st = sim.aiStatus(car)!, stopAt = 0.08 * sim.aiPath(car)!.length
      if (mask) {
        expect(sim.components.Car.speed[car]).toBeLessThan(0.3)
        expect(st.ahead).toBe(other)
        expect(st.distance).toBeLessThan(stopAt - 2)
        expect(st.distance).toBeGreaterThan(stopAt - 10)
      } else expect(st.distance).toBeGreaterThan(stopAt + 50)
    }
  })

  it("a lone car's lap with 'avoid' is within 1% of 'ignore' (nothing to avoid: the same)", () => {
    const lap = (traffic: string) => {
      const { sim, car } = pair({ traffic }, () => -1)
      let t = 0
      while (sim.aiStatus(car)!.laps < 1) { sim.step(1 / 60); t += 1 / 60 }
      return t
    }
    const avoid = lap('avoid'), ignore = lap('ignore')
    expect(Math.abs(avoid / ignore - 1)).toBeLessThan(0.01)
  })
})

describe('determinism', () => {
  const maxSpeed = (i: number) => 16 + ((i * 5) % 8) * 3
  const xs = (sim: Sim, cars: number[]) => cars.flatMap((c) => [sim.components.Car.x[c], sim.components.Car.y[c], sim.aiStatus(c)!.distance])

  it('stepMany and step give the same race, bit for bit', () => {
    const a = field({ count: 8, level: 'singleTrack', hz: 120, maxSpeed, ai: { width: 4 }, spread: 0.3 })
    const b = field({ count: 8, level: 'singleTrack', hz: 120, maxSpeed, ai: { width: 4 }, spread: 0.3 })
    a.sim.stepMany(1 / 60, 1200)
    for (let k = 0; k < 1200; k++) b.sim.step(1 / 60)
    expect(xs(b.sim, b.cars)).toEqual(xs(a.sim, a.cars))
    expect(a.cars.some((c) => a.sim.aiStatus(c)!.ahead >= 0)).toBe(true)
  })

  it('a world snapshot restored (into the same sim or a new one) runs the same race', () => {
    const a = field({ count: 8, level: 'singleTrack', hz: 120, maxSpeed, ai: { width: 4 }, spread: 0.3 })
    a.sim.stepMany(1 / 60, 600)
    const snap = JSON.stringify(snapshotWorld(a.sim))
    a.sim.stepMany(1 / 60, 600)
    const after = xs(a.sim, a.cars)
    restoreWorld(a.sim, JSON.parse(snap))
    a.sim.stepMany(1 / 60, 600)
    expect(xs(a.sim, a.cars)).toEqual(after)
    const b = field({ count: 8, level: 'singleTrack', hz: 120, maxSpeed, ai: { width: 4 }, spread: 0.3 })
    restoreWorld(b.sim, JSON.parse(snap))
    b.sim.stepMany(1 / 60, 600)
    expect(xs(b.sim, b.cars)).toEqual(after)
  })
})

describe('snapshots from before traffic', () => {
  it('a driver record of the seed (11 fields) restores with nothing ahead; bad traffic fields are refused naming them', () => {
    const a = field({ count: 3, level: 'singleTrack', hz: 120, maxSpeed: () => 20, spread: 0.3 })
    a.sim.stepMany(1 / 60, 60)
    const snap = JSON.parse(JSON.stringify(snapshotWorld(a.sim)))
    const entry = snap.cars.find((c: { driver: unknown }) => c.driver).driver
    const full = decodeF64(entry.fields, 'fields')
    entry.fields = encodeF64(full.slice(0, 11))
    restoreWorld(a.sim, snap)
    const car = a.cars[0]
    expect(a.sim.aiStatus(car)).toMatchObject({ ahead: -1, gap: Infinity, passing: false })
    entry.fields = encodeF64(Float64Array.from([...full.slice(0, 11), -1, -1, 2, 0, 0, -1, 0]))
    expect(() => restoreWorld(a.sim, snap)).toThrow(/passing/)
    entry.fields = encodeF64(Float64Array.from([...full.slice(0, 11), -1, -1, 0, 1e9, 0, -1, 0]))
    expect(() => restoreWorld(a.sim, snap)).toThrow(/shift/)
  })
})

describe('the README example', () => {
  it('runs as written: the faster cars catch the slower ones and follow or pass them', () => {
    const sim = createSim(createWorld())
    const track = smoothClosedPath([[0, 0], [250, 0], [330, 40], [340, 130], [260, 170], [130, 170], [-40, 130], [-60, 50]])
    const cars = [0, 1, 2, 3, 4, 5].map((i) => {
      const car = sim.addCar({ position: [40 * i, 0], heading: 0, lod: 'singleTrack' })
      sim.setInput(car, { gear: 1 })
      sim.setAi(car, track, { closed: true, maxSpeed: 32 - 3 * i, width: 4, gap: 0.8, aggression: 0.5 })
      return car
    })
    let overlaps = 0
    for (let k = 0; k < 60 * 20; k++) { sim.stepMany(1 / 60, 3); overlaps += overlapping(sim, cars).length }
    expect(overlaps).toBe(0)
    const st = sim.aiStatus(cars[0])!
    expect(Object.keys(st)).toEqual(expect.arrayContaining(['ahead', 'gap', 'passing']))
    // the fastest started last and is ahead of the slowest now
    expect(sim.aiStatus(cars[0])!.distance).toBeGreaterThan(sim.aiStatus(cars[5])!.distance + 200)
  })
})
