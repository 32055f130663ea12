// The contract's explicit rules: cleared scans (nothing cast), a missing scan, the thin slab
// spanning the sensor, sensor-frame output with rays and distances, and scan reuse.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, createLidarScan, type Sim } from '../../src/index'
import { LidarStrategy } from '../../src/lidar/caster'
import { oracleScan, scanDifference } from './oracle'

const I = [1, 0, 0, 0, 1, 0, 0, 0, 1]
const STRATEGIES = [0, LidarStrategy.flat, LidarStrategy.buckets, LidarStrategy.bvh, LidarStrategy.raster]

function simWithBox(): Sim {
  const sim = createSim(createWorld())
  sim.addCollider({ kind: 'box', halfExtents: [1, 1, 1] }, { position: [5, 0, 1] })
  return sim
}

describe('cleared scans', () => {
  const good = [I, [0, 0, 1], 0, 0.1, 8, -0.2, 0.1, 4, 0, 50, -1, -1, -1] as const
  const bad: [string, number, unknown][] = [
    ['zero yawCount', 4, 0], ['zero pitchCount', 7, 0], ['negative count', 4, -3], ['fractional count', 7, 2.5], ['NaN count', 4, NaN], ['count beyond 2^24', 4, 2 ** 25],
    ['NaN yawStart', 2, NaN], ['infinite yawIncrement', 3, Infinity], ['NaN pitchStart', 5, NaN], ['-Infinity pitchIncrement', 6, -Infinity],
    ['rangeMax = rangeMin', 9, 0], ['rangeMax < rangeMin', 9, -1], ['NaN rangeMax', 9, NaN], ['infinite rangeMin', 8, -Infinity],
    ['non-number angle', 2, '0'], ['bad rotation', 0, [1, 2, 3]], ['NaN in rotation', 0, [0, 0, NaN, 1]], ['zero quaternion', 0, [0, 0, 0, 0]],
    ['bad position', 1, [0, 0]], ['NaN position', 1, [0, NaN, 1]], ['NaN objectId', 10, NaN], ['NaN mask', 12, NaN],
  ]
  for (const [name, index, value] of bad) {
    it(`${name} clears the scan and casts nothing`, () => {
      const sim = simWithBox()
      const scan = createLidarScan()
      const args: unknown[] = [...good]
      ;(sim.rayTestLidar as (...a: unknown[]) => unknown)(...args, scan)
      expect(scan.count).toBeGreaterThan(0) // the good call hits the box
      args[index] = value
      const caster = sim.internal.lidars.shared
      expect(() => (sim.rayTestLidar as (...a: unknown[]) => unknown)(...args, scan)).not.toThrow()
      expect(scan.count).toBe(0)
      expect(caster.tests).toBe(0)
    })
  }
  it('a non-finite last angle (start + (n−1)·increment overflows) clears the scan', () => {
    const sim = simWithBox()
    const scan = createLidarScan()
    sim.rayTestLidar(I, [0, 0, 1], 0, 1e308, 3, 0, 0, 1, 0, 50, -1, -1, -1, scan)
    expect(scan.count).toBe(0)
  })
  it('a missing or wrong scan object throws a TypeError naming scan', () => {
    const sim = simWithBox()
    const call = sim.rayTestLidar as (...a: unknown[]) => unknown
    expect(() => call(...good)).toThrow(TypeError)
    expect(() => call(...good, {})).toThrow(/scan/)
    expect(() => call(...good, null)).toThrow(TypeError)
  })
})

