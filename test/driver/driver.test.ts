import { describe, expect, it } from 'vitest'
import { addEntity, createWorld, removeEntity } from 'bitecs'
import { createSim, type Sim } from '../../src/sim'
import { driverRecord } from './driver-record'
import { stadiumPath } from '../../src/driver/path'
import { addSimpleCar, UNDERSTEER } from './simple-car'

// These tests drive a stand-in car (simple-car.ts: kinematic bicycle with understeer), so the
// driver's logic is checked on a model with known behaviour; cars.test.ts drives pitlane's cars.

const oval = stadiumPath(200, 50, 1)

function fieldsOf(sim: Sim, car: number): number[] {
  const C = sim.components.Car, D = driverRecord(sim, car)
  return [C.x[car], C.y[car], C.heading[car], C.speed[car], C.steer[car], C.throttle[car], C.brake[car],
    D.distance, D.lateralError, D.speedI, D.curveI, D.seg]
}

describe('setAi / aiStatus / clearAi', () => {
  it('refuses bad cars, paths and options with errors naming them, changing nothing', () => {
    const sim = createSim(createWorld())
    const car = addSimpleCar(sim, -100, -50, 0)
    const other = addEntity(sim.world)
    expect(() => sim.setAi('1' as any, oval)).toThrow(TypeError)
    expect(() => sim.setAi(999, oval)).toThrow(/car 999 is not a live entity/)
    expect(() => sim.setAi(other, oval)).toThrow(/is not a car/)
    expect(() => sim.aiStatus(other)).toThrow(/is not a car/)
    expect(() => sim.clearAi(-1)).toThrow(RangeError)
    expect(() => sim.setAi(car, [[0, 0]])).toThrow(/path must have at least 2 distinct points/)
    expect(() => sim.setAi(car, [[0, 0], [1, 0]], { closed: true })).toThrow(/at least 3/)
    expect(() => sim.setAi(car, [0, 0, NaN, 1])).toThrow(/path\[2\] must be finite/)
    expect(() => sim.setAi(car, oval, { maxSpeed: 0 })).toThrow(/options.maxSpeed/)
    expect(() => sim.setAi(car, oval, { brakeDecel: -6 })).toThrow(/options.brakeDecel/)
    expect(() => sim.setAi(car, oval, { lookahead: -1 })).toThrow(/options.lookahead/)
    expect(() => sim.setAi(car, oval, { closed: 1 as any })).toThrow(/options.closed/)
    expect(sim.aiStatus(car)).toBeNull()
    expect(sim.internal.drivers.paths[car]).toBeUndefined()

    // a driven car keeps its path and state when a new setAi is refused
    const twin = createSim(createWorld())
    const car2 = addSimpleCar(twin, -100, -50, 0)
    sim.setAi(car, oval, { closed: true })
    twin.setAi(car2, oval, { closed: true })
    sim.stepMany(1 / 60, 90); twin.stepMany(1 / 60, 90)
    expect(() => sim.setAi(car, oval, { closed: true, driveAccel: Infinity })).toThrow(/options.driveAccel/)
    expect(() => sim.setAi(car, [[1, 1]])).toThrow(RangeError)
    sim.stepMany(1 / 60, 90); twin.stepMany(1 / 60, 90)
    expect(fieldsOf(sim, car)).toEqual(fieldsOf(twin, car2))
  })

  it('reports status, leaves handbrake/clutch/gear alone, and clearAi hands back the last inputs', () => {
    const sim = createSim(createWorld())
    const car = addSimpleCar(sim, -100, -50, 0)
    const C = sim.components.Car
    C.handbrake[car] = 0.25; C.clutch[car] = 0.5; C.gear[car] = 3
    sim.setAi(car, oval, { closed: true })
    const s0 = sim.aiStatus(car)!
    expect(s0).toEqual({ distance: 0, laps: 0, lateralError: 0, targetSpeed: s0.targetSpeed, finished: false, neutral: false, ahead: -1, gap: Infinity, passing: false })
    sim.stepMany(1 / 60, 120)
    const st = sim.aiStatus(car)!
    expect(st.distance).toBeGreaterThan(5)
    expect(C.throttle[car]).toBeGreaterThan(0)
    expect([C.handbrake[car], C.clutch[car], C.gear[car]]).toEqual([0.25, 0.5, 3])
    const last = [C.steer[car], C.throttle[car], C.brake[car]]
    sim.clearAi(car)
    expect(sim.aiStatus(car)).toBeNull()
    expect([C.steer[car], C.throttle[car], C.brake[car]]).toEqual(last)
    C.steer[car] = -0.3
    sim.step(1 / 60)
    expect(C.steer[car]).toBe(-0.3) // nobody writes it any more
    sim.clearAi(car) // no driver: nothing
  })

  it('does nothing for a frozen car, and forgets the path when the car is removed', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ position: [-100, -50], heading: 0 })
    sim.setAi(car, oval, { closed: true })
    sim.setLod(car, 'frozen')
    const C = sim.components.Car
    C.steer[car] = 0.7; C.throttle[car] = 0.1; C.brake[car] = 0.2
    const before = sim.aiStatus(car)
    sim.stepMany(1 / 60, 10)
    expect([C.steer[car], C.throttle[car], C.brake[car]]).toEqual([0.7, 0.1, 0.2])
    expect(sim.aiStatus(car)).toEqual(before)
    removeEntity(sim.world, car)
    expect(sim.internal.drivers.paths[car]).toBeUndefined()
    const next = addSimpleCar(sim, 0, 0, 0) // recycled id: no driver
    expect(next).toBe(car)
    expect(sim.aiStatus(next)).toBeNull()
    sim.step(1 / 60)
  })
})

