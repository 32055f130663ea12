// Randomized: 2000 mixed shapes (+ heightfields, + ground), 10 000 rays. rayTest (BVH) must give
// the same closest hit as a brute-force f64 test of every collider, every hit must lie on its
// shape's surface (independent signed-distance check), and Rapier's castRay (f32, solid) must agree.
import { beforeAll, describe, expect, it } from 'vitest'
import RAPIER from '@dimforge/rapier3d-compat'
import { makeSim, bruteForce } from './helpers'
import { randomShapes, buildRapierWorld } from '../../bench/scenes.mjs'
import { seededRandom } from '../random'
import { rayCollider } from '../../src/collision/narrowphase'
import { ColliderKind } from '../../components/collider'
import type { Sim } from '../../src/sim'
import type { Shape } from '../../src/collision/shapes'

const N_SHAPES = 2000
const N_RAYS = 10_000
const shapes = randomShapes(N_SHAPES, { size: 60, zMin: -0.5, zMax: 8, seed: 42, minSize: 0.2, maxSize: 3 })

function buildSim(): { sim: Sim; eids: number[]; hfs: number[] } {
  const sim = makeSim({ height: 0 })
  const eids = shapes.map((s, i) => sim.addCollider(s.shape as unknown as Shape, { position: s.position, rotation: s.rotation, group: 1 << (i % 3), object: 1000 + Math.floor(i / 3), localId: i % 3 }))
  const rand = seededRandom(9)
  const hfs: number[] = []
  for (let k = 0; k < 4; k++) {
    const cols = 12, rows = 9
    const heights = Array.from({ length: cols * rows }, () => rand() * 3)
    hfs.push(sim.addCollider({ kind: 'heightfield', origin: [0, 0, 0], cellSize: 1.5, columns: cols, rows, heights }, {
      position: [(rand() - 0.5) * 50, (rand() - 0.5) * 50, rand() * 5], rotation: [0, 0, Math.sin(k), Math.cos(k)], group: 8,
    }))
  }
  return { sim, eids, hfs }
}

/** Signed distance from world point p to collider e (independent of the ray code). */
function sdf(sim: Sim, e: number, p: number[]): number {
  const C = sim.components.Collider
  const R = C.rotation, P = C.position, q = C.params
  const w = [p[0] - P[e * 3], p[1] - P[e * 3 + 1], p[2] - P[e * 3 + 2]]
  const l = [0, 1, 2].map((c) => R[e * 9 + c] * w[0] + R[e * 9 + 3 + c] * w[1] + R[e * 9 + 6 + c] * w[2])
  const [x, y, z] = l
  switch (C.kind[e]) {
    case ColliderKind.sphere: return Math.hypot(x, y, z) - q[e * 4]
    case ColliderKind.box: {
      const d = [Math.abs(x) - q[e * 4], Math.abs(y) - q[e * 4 + 1], Math.abs(z) - q[e * 4 + 2]]
      return Math.hypot(...d.map((v) => Math.max(v, 0))) + Math.min(Math.max(...d), 0)
    }
    case ColliderKind.capsule: {
      const hh = q[e * 4 + 1], cz = Math.max(-hh, Math.min(hh, z))
      return Math.hypot(x, y, z - cz) - q[e * 4]
    }
    case ColliderKind.cylinder: {
      const dr = Math.hypot(x, y) - q[e * 4], dz = Math.abs(z) - q[e * 4 + 1]
      return Math.hypot(Math.max(dr, 0), Math.max(dz, 0)) + Math.min(Math.max(dr, dz), 0)
    }
    case ColliderKind.plane: return z
    default: return NaN
  }
}

function rays(seed: number) {
  const rand = seededRandom(seed)
  const out: { o: number[]; d: number[] }[] = []
  for (let i = 0; i < N_RAYS; i++) {
    const o = [(rand() - 0.5) * 70, (rand() - 0.5) * 70, rand() * 12]
    let d = [rand() - 0.5, rand() - 0.5, rand() - 0.6]
    const n = Math.hypot(...d)
    d = d.map((v) => v / n)
    out.push({ o, d })
  }
  return out
}

beforeAll(async () => { await RAPIER.init() })