describe('scan output', () => {
  it('gives sensor-frame points, ray indices y·pitchCount + p and ranges from the sensor (analytic wall)', () => {
    const sim = createSim(createWorld(), { ground: false })
    // a wall x ∈ [9.9, 10.1] facing the sensor; sensor at (0, 0, 2) yawed by +90° (sensor x = world y)
    sim.addCollider({ kind: 'box', halfExtents: [0.1, 50, 50] }, { position: [0, 10, 2], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] })
    const scan = createLidarScan()
    for (const force of STRATEGIES) {
      sim.internal.lidars.shared.force = force
      // yaw −0.2..0.2 (5 samples), pitch −0.1..0.1 (3 samples), rangeMin 1
      sim.rayTestLidar([0, 0, Math.SQRT1_2, Math.SQRT1_2], [0, 0, 2], -0.2, 0.1, 5, -0.1, 0.1, 3, 1, 30, -1, -1, -1, scan)
      expect(scan.count).toBe(15)
      for (let i = 0; i < 15; i++) {
        const y = Math.floor(i / 3), p = i % 3
        const yaw = -0.2 + y * 0.1, pitch = -0.1 + p * 0.1
        expect(scan.rays[i]).toBe(i)
        const range = 9.9 / (Math.cos(pitch) * Math.cos(yaw)) // the wall's near face is at sensor x = 9.9
        expect(scan.distances[i]).toBeCloseTo(range, 9)
        expect(scan.points[3 * i]).toBeCloseTo(9.9, 9)
        expect(scan.points[3 * i + 1]).toBeCloseTo(range * Math.cos(pitch) * Math.sin(yaw), 9)
        expect(scan.points[3 * i + 2]).toBeCloseTo(range * Math.sin(pitch), 9)
      }
    }
  })

  it('is compact (misses leave no gaps) and shrinks and grows on reuse', () => {
    const sim = simWithBox()
    const scan = createLidarScan()
    sim.rayTestLidar(I, [0, 0, 1], -Math.PI, (2 * Math.PI) / 360, 360, 0, 0, 1, 0, 50, -1, -1, -1, scan)
    // the box (x 4..6, y −1..1) subtends ±atan(1/4) as seen from the origin: about 28 of 360 rays
    expect(scan.count).toBeGreaterThan(20)
    expect(scan.count).toBeLessThan(40)
    for (let i = 1; i < scan.count; i++) expect(scan.rays[i]).toBeGreaterThan(scan.rays[i - 1])
    sim.rayTestLidar(I, [0, 0, 1], 0, 0, 1, 0, 0, 1, 0, 50, -1, -1, -1, scan)
    expect(scan.count).toBe(1)
    expect(scan.distances[0]).toBeCloseTo(4, 12)
    sim.rayTestLidar(I, [0, 0, 1], 0, 0.001, 100000, 0, 0, 1, 0, 50, -1, -1, -1, scan)
    expect(scan.count).toBeGreaterThan(0)
  })

  it('rays start at rangeMin: a shape nearer than rangeMin is not seen, one straddling it hits at rangeMin', () => {
    const sim = createSim(createWorld(), { ground: false })
    sim.addCollider({ kind: 'sphere', radius: 0.5 }, { position: [2, 0, 0] })
    const scan = createLidarScan()
    for (const force of STRATEGIES) {
      sim.internal.lidars.shared.force = force
      sim.rayTestLidar(I, [0, 0, 0], 0, 0, 1, 0, 0, 1, 3, 10, -1, -1, -1, scan)
      expect(scan.count).toBe(0)
      sim.rayTestLidar(I, [0, 0, 0], 0, 0, 1, 0, 0, 1, 2, 10, -1, -1, -1, scan) // starts inside the sphere
      expect(scan.count).toBe(1)
      expect(scan.distances[0]).toBe(2)
      sim.rayTestLidar(I, [0, 0, 0], 0, 0, 1, 0, 0, 1, 0.5, 1.5, -1, -1, -1, scan) // ends exactly on it
      expect(scan.count).toBe(1)
      expect(scan.distances[0]).toBeCloseTo(1.5, 12)
    }
  })
})

describe('the thin slab spanning the sensor is never culled', () => {
  // 0.1 m thick, 200 m wide, the sensor inside it, touching it, or a hair above it
  const cases: [string, number[], number[]][] = [
    ['horizontal slab, sensor inside', [0, 0, 0], [0, 0, 0.02]],
    ['horizontal slab, sensor on its top face', [0, 0, 0], [0, 0, 0.05]],
    ['horizontal slab, sensor 1 mm above', [0, 0, 0], [0, 0, 0.051]],
    ['vertical wall, sensor 1 mm in front', [0, 0, 0], [0.051, 3, 1]],
  ]
  for (const [name, centre, sensor] of cases) {
    it(name, () => {
      const sim = createSim(createWorld(), { ground: false })
      const vertical = name.startsWith('vertical')
      sim.addCollider({ kind: 'box', halfExtents: vertical ? [0.05, 100, 100] : [100, 100, 0.05] }, { position: centre })
      // a few far shapes so the scene is not trivially small
      for (let i = 0; i < 40; i++) sim.addCollider({ kind: 'sphere', radius: 0.5 }, { position: [30 * Math.cos(i), 30 * Math.sin(i), 5] })
      const scan = createLidarScan()
      for (const force of STRATEGIES) {
        sim.internal.lidars.shared.force = force
        const args = [I, sensor, -Math.PI, (2 * Math.PI) / 90, 90, -Math.PI / 2, Math.PI / 12, 13, 0, 80, -1, -1, -1] as const
        sim.rayTestLidar(...args, scan)
        const o = oracleScan(sim, ...args)
        expect(scanDifference(scan, o)).toBe(null)
        // analytic: from inside or on the face every ray hits at 0; from outside, every ray going
        // toward the slab hits its face at h / (component toward it)
        const h = vertical ? sensor[0] - 0.05 : sensor[2] - 0.05
        const rays = Array.from(scan.rays.subarray(0, scan.count))
        let into = 0
        for (let y = 0; y < 90; y++) {
          for (let p = 0; p < 13; p++) {
            const yaw = -Math.PI + (y * 2 * Math.PI) / 90, pitch = -Math.PI / 2 + (p * Math.PI) / 12
            const toward = vertical ? -Math.cos(pitch) * Math.cos(yaw) : -Math.sin(pitch)
            if (h > 0 && toward <= 1e-6) continue
            const k = rays.indexOf(y * 13 + p)
            expect(k).toBeGreaterThanOrEqual(0)
            expect(scan.distances[k]).toBeCloseTo(h <= 0 ? 0 : Math.min(h / toward, 1e9), 9)
            into++
          }
        }
        expect(into).toBeGreaterThan(30)
      }
    })
  }
})

