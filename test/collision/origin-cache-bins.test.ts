// The origin cache's trig-free bins (diamond-angle yaw, uniform-dz pitch), its bounding-sphere
// pre-test and its plane frames must leave no blind spot: rays along every bin edge, the poles,
// the axes (±0 too), tangents to bounding spheres and starts inside the ground give exactly the
// BVH path's hits, bit for bit (collider, distance, position, normal).
import { describe, expect, it } from 'vitest'
import { makeSim, quat, rng } from './helpers'
import { randomShapes, addShapesToSim } from '../../bench/scenes.mjs'
import { markColliderChanged } from '../../src/collision/state'
import { mat3FromQuat } from '../../src/math/mat3'
import { rayCollider } from '../../src/collision/narrowphase'
import { normalizeDirection } from '../../src/collision/query'
import type { Sim } from '../../src/sim'

const bits = new Float64Array(7)
const bitsU = new BigUint64Array(bits.buffer)

/** Everything a hit reports, with exact bits. */
function signature(sim: Sim, start: ArrayLike<number>, d: ArrayLike<number>, len: number): string {
  const l = sim.rayTest(start, d, len)
  if (l.size() === 0) return 'none'
  const h = l.at(0)!
  bits[0] = h.distance; bits.set(h.position, 1); bits.set(h.normal, 4)
  return `${h.collider}:${h.object}:${h.localId}:${bitsU.join(',')}`
}

/** A unit-ish direction whose yaw has diamond angle q ∈ [0, 4) (the yaw bins' coordinate) at height z. */
function diamond(q: number, z: number): number[] {
  const j = Math.floor(q), r = q - j, h = Math.sqrt(1 - z * z)
  // quadrant j: r = |y| / (|x| + |y|) rising (1, 3) or falling (2, 4) with the yaw
  const ay = j % 2 === 0 ? r : 1 - r, ax = 1 - ay
  const x = j === 0 || j === 3 ? ax : -ax, y = j < 2 ? ay : -ay
  return [x * h, y * h, z]
}

