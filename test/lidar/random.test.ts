// Randomized: every scan equals rayTest along each ray moved into the sensor frame (1e-9 m),
// point for point and in order, for every strategy, and after every kind of change between scans.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, createLidarScan, type Sim } from '../../src/index'
import { LidarStrategy } from '../../src/lidar/caster'
import { oracleScan, randomQuat, randomScene, rng, scanDifference, toMat3 } from './oracle'

interface Args { rot: number[]; pos: number[]; ys: number; yi: number; yc: number; ps: number; pi: number; pc: number; rmin: number; rmax: number; oid: number; lid: number; mask: number }

function randomPattern(r: () => number, a: Args): void {
  const kind = Math.floor(r() * 4)
  if (kind === 0) { a.yc = 1; a.yi = r() } // single yaw sample
  else if (kind === 1) { a.yc = 24 + Math.floor(r() * 24); a.yi = (r() < 0.5 ? -1 : 1) * (2 * Math.PI) / a.yc } // full revolution
  else { a.yc = 1 + Math.floor(r() * 40); a.yi = (r() < 0.5 ? -1 : 1) * r() * 0.4 }
  a.ys = (2 * r() - 1) * 7 // beyond ±π: the seam wraps
  const pk = Math.floor(r() * 4)
  if (pk === 0) { a.pc = 1; a.ps = (2 * r() - 1) * 0.5; a.pi = 0 } // planar
  else if (pk === 1) { a.pc = 2 + Math.floor(r() * 10); a.ps = -Math.PI / 2; a.pi = Math.PI / (a.pc - 1) } // pole to pole, exactly
  else if (pk === 2) { a.pc = 2 + Math.floor(r() * 10); a.ps = Math.PI / 2; a.pi = -(Math.PI / 2 + r()) / (a.pc - 1) } // downward from the zenith
  else { a.pc = 1 + Math.floor(r() * 12); a.ps = (2 * r() - 1) * 2; a.pi = (2 * r() - 1) * 0.4 } // beyond ±90°: folds over
}

function randomArgs(r: () => number, sim: Sim, ids: number[], centre: number[], half: number): Args {
  const a = { mask: -1, oid: -1, lid: -1 } as Args
  randomPattern(r, a)
  randomPose(r, a, sim, ids, centre, half)
  randomRanges(r, a, half)
  return a
}

function randomPose(r: () => number, a: Args, sim: Sim, ids: number[], centre: number[], half: number): void {
  const q = r() < 0.2 ? [0, 0, 0, 1] : randomQuat(r)
  a.rot = r() < 0.5 ? q : Array.from(toMat3(q))
  if (r() < 0.25 && ids.length > 0) {
    // at (or next to) a collider's centre: the sensor inside a shape or its bound
    const e = ids[Math.floor(r() * ids.length)]
    const P = sim.components.Collider.position
    a.pos = [P[3 * e] + (r() - 0.5) * 0.2, P[3 * e + 1] + (r() - 0.5) * 0.2, P[3 * e + 2] + (r() - 0.5) * 0.2]
  } else a.pos = [centre[0] + (2 * r() - 1) * half, centre[1] + (2 * r() - 1) * half, 0.3 + r() * 3]
}

function randomRanges(r: () => number, a: Args, half: number): void {
  a.rmin = r() < 0.3 ? 0 : r() * 3
  a.rmax = a.rmin + 0.5 + r() * half * 1.5
}

function check(sim: Sim, scan: ReturnType<typeof createLidarScan>, a: Args, what: string): void {
  sim.rayTestLidar(a.rot, a.pos, a.ys, a.yi, a.yc, a.ps, a.pi, a.pc, a.rmin, a.rmax, a.oid, a.lid, a.mask, scan)
  const o = oracleScan(sim, a.rot, a.pos, a.ys, a.yi, a.yc, a.ps, a.pi, a.pc, a.rmin, a.rmax, a.oid, a.lid, a.mask)
  const diff = scanDifference(scan, o)
  if (diff !== null) throw new Error(`${what}: ${diff} (strategy ${sim.internal.lidars.shared.strategy}, args ${JSON.stringify(a)})`)
}

const SCENES = [
  { name: 'sparse small', n: 6, half: 30, size: 2 },
  { name: 'sparse large', n: 700, half: 150, size: 2 },
  { name: 'dense small', n: 25, half: 2, size: 1 },
  { name: 'dense large', n: 300, half: 6, size: 1.5 },
]

describe('rayTestLidar equals rayTest along every ray', () => {
  for (const sc of SCENES) {
    it(`${sc.name}: random poses and patterns, every strategy, changes between scans`, () => {
      let hits = 0
      for (let seed = 1; seed <= 2; seed++) {
        const r = rng(seed * 7919 + sc.n)
        const sim = createSim(createWorld(), { ground: r() < 0.6 ? { height: -0.5 + r() } : false })
        const centre = [0, 0, 0]
        const ids = randomScene(sim, r, sc.n, centre, sc.half, sc.size)
        const scan = createLidarScan()
        const caster = sim.internal.lidars.shared
        for (const force of [0, LidarStrategy.flat, LidarStrategy.buckets, LidarStrategy.bvh, LidarStrategy.raster]) {
          caster.force = force
          const a = randomArgs(r, sim, ids, centre, sc.half)
          check(sim, scan, a, 'first scan')
          check(sim, scan, a, 'same scan again (cached)')
          hits += scan.count
          // each change alone, scanned on the warm caches
          const e = ids[Math.floor(r() * ids.length)]
          sim.setPose(e, [a.pos[0] + (r() - 0.5) * 4, a.pos[1] + (r() - 0.5) * 4, a.pos[2] + (r() - 0.5)], randomQuat(r))
          check(sim, scan, a, 'after moving a collider next to the sensor')
          const added = sim.addCollider({ kind: 'box', halfExtents: [3, 0.05, 3] }, { position: [a.pos[0] + 1, a.pos[1], a.pos[2]], group: 1 })
          check(sim, scan, a, 'after adding a wall')
          sim.remove(added)
          check(sim, scan, a, 'after removing it')
          randomPose(r, a, sim, ids, centre, sc.half)
          check(sim, scan, a, 'after a pose change')
          randomRanges(r, a, sc.half)
          check(sim, scan, a, 'after a range change')
          a.oid = 7; a.lid = Math.floor(r() * 2)
          check(sim, scan, a, 'after a self-filter change')
          a.mask = [1, 2, 4, 5, 6][Math.floor(r() * 5)]
          check(sim, scan, a, 'after a mask change')
          randomPattern(r, a)
          check(sim, scan, a, 'after a pattern change')
          hits += scan.count
        }
      }
      expect(hits).toBeGreaterThan(0)
    })
  }

  it('a real-sized pattern over a large sparse scene picks angular culling (buckets or raster), and it agrees', () => {
    const r = rng(42)
    const sim = createSim(createWorld())
    randomScene(sim, r, 1000, [0, 0, 0], 200, 2)
    const scan = createLidarScan()
    const a: Args = { rot: [0, 0, 0, 1], pos: [1, 2, 1.8], ys: 0, yi: (2 * Math.PI) / 512, yc: 512, ps: -15 * Math.PI / 180, pi: 2 * Math.PI / 180, pc: 16, rmin: 0.5, rmax: 100, oid: -1, lid: -1, mask: -1 }
    check(sim, scan, a, '512×16')
    expect([LidarStrategy.buckets, LidarStrategy.raster]).toContain(sim.internal.lidars.shared.strategy)
    expect(scan.count).toBeGreaterThan(1000)
  })
})