describe('extreme car states', () => {
  it('keep the inputs the driver writes finite and in range, and never press both pedals', () => {
    const sim = createSim(createWorld())
    const car = addSimpleCar(sim, -100, -50, 0)
    sim.setAi(car, oval, { closed: true })
    sim.schedule.remove('simple-cars') // the driver alone sees the states set below
    const C = sim.components.Car
    const values = [0, -0, 1e-300, 1e6, -1e6, 1e150, -1e150, 1e300, -1e300]
    let k = 0
    for (const a of values) for (const b of values) {
      // positions within ±1e150 m (squared distances stay finite); speeds and rates anything
      C.x[car] = a % 1e151; C.y[car] = -b % 1e151; C.heading[car] = (a - b) % 7; C.speed[car] = a; C.vx[car] = a
      C.vy[car] = b % 1e100; C.yawRate[car] = b
      sim.step(k++ % 2 ? 1 / 60 : 0.5)
      const st = sim.aiStatus(car)!
      expect(Math.abs(C.steer[car])).toBeLessThanOrEqual(1)
      expect(C.throttle[car]).toBeGreaterThanOrEqual(0); expect(C.throttle[car]).toBeLessThanOrEqual(1)
      expect(C.brake[car]).toBeGreaterThanOrEqual(0); expect(C.brake[car]).toBeLessThanOrEqual(1)
      expect(C.throttle[car] > 0 && C.brake[car] > 0).toBe(false)
      for (const v of [st.distance, st.lateralError, st.targetSpeed]) expect(Number.isFinite(v)).toBe(true)
    }
  })
})

describe('hostile driver state (e.g. from a mutated snapshot)', () => {
  it('recovers: huge distance, integrators and segment hints give finite, bounded outputs at once', () => {
    const sim = createSim(createWorld())
    const car = addSimpleCar(sim, -100, -50, 0, 10)
    sim.setAi(car, oval, { closed: true })
    const D = driverRecord(sim, car), C = sim.components.Car
    D.distance = 1e300; D.start = -1e300; D.speedI = 1e300; D.curveI = -1e300
    D.goalSeg = 1e9; D.seg = -7
    C.speed[car] = 12; C.vx[car] = 5e-324; C.vy[car] = 3 // speed and velocity that disagree (a hostile snapshot)
    sim.step(1 / 60)
    expect(D.laps).toBe(0x7fffffff)
    expect(Math.abs(D.curveI)).toBeLessThanOrEqual(0.02)
    expect(Math.abs(D.speedI)).toBeLessThanOrEqual(3)
    expect(Math.abs(C.steer[car])).toBeLessThanOrEqual(1)
    expect(Number.isFinite(C.throttle[car] + C.brake[car] + sim.aiStatus(car)!.lateralError)).toBe(true)
  })
})

