// Lidar entities: addLidar validation, fixed and mounted lidars scanning in the sensors phase,
// hz, setPose, removal (with their car), presets.
import { describe, expect, it } from 'vitest'
import { createWorld, entityExists, query, removeEntity } from 'bitecs'
import { createSim, lidarPresets, type Sim } from '../../src/index'
import { oracleScan, scanDifference } from './oracle'

const pattern = { yawStart: -Math.PI, yawIncrement: (2 * Math.PI) / 64, yawCount: 64, pitchStart: -0.4, pitchIncrement: 0.1, pitchCount: 8 }

function scene(): Sim {
  const sim = createSim(createWorld())
  sim.addCollider({ kind: 'box', halfExtents: [1, 1, 1] }, { position: [6, 0, 1] })
  sim.addCollider({ kind: 'cylinder', radius: 0.5, halfHeight: 2 }, { position: [-4, 3, 2], group: 2 })
  sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [0, -7, 1.5] })
  return sim
}

function lidarCount(sim: Sim): number {
  return query(sim.world, [sim.components.Lidar]).length
}

function expectOracle(sim: Sim, lidar: number, rot: number[], pos: number[], oid = -1, lid = -1, mask = -1, p = pattern, rmin = 0.5, rmax = 40): void {
  const o = oracleScan(sim, rot, pos, p.yawStart, p.yawIncrement, p.yawCount, p.pitchStart, p.pitchIncrement, p.pitchCount, rmin, rmax, oid, lid, mask)
  expect(scanDifference(sim.lidarScan(lidar), o)).toBe(null)
  expect(o.rays.length).toBeGreaterThan(0)
}

describe('addLidar', () => {
  it('refuses bad options with an error naming the option, and adds nothing', () => {
    const sim = scene()
    const ok = { pattern, rangeMin: 0.5, rangeMax: 40 }
    const bad: [unknown, RegExp, ErrorConstructor][] = [
      [undefined, /options/, TypeError],
      [{ ...ok, pattern: undefined }, /options\.pattern/, TypeError],
      [{ ...ok, pattern: { ...pattern, yawCount: 0 } }, /options\.pattern\.yawCount/, RangeError],
      [{ ...ok, pattern: { ...pattern, pitchCount: 1.5 } }, /options\.pattern\.pitchCount/, RangeError],
      [{ ...ok, pattern: { ...pattern, yawIncrement: NaN } }, /options\.pattern\.yawIncrement/, RangeError],
      [{ ...ok, pattern: { ...pattern, pitchStart: '0' } }, /options\.pattern\.pitchStart/, TypeError],
      [{ ...ok, rangeMin: -1 }, /options\.rangeMin/, RangeError],
      [{ ...ok, rangeMax: 0.5 }, /options\.rangeMax/, RangeError],
      [{ ...ok, rangeMax: Infinity }, /options\.rangeMax/, RangeError],
      [{ ...ok, hz: 0 }, /options\.hz/, RangeError],
      [{ ...ok, collisionMask: 1.5 }, /options\.collisionMask/, RangeError],
      [{ ...ok, offset: [0, 0, 0, 0] }, /options\.offset/, RangeError],
      [{ ...ok, offset: [0, NaN, 0] }, /options\.offset/, RangeError],
      [{ ...ok, rotation: [1, 0, 0, 0, 2, 0, 0, 0, 1] }, /options\.rotation/, RangeError],
      [{ ...ok, rotation: [0, 0, 0, 0] }, /options\.rotation/, RangeError],
      [{ ...ok, rotation: 'up' }, /options\.rotation/, TypeError],
      [{ ...ok, mount: 999 }, /options\.mount/, RangeError],
      [{ ...ok, mount: 1 }, /options\.mount/, RangeError], // a collider, not a car
    ]
    for (const [options, message, type] of bad) {
      expect(() => sim.addLidar(options as never)).toThrow(type)
      expect(() => sim.addLidar(options as never)).toThrow(message)
    }
    expect(lidarCount(sim)).toBe(0)
  })
})