/** Directions on and next to every yaw and pitch bin edge, the poles and the axes. */
function edgeDirections(): number[][] {
  const out: number[][] = []
  for (let k = 0; k < 256; k++) {
    for (const z of [-0.8, -0.21, 0, 0.05, 0.6]) {
      for (const jitter of [-1e-13, 0, 1e-13]) out.push(diamond(k / 64 + jitter < 0 ? 4 + jitter : k / 64 + jitter, z))
    }
  }
  for (let k = 0; k <= 128; k++) {
    for (const q of [0.3, 1.5, 2.25, 3.9]) {
      for (const jitter of [-1e-13, 0, 1e-13]) out.push(diamond(q, Math.max(-1, Math.min(1, -1 + k / 64 + jitter))))
    }
  }
  out.push([0, 0, 1], [0, 0, -1], [1e-300, 0, 1], [0, -1e-300, -1], [1e-12, -1e-12, -1], [-1e-12, 1e-12, 1])
  out.push([1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [-0, 1, 0], [1, -0, 0], [-1, -0, 0], [-0, -1, 0], [-0, -0, -1])
  return out
}

/** Rays cached (after a streak builds the cache) and through the BVH must report the same bits. */
function expectCacheEqualsBvh(sim: Sim, start: number[], dirs: number[][], len: number): void {
  const c = sim.internal.collision.originCache
  c.enabled = true
  for (const d of dirs) sim.rayTest(start, d, len) // the streak: builds the cache
  const cached = dirs.map((d) => signature(sim, start, d, len))
  expect(c.valid).toBe(true)
  c.enabled = false
  const bvh = dirs.map((d) => signature(sim, start, d, len))
  c.enabled = true
  let hits = 0
  for (let i = 0; i < dirs.length; i++) {
    if (cached[i] !== bvh[i]) expect(`ray ${i} [${dirs[i]}]: ${cached[i]}`).toBe(`ray ${i} [${dirs[i]}]: ${bvh[i]}`)
    if (cached[i] !== 'none') hits++
  }
  expect(hits).toBeGreaterThan(dirs.length / 10)
}

/** Every ground hit (cached) has rayCollider's own distance and normal, bit for bit (Object.is: signs of zeros too). */
function expectGroundHitsExact(sim: Sim, start: number[], dirs: number[][], len: number): void {
  const st = sim.internal.collision, g = sim.ground, d = new Float64Array(3), tmp = new Float64Array(4)
  let ground = 0
  for (const raw of dirs) {
    const l = sim.rayTest(start, raw, len)
    if (l.size() === 0 || l.at(0)!.collider !== g) continue
    normalizeDirection(raw, d)
    expect(rayCollider(st, g, start[0], start[1], start[2], d[0], d[1], d[2], len, tmp)).toBe(true)
    const h = l.at(0)!
    expect([h.distance, ...h.normal].every((v, i) => Object.is(v, tmp[i]))).toBe(true)
    ground++
  }
  expect(st.originCache.valid).toBe(true)
  expect(ground).toBeGreaterThan(dirs.length / 10)
}

describe('origin cache bins', () => {
  it('rays on and beside every bin edge, the poles and the axes hit what the BVH hits', () => {
    const sim = makeSim({ height: 0 })
    addShapesToSim(sim, randomShapes(500, { size: 30, seed: 21, zMin: 0, zMax: 14 }))
    // shapes straight above and below the start, and on the axes (rays along bin edges meet them)
    for (const p of [[0, 0, 12], [0, 0, 2], [8, 0, 6], [-8, 0, 6], [0, 8, 6], [0, -8, 6], [5, 5, 6], [-5, -5, 2]]) {
      sim.addCollider({ kind: 'sphere', radius: 0.5 }, { position: p })
    }
    expectCacheEqualsBvh(sim, [0, 0, 6], edgeDirections(), 40)
  })

  it('rays tangent to bounding spheres (the pre-test must not cut them) hit what the BVH hits', () => {
    const sim = makeSim({ height: 0 })
    const rand = rng(5)
    const dirs: number[][] = []
    for (let i = 0; i < 300; i++) {
      // a sphere, a box and a capsule, each grazed by rays at their bounding radius and just inside
      const cx = (rand() - 0.5) * 60, cy = (rand() - 0.5) * 60, cz = 1 + rand() * 8, r = 0.3 + rand() * 2
      const kind = i % 3
      if (kind === 0) sim.addCollider({ kind: 'sphere', radius: r }, { position: [cx, cy, cz] })
      else if (kind === 1) sim.addCollider({ kind: 'box', halfExtents: [r, r / 2, r / 3] }, { position: [cx, cy, cz], rotation: quat(rand(), rand(), rand(), rand() * 3) })
      else sim.addCollider({ kind: 'capsule', radius: r / 2, halfHeight: r / 2 }, { position: [cx, cy, cz], rotation: quat(1, 0, 0, Math.PI / 2) })
      const v = [cx, cy, cz - 5], D = Math.hypot(v[0], v[1], v[2])
      // perpendicular offsets of the bounding radius (box: half-diagonal) and a hair less
      const R = kind === 0 ? r : kind === 1 ? Math.hypot(r, r / 2, r / 3) : r
      const px = -v[1], py = v[0], pl = Math.hypot(px, py)
      for (const f of [1, 1 - 1e-9, 0.999, 0.5]) dirs.push([v[0] / D + (f * R / D) * px / pl, v[1] / D + (f * R / D) * py / pl, v[2] / D])
    }
    expectCacheEqualsBvh(sim, [0, 0, 5], dirs, 100)
  })

  it('plane frames: a start below the ground, a raised tilted ground, and ties', () => {
    const dirs = edgeDirections()
    // below the ground: every ray starts inside it (t = 0, normal −direction)
    const below = makeSim({ height: 2 })
    addShapesToSim(below, randomShapes(100, { size: 20, seed: 4 }))
    expectCacheEqualsBvh(below, [1, 2, -3], dirs, 30)
    expectGroundHitsExact(below, [1, 2, -3], dirs, 30)
    // a raised ground tilted by raw store writes, seen from above it
    const tilted = makeSim({ height: 1 })
    addShapesToSim(tilted, randomShapes(200, { size: 30, seed: 8, zMin: 2, zMax: 9 }))
    const st = tilted.internal.collision, g = tilted.ground
    const [qx, qy, qz, qw] = quat(1, 2, 0, 0.3)
    mat3FromQuat(tilted.components.Collider.rotation, g * 9, qx, qy, qz, qw)
    markColliderChanged(st, g)
    expectCacheEqualsBvh(tilted, [0.5, -0.25, 6], dirs, 50)
    expectGroundHitsExact(tilted, [0.5, -0.25, 6], dirs, 50)
    // a sphere whose surface lies on the ground: ties at equal distance go to the lower id
    const tie = makeSim({ height: 0 })
    tie.addCollider({ kind: 'box', halfExtents: [3, 3, 1] }, { position: [4, 0, -1] })
    addShapesToSim(tie, randomShapes(80, { size: 20, seed: 2 }))
    expectCacheEqualsBvh(tie, [0, 0, 3], dirs, 30)
  })
})