describe('path records', () => {
  it('are shared by cars with the same points and options, and leave with their last user', () => {
    const sim = createSim(createWorld())
    const table = sim.internal.drivers.table
    const [a, b, c] = [0, 1, 2].map((k) => addSimpleCar(sim, -100 + 10 * k, -50, 0))
    sim.setAi(a, oval, { closed: true })
    sim.setAi(b, Array.from(oval), { closed: true, maxSpeed: 30 }) // same points and options, other array
    sim.setAi(c, oval, { closed: true, lateralOffset: 1 })
    expect(table.shared.map((r) => r.users)).toEqual([2, 1])
    expect(sim.internal.drivers.paths[a]).toBe(sim.internal.drivers.paths[b])
    sim.setAi(b, oval, { closed: true, lateralOffset: 1 }) // moves to c's record
    expect(table.shared.map((r) => r.users)).toEqual([1, 2])
    sim.clearAi(a)
    expect(table.shared.map((r) => r.users)).toEqual([2])
    removeEntity(sim.world, b); removeEntity(sim.world, c)
    expect(table.shared).toEqual([])
  })

  it('are built once for 10 000 setAi calls on one path: its points read once, one record', () => {
    const sim = createSim(createWorld())
    const table = sim.internal.drivers.table
    const path = stadiumPath(400, 100, 2) // (≈ 700 points)
    const nested = Array.from({ length: path.length / 2 }, (_, i) => [path[2 * i], path[2 * i + 1]])
    const cars = Array.from({ length: 100 }, (_, k) => addSimpleCar(sim, -200 + 4 * k, -100, 0))
    const reads = table.reads
    for (let k = 0; k < 10000; k++) sim.setAi(cars[k % cars.length], k % 2 ? path : nested, { closed: true, maxSpeed: 40 })
    expect(table.reads - reads).toBe(2) // (the flat and the nested array, each read once)
    expect(table.shared.map((r) => r.users)).toEqual([100])
    // a path changed in place is read again; one changed to a bad point is refused, naming it
    nested[5][1] += 0.5
    sim.setAi(cars[0], nested, { closed: true, maxSpeed: 40 })
    expect(table.reads - reads).toBe(3)
    expect(table.shared.map((r) => r.users)).toEqual([99, 1])
    nested[7][0] = NaN
    expect(() => sim.setAi(cars[1], nested, { closed: true, maxSpeed: 40 })).toThrow(/path\[7\]\[0\] must be finite/)
    expect(table.shared.map((r) => r.users)).toEqual([99, 1]) // (the refusal changed nothing)
    // other options on the same points keep their own profile (the points' polyline is shared, the segment records are not)
    sim.setAi(cars[2], path, { closed: true, maxSpeed: 10 })
    const fast = sim.internal.drivers.paths[cars[3]]!, slow = sim.internal.drivers.paths[cars[2]]!
    expect(Math.max(...slow.profile)).toBe(10)
    expect(Math.max(...fast.profile)).toBe(40)
    expect(sim.aiStatus(cars[2])!.targetSpeed).toBeLessThanOrEqual(10)
    expect(sim.aiStatus(cars[3])!.targetSpeed).toBeGreaterThan(10)
  })
})