describe('randomized scene against brute force and Rapier', () => {
  const { sim, eids, hfs } = buildSim()
  const all = [sim.ground, ...eids, ...hfs]
  const state = sim.internal.collision
  const C = sim.components.Collider
  const masks = [-1, 1, 6, 8, 5, -1]

  it('rayTest equals the brute-force closest hit of every collider (filters and masks included)', () => {
    const rs = rays(1)
    let hits = 0, surfaceChecked = 0, worstSdf = 0, shapeHits = 0, hfHits = 0
    for (let i = 0; i < rs.length; i++) {
      const { o, d } = rs[i]
      const mask = masks[i % masks.length]
      const self = i % 4 === 0 ? 1000 + (i % 600) : -1, selfLocal = i % 4 === 0 ? i % 3 : -1
      const [bestE, best] = bruteForce(sim, all, o, d, 80, mask, self, selfLocal)
      const list = sim.rayTest(o, d, 80, self, selfLocal, mask)
      if (bestE < 0) { expect(list.size(), `ray ${i}`).toBe(0); continue }
      expect(list.size(), `ray ${i}`).toBe(1)
      const h = list.at(0)!
      expect(h.collider, `ray ${i}`).toBe(bestE)
      expect(Math.abs(h.distance - best), `ray ${i}`).toBeLessThanOrEqual(1e-6)
      hits++
      if (C.kind[bestE] === ColliderKind.heightfield) hfHits++
      else if (bestE !== sim.ground) shapeHits++
      if (h.distance > 0 && C.kind[bestE] !== ColliderKind.heightfield) {
        const s = Math.abs(sdf(sim, bestE, Array.from(h.position)))
        worstSdf = Math.max(worstSdf, s)
        surfaceChecked++
      }
    }
    expect(hits).toBeGreaterThan(N_RAYS / 2)
    expect(shapeHits).toBeGreaterThan(1000)
    expect(hfHits).toBeGreaterThan(50)
    expect(surfaceChecked).toBeGreaterThan(1000)
    expect(worstSdf).toBeLessThan(1e-9)
  })

  it('agrees with Rapier castRay (solid) on the same shapes, heightfields aside', () => {
    const { world, indexOf } = buildRapierWorld(RAPIER, shapes, 0)
    const tmp = new Float64Array(4)
    const rs = rays(2)
    let cylinderRim = 0, other = 0, hits = 0, shapeHits = 0
    const isCyl = (e: number) => e >= 0 && C.kind[e] === ColliderKind.cylinder
    for (let i = 0; i < rs.length; i++) {
      const { o, d } = rs[i]
      const ours = sim.rayTest(o, d, 80, -1, -1, 7)
      const rh = world.castRay(new RAPIER.Ray({ x: o[0], y: o[1], z: o[2] }, { x: d[0], y: d[1], z: d[2] }), 80, true)
      const theirs = rh ? indexOf.get(rh.collider.handle)! : undefined
      const theirE = theirs === undefined ? -2 : theirs < 0 ? sim.ground : eids[theirs]
      const ourE = ours.size() ? ours.at(0)!.collider : -2
      const ourT = ours.size() ? ours.at(0)!.distance : Infinity
      if (ourE >= 0) hits++
      if (ourE >= 0 && ourE !== sim.ground) shapeHits++
      if (ourE === theirE && (ourE < 0 || Math.abs(ourT - rh!.timeOfImpact) <= 1e-4 * Math.max(1, ourT))) continue
      // a near-tie between two colliders is not a disagreement: our exact distance to Rapier's pick
      if (theirE >= 0 && ourE >= 0 && rayCollider(state, theirE, o[0], o[1], o[2], d[0], d[1], d[2], 80, tmp) && Math.abs(tmp[0] - ourT) <= 1e-4 * Math.max(1, ourT)) continue
      if (isCyl(ourE) || isCyl(theirE)) cylinderRim++
      else other++
    }
    world.free()
    expect(hits).toBeGreaterThan(N_RAYS / 2)
    expect(shapeHits).toBeGreaterThan(1000)
    expect(other).toBe(0)
    expect(cylinderRim).toBeLessThanOrEqual(10)
  })
})