describe('fixed lidars', () => {
  it('scan in the sensors phase from their pose, with their mask', () => {
    const sim = scene()
    const q = [0, 0, Math.sin(0.3), Math.cos(0.3)]
    const lidar = sim.addLidar({ offset: [0.5, 0.2, 1.2], rotation: q, pattern, rangeMin: 0.5, rangeMax: 40, collisionMask: 1 })
    expect(sim.lidarScan(lidar).count).toBe(0) // nothing until the sensors phase has run
    const names = sim.schedule.names()
    expect(names.indexOf('scan-lidars')).toBeGreaterThan(names.indexOf('rebuild-broadphase'))
    sim.step(1 / 60)
    expectOracle(sim, lidar, q, [0.5, 0.2, 1.2], -1, -1, 1)
  })

  it('setPose moves a fixed lidar; a bad pose throws and changes nothing', () => {
    const sim = scene()
    const lidar = sim.addLidar({ offset: [0, 0, 1], pattern, rangeMin: 0.5, rangeMax: 40 })
    sim.setPose(lidar, [1, -2]) // a ground position: z = ground height, rotation kept
    expect(Array.from(sim.components.Lidar.offset.subarray(3 * lidar, 3 * lidar + 3))).toEqual([1, -2, 0])
    sim.setPose(lidar, [1, -2, 1.5], [0, 0, 0, 1])
    expect(() => sim.setPose(lidar, [1, NaN, 2], [0, 0, 0, 1])).toThrow(/position/)
    expect(() => sim.setPose(lidar, [1, 2, 3, 4], [0, 0, 0, 1])).toThrow(/position/)
    expect(() => sim.setPose(lidar, [9, 9, 9], [0, 0, 0, 0])).toThrow(/rotation/)
    sim.step(1 / 60)
    expectOracle(sim, lidar, [0, 0, 0, 1], [1, -2, 1.5])
  })

  it('hz: scans only when its accumulator passes 1/hz (every 6th step at 10 Hz and 60 Hz steps)', () => {
    const sim = createSim(createWorld(), { ground: false })
    const target = sim.addCollider({ kind: 'sphere', radius: 0.5 }, { position: [10, 0, 0] })
    const lidar = sim.addLidar({ offset: [0, 0, 0], pattern: { yawStart: 0, yawIncrement: 0, yawCount: 1, pitchStart: 0, pitchIncrement: 0, pitchCount: 1 }, rangeMin: 0, rangeMax: 100, hz: 10 })
    const every = sim.addLidar({ offset: [0, 0, 0], pattern: { yawStart: 0, yawIncrement: 0, yawCount: 1, pitchStart: 0, pitchIncrement: 0, pitchCount: 1 }, rangeMin: 0, rangeMax: 100 })
    const seen: number[] = []
    for (let step = 1; step <= 24; step++) {
      sim.setPose(target, [10 + step, 0, 0]) // the range tells which step the last scan saw
      sim.step(1 / 60)
      const s = sim.lidarScan(lidar)
      seen.push(s.count === 0 ? 0 : Math.round(s.distances[0] + 0.5 - 10))
      expect(sim.lidarScan(every).distances[0]).toBeCloseTo(9.5 + step, 9)
    }
    expect(seen).toEqual([0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 12, 12, 12, 12, 12, 12, 18, 18, 18, 18, 18, 18, 24])
  })

  it('removal (sim.remove or raw removeEntity) drops the lidar and its scan; a recycled id starts fresh', () => {
    const sim = scene()
    const a = sim.addLidar({ offset: [0, 0, 1], pattern, rangeMin: 0.5, rangeMax: 40 })
    const b = sim.addLidar({ offset: [0, 0, 1], pattern, rangeMin: 0.5, rangeMax: 40 })
    sim.step(1 / 60)
    const old = sim.lidarScan(a)
    expect(old.count).toBeGreaterThan(0)
    sim.remove(a)
    expect(() => sim.lidarScan(a)).toThrow(RangeError)
    removeEntity(sim.world, b)
    expect(() => sim.lidarScan(b)).toThrow()
    expect(lidarCount(sim)).toBe(0)
    const c = sim.addLidar({ offset: [0, 0, 1], pattern, rangeMin: 0.5, rangeMax: 40 })
    expect(sim.lidarScan(c)).not.toBe(old)
    expect(sim.lidarScan(c).count).toBe(0)
    sim.step(1 / 60)
    expectOracle(sim, c, [0, 0, 0, 1], [0, 0, 1])
  })
})