describe('driving the stand-in car', () => {
  it('laps the 200 m / 50 m oval: laps counted, on the line, bends at sqrt(6 * 50)', () => {
    const sim = createSim(createWorld())
    const car = addSimpleCar(sim, -100, -50, 0)
    sim.setAi(car, oval, { closed: true })
    const C = sim.components.Car
    let maxLat = 0, bendMin = Infinity, bendMax = 0, laps = 0, steerErr = 0
    for (let i = 0; i < 60 * 130 && laps < 3; i++) {
      sim.step(1 / 60)
      const st = sim.aiStatus(car)!
      laps = st.laps
      if (st.distance > 50) maxLat = Math.max(maxLat, Math.abs(st.lateralError))
      // well inside a bend (past its first 30 m of arc)
      if (st.distance > 300 && Math.abs(C.x[car]) > 100 && Math.abs(Math.atan2(C.y[car], Math.abs(C.x[car]) - 100)) < Math.PI / 2 - 0.6) {
        bendMin = Math.min(bendMin, C.speed[car]); bendMax = Math.max(bendMax, C.speed[car])
        // a steady bend needs the understeer on top of the kinematic angle: δ = (L + K v²) / R
        const v = C.speed[car], need = Math.atan((2.6 + UNDERSTEER * v * v) / 50) / 0.6
        steerErr = Math.max(steerErr, Math.abs(C.steer[car] - need) / need)
      }
    }
    expect(laps).toBe(3)
    expect(maxLat).toBeLessThan(0.5)
    const vb = Math.sqrt(300)
    expect(bendMin).toBeGreaterThan(0.9 * vb)
    expect(bendMax).toBeLessThan(1.1 * vb)
    // the curvature loop found the understeer (about +40% on the kinematic angle here)
    expect(steerErr).toBeLessThan(0.08)
  })

  it('stops within 2 m of the end of an open S-path and reports finished, holding the brake', () => {
    const pts: number[][] = []
    for (let i = 0; i <= 240; i++) pts.push([i, 25 * Math.sin((i / 240) * 2 * Math.PI)])
    const sim = createSim(createWorld())
    const car = addSimpleCar(sim, 0, 0, Math.atan2(25 * 2 * Math.PI / 240, 1))
    sim.setAi(car, pts, { maxSpeed: 20 })
    const C = sim.components.Car
    let finishedAt = -1
    for (let i = 0; i < 60 * 60 && finishedAt < 0; i++) {
      sim.step(1 / 60)
      if (sim.aiStatus(car)!.finished) finishedAt = i
    }
    expect(finishedAt).toBeGreaterThan(0)
    expect(Math.hypot(C.x[car] - 240, C.y[car])).toBeLessThan(2)
    sim.stepMany(1 / 60, 60)
    expect(C.brake[car]).toBe(1)
    expect(C.throttle[car]).toBe(0)
    expect(sim.aiStatus(car)!.finished).toBe(true)
  })

  it('two cars at lateralOffset +2 / -2 hold about 4 m apart', () => {
    const sim = createSim(createWorld())
    const a = addSimpleCar(sim, -100, -48, 0)
    const b = addSimpleCar(sim, -100, -52, 0)
    sim.setAi(a, oval, { closed: true, lateralOffset: 2, maxSpeed: 20 })
    sim.setAi(b, oval, { closed: true, lateralOffset: -2, maxSpeed: 20 })
    const C = sim.components.Car
    const gaps: number[] = []
    for (let i = 0; i < 60 * 60; i++) {
      sim.step(1 / 60)
      if (i > 600) {
        // distance of each car from the centreline, measured independently of the driver
        const off = (eid: number) => {
          const x = C.x[eid], y = C.y[eid]
          return Math.abs(x) <= 100 ? Math.abs(y) : Math.hypot(Math.abs(x) - 100, y)
        }
        gaps.push(off(b) - off(a))
      }
    }
    for (const g of gaps) expect(Math.abs(g - 4)).toBeLessThan(0.5)
  })

  it('is deterministic, and stepMany equals repeated step, bit for bit', () => {
    const run = (many: boolean) => {
      const sim = createSim(createWorld())
      const car = addSimpleCar(sim, -90, -51, 0.05, 3)
      sim.setAi(car, oval, { closed: true, lateralOffset: 1 })
      if (many) sim.stepMany(1 / 60, 900)
      else for (let i = 0; i < 900; i++) sim.step(1 / 60)
      return fieldsOf(sim, car)
    }
    const a = run(true)
    expect(run(true)).toEqual(a)
    expect(run(false)).toEqual(a)
  })

  it('finds its way back from far off the path (full search when lost)', () => {
    const sim = createSim(createWorld())
    const car = addSimpleCar(sim, 0, 0, 0) // oval centre, 50 m from every part of the path
    sim.setAi(car, oval, { closed: true, maxSpeed: 15 })
    const C = sim.components.Car
    sim.stepMany(1 / 60, 60 * 30)
    expect(Math.abs(sim.aiStatus(car)!.lateralError)).toBeLessThan(0.5)
    C.x[car] += 30 // knocked far off the line
    sim.stepMany(1 / 60, 60 * 30)
    expect(Math.abs(sim.aiStatus(car)!.lateralError)).toBeLessThan(0.5)
  })
})