describe('determinism', () => {
  it('two sims built alike give bit-identical scans, and a lidar entity gives the same under step and stepMany', () => {
    const make = () => {
      const sim = createSim(createWorld())
      for (let i = 0; i < 60; i++) sim.addCollider({ kind: i % 2 ? 'sphere' : 'box', radius: 0.7, halfExtents: [0.5, 0.8, 1] } as never, { position: [20 * Math.cos(i * 2.1), 20 * Math.sin(i * 1.3), 1] })
      const lidar = sim.addLidar({ offset: [0.3, 0.1, 1.5], pattern: { yawStart: 0, yawIncrement: 0.05, yawCount: 126, pitchStart: -0.3, pitchIncrement: 0.05, pitchCount: 12 }, rangeMin: 0.2, rangeMax: 60, hz: 20 })
      return { sim, lidar }
    }
    const a = make(), b = make()
    for (let i = 0; i < 9; i++) a.sim.step(1 / 60)
    b.sim.stepMany(1 / 60, 9)
    const sa = a.sim.lidarScan(a.lidar), sb = b.sim.lidarScan(b.lidar)
    expect(sa.count).toBeGreaterThan(0)
    expect(sb.count).toBe(sa.count)
    expect(Array.from(sb.points.subarray(0, 3 * sb.count))).toEqual(Array.from(sa.points.subarray(0, 3 * sa.count)))
    expect(Array.from(sb.rays.subarray(0, sb.count))).toEqual(Array.from(sa.rays.subarray(0, sa.count)))
    // every strategy gives the very same bits as well
    const scans = STRATEGIES.map((force) => {
      a.sim.internal.lidars.shared.force = force
      const s = createLidarScan()
      a.sim.rayTestLidar([0, 0, 0.2, 0.98], [1, 2, 1.5], 0, 0.05, 126, -0.3, 0.05, 12, 0.2, 60, -1, -1, -1, s)
      return Array.from(s.distances.subarray(0, s.count))
    })
    for (const s of scans) expect(s).toEqual(scans[0])
  })
})

describe('strategy choice (the cost model)', () => {
  it('flat for a handful of shapes, angular culling for a big pattern over many, the BVH for one ray among many', () => {
    const sim = createSim(createWorld(), { ground: false })
    for (let i = 0; i < 5; i++) sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [10 * Math.cos(i), 10 * Math.sin(i), 0] })
    const scan = createLidarScan(), c = sim.internal.lidars.shared
    const scanWith = (yc: number, pc: number) => sim.rayTestLidar(I, [0, 0, 0], 0, (2 * Math.PI) / yc, yc, -0.2, 0.4 / pc, pc, 0, 100, -1, -1, -1, scan)
    scanWith(512, 8)
    expect(c.strategy).toBe(LidarStrategy.flat)
    for (let i = 0; i < 2000; i++) sim.addCollider({ kind: 'box', halfExtents: [0.5, 0.5, 0.5] }, { position: [((i * 7919) % 400) - 200, ((i * 104729) % 400) - 200, (i % 5) - 2] })
    scanWith(512, 8)
    expect([LidarStrategy.buckets, LidarStrategy.raster]).toContain(c.strategy) // angular culling, not the BVH
    scanWith(1, 1)
    expect(c.strategy).toBe(LidarStrategy.bvh)
    expect(c.estimate[2]).toBeGreaterThan(0)
  })
})

describe('rotations that are not rotations', () => {
  it('a scaled, sheared or zero Mat3 still gives rayTest along R·d (zero direction = +z), by the BVH', () => {
    const sim = createSim(createWorld())
    for (let i = 0; i < 30; i++) sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [8 * Math.cos(i), 8 * Math.sin(i), 2 + (i % 3)] })
    sim.addCollider({ kind: 'box', halfExtents: [2, 2, 0.2] }, { position: [0, 0, 6] })
    const scan = createLidarScan()
    for (const rot of [[2, 0, 0, 0, 2, 0, 0, 0, 2], [1, 0.5, 0, 0, 1, 0, 0.2, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, -1, 0, 0, 0, 1]]) {
      const args = [rot, [0.5, 0, 1], 0, 0.2, 32, -0.5, 0.25, 5, 0.3, 30, -1, -1, -1] as const
      sim.rayTestLidar(...args, scan)
      expect(sim.internal.lidars.shared.strategy).toBe(LidarStrategy.bvh)
      const o = oracleScan(sim, ...args)
      expect(o.rays.length).toBeGreaterThan(0)
      // points: the oracle moves hits by Rᵀ, which is no inverse here; compare ranges and ray order
      expect(scan.count).toBe(o.rays.length)
      for (let i = 0; i < scan.count; i++) {
        expect(scan.rays[i]).toBe(o.rays[i])
        expect(Math.abs(scan.distances[i] - o.distances[i])).toBeLessThanOrEqual(1e-9)
      }
    }
  })
})