describe('mounted lidars', () => {
  it('follow their car, ignore its chassis, and go when the car is removed', () => {
    const sim = scene()
    const car = sim.addCar({ position: [1, 1], heading: 0.4 })
    // inside the chassis box: without the self-filter every ray would hit it at distance 0
    const lidar = sim.addLidar({ mount: car, offset: [0.5, 0, 0.2], rotation: [0, 0, 0, 1], pattern, rangeMin: 0, rangeMax: 40 })
    expect(() => sim.setPose(lidar, [0, 0, 0])).toThrow(/mounted/)
    sim.setInput(car, { throttle: 0.6, gear: 1 })
    for (let i = 0; i < 30; i++) sim.step(1 / 60)
    const C = sim.components.Collider, chassis = sim.components.Car.collider[car]
    const R = Array.from(C.rotation.subarray(9 * chassis, 9 * chassis + 9))
    const p = C.position
    const pos = [0, 1, 2].map((i) => p[3 * chassis + i] + R[3 * i] * 0.5 + R[3 * i + 2] * 0.2)
    expect(Math.hypot(pos[0] - 1, pos[1] - 1)).toBeGreaterThan(0.01) // the car has moved
    expectOracle(sim, lidar, R, pos, car, 0, -1, pattern, 0, 40)
    const scan = sim.lidarScan(lidar)
    for (let i = 0; i < scan.count; i++) expect(scan.distances[i]).toBeGreaterThan(1) // never its own body
    const unfiltered = oracleScan(sim, R, pos, pattern.yawStart, pattern.yawIncrement, pattern.yawCount, pattern.pitchStart, pattern.pitchIncrement, pattern.pitchCount, 0, 40, -1, -1, -1)
    expect(unfiltered.distances.filter((d) => d === 0).length).toBe(pattern.yawCount * pattern.pitchCount)
    sim.remove(car)
    expect(entityExists(sim.world, lidar)).toBe(false)
    expect(lidarCount(sim)).toBe(0)
  })
})

describe('presets', () => {
  it('describe the sensors they are named after', () => {
    const deg = 180 / Math.PI
    const s16 = lidarPresets.spinning16.pattern, s64 = lidarPresets.spinning64.pattern, p2 = lidarPresets.planar2d.pattern
    expect([s16.pitchCount, s16.yawCount]).toEqual([16, 1024])
    expect(s16.pitchStart * deg).toBeCloseTo(-15, 9)
    expect((s16.pitchStart + 15 * s16.pitchIncrement) * deg).toBeCloseTo(15, 9)
    expect(s16.yawCount * s16.yawIncrement).toBeCloseTo(2 * Math.PI, 12)
    expect(s64.pitchCount).toBe(64)
    expect(s64.pitchStart * deg).toBeCloseTo(2, 9)
    expect((s64.pitchStart + 63 * s64.pitchIncrement) * deg).toBeCloseTo(-24.8, 9)
    expect(s64.yawCount * s64.yawIncrement).toBeCloseTo(2 * Math.PI, 12)
    expect(p2.pitchCount).toBe(1)
    expect(p2.yawCount * p2.yawIncrement).toBeCloseTo(2 * Math.PI, 12)
  })

  it('can be spread into addLidar', () => {
    const sim = scene()
    const lidar = sim.addLidar({ ...lidarPresets.planar2d, offset: [0, 0, 1] })
    const p = lidarPresets.planar2d
    expect(p.hz).toBe(15)
    for (let i = 0; i < 3; i++) sim.step(1 / 60)
    expect(sim.lidarScan(lidar).count).toBe(0) // 15 Hz: not yet due after 3 of 4 steps
    sim.step(1 / 60)
    expectOracle(sim, lidar, [0, 0, 0, 1], [0, 0, 1], -1, -1, -1, p.pattern, p.rangeMin, p.rangeMax)
  })
})
