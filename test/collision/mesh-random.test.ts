// Randomized, against the world: a posed, rotated mesh (hilly terrain plus random triangles, some
// sharing edges, one of zero area). Every rayTest hit must equal a brute-force f64 Möller–Trumbore
// over every triangle in world coordinates (both sides): the same hit or miss, the position within
// 1e-9 m and the same triangle except on shared edges. Rapier's trimesh castRay (f32) must agree
// within f32 precision.
import { beforeAll, describe, expect, it } from 'vitest'
import RAPIER from '@dimforge/rapier3d-compat'
import { makeSim } from './helpers'
import { seededRandom, randomQuat } from '../random'
import { terrainMesh, withRandomTriangles } from '../../bench/mesh-scenes.mjs'
import { mesh } from '../../src/index'

const N_RAYS = 20_000
const base = withRandomTriangles(terrainMesh({ cells: 24, cellSize: 1.25, amp: 2, seed: 3 }), 500, { spread: 14, size: 5, seed: 4 })
// one zero-area triangle (a repeated corner) at the end: never hit, its index still counts
const indices = new Uint32Array([...base.indices, 0, 0, 1])
const vertices = base.vertices
const T = indices.length / 3
const position = [3.7, -2.1, 1.3]
const rotation = randomQuat(seededRandom(21))

beforeAll(async () => { await RAPIER.init() })

function rotationMatrix(q: number[]): number[] {
  const [x, y, z, w] = q
  return [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]
}

/** The triangles in world coordinates (9 numbers each), through the test's own rotation. */
function worldTriangles(R: ArrayLike<number>, P: ArrayLike<number>): Float64Array {
  const W = new Float64Array(9 * T)
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < 3; c++) {
      const v = 3 * indices[3 * t + c], x = vertices[v], y = vertices[v + 1], z = vertices[v + 2]
      for (let i = 0; i < 3; i++) W[9 * t + 3 * c + i] = P[i] + R[3 * i] * x + R[3 * i + 1] * y + R[3 * i + 2] * z
    }
  }
  return W
}

/** Brute force: [t, triangle, smallest barycentric coordinate] of the nearest two-sided hit within len, or [Infinity, −1, 0]. */
function bruteForce(W: Float64Array, o: number[], d: number[], len: number): [number, number, number] {
  let best = Infinity, bestT = -1, bestB = 0
  for (let t = 0; t < T; t++) {
    const k = 9 * t
    const e1 = [W[k + 3] - W[k], W[k + 4] - W[k + 1], W[k + 5] - W[k + 2]]
    const e2 = [W[k + 6] - W[k], W[k + 7] - W[k + 1], W[k + 8] - W[k + 2]]
    const p = [d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]]
    const det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2]
    if (det === 0) continue
    const s = [o[0] - W[k], o[1] - W[k + 1], o[2] - W[k + 2]]
    const u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det
    if (u < 0 || u > 1) continue
    const q = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]]
    const v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det
    if (v < 0 || u + v > 1) continue
    const dist = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det
    if (dist < 0 || dist > len) continue
    if (dist < best) { best = dist; bestT = t; bestB = Math.min(u, v, 1 - u - v) }
  }
  return [best, bestT, bestB]
}

function randomRays(seed: number, W: Float64Array): { o: number[]; d: number[] }[] {
  const rand = seededRandom(seed), out: { o: number[]; d: number[] }[] = []
  for (let i = 0; i < N_RAYS; i++) {
    const o = [position[0] + (rand() - 0.5) * 60, position[1] + (rand() - 0.5) * 60, position[2] + (rand() - 0.5) * 40]
    let d: number[]
    if (i % 2 === 0) {
      // aimed at a random point of a random triangle, so about half the rays hit something
      const k = 9 * Math.floor(rand() * (T - 1)), a = rand(), b = rand() * (1 - a)
      const tgt = [0, 1, 2].map((j) => W[k + j] + a * (W[k + 3 + j] - W[k + j]) + b * (W[k + 6 + j] - W[k + j]))
      d = [tgt[0] - o[0], tgt[1] - o[1], tgt[2] - o[2]]
    } else d = [rand() - 0.5, rand() - 0.5, rand() - 0.5]
    const n = Math.hypot(d[0], d[1], d[2])
    out.push({ o, d: [d[0] / n, d[1] / n, d[2] / n] })
  }
  return out
}

describe('mesh rays against brute force and Rapier', () => {
  const sim = makeSim()
  const e = sim.addCollider(mesh(vertices, indices), { position, rotation })
  const W = worldTriangles(rotationMatrix(rotation), position)
  const rays = randomRays(8, W)
  const LEN = 80

  it(`every rayTest hit of ${N_RAYS} rays equals a brute-force f64 Möller–Trumbore over every triangle`, () => {
    let hits = 0, edgeSwaps = 0
    for (const { o, d } of rays) {
      const [t, tri, bary] = bruteForce(W, o, d, LEN)
      const list = sim.rayTest(o, d, LEN)
      if (t === Infinity) { expect(list.size(), `ray ${o} ${d}`).toBe(0); continue }
      expect(list.size(), `ray ${o} ${d}`).toBe(1)
      const h = list.at(0)!
      hits++
      expect(h.collider).toBe(e)
      for (let i = 0; i < 3; i++) expect(Math.abs(h.position[i] - (o[i] + t * d[i]))).toBeLessThan(1e-9)
      expect(Math.abs(h.distance - t)).toBeLessThan(1e-9)
      if (h.triangle !== tri) {
        // only on a shared edge (the brute force's hit within rounding of its triangle's border)
        expect(bary).toBeLessThan(1e-9)
        edgeSwaps++
      }
      // the normal: the hit triangle's, facing the start
      const k = 9 * h.triangle
      const e1 = [W[k + 3] - W[k], W[k + 4] - W[k + 1], W[k + 5] - W[k + 2]], e2 = [W[k + 6] - W[k], W[k + 7] - W[k + 1], W[k + 8] - W[k + 2]]
      const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]
      const nl = Math.hypot(n[0], n[1], n[2]), dot = (h.normal[0] * n[0] + h.normal[1] * n[1] + h.normal[2] * n[2]) / nl
      expect(Math.abs(Math.abs(dot) - 1)).toBeLessThan(1e-9)
      expect(h.normal[0] * d[0] + h.normal[1] * d[1] + h.normal[2] * d[2]).toBeLessThanOrEqual(0)
    }
    expect(hits).toBeGreaterThan(N_RAYS / 3)
    expect(edgeSwaps).toBeLessThan(N_RAYS / 1000)
  })

  it('runs of rays from one start (seen from there once the run is long) equal brute force too', () => {
    const rand = seededRandom(31)
    const m = sim.internal.collision.meshes[sim.components.Collider.mesh[e]]!
    for (const start of [[3, -1, 6], [position[0], position[1], position[2]], [-20, 5, -3]]) {
      let views = 0
      for (let i = 0; i < 6000; i++) {
        const d = [rand() - 0.5, rand() - 0.5, rand() - 0.5]
        const n = Math.hypot(d[0], d[1], d[2]); d[0] /= n; d[1] /= n; d[2] /= n
        const [t] = bruteForce(W, start, d, LEN)
        const list = sim.rayTest(start, d, LEN)
        if (m.viewCache.view !== null) views++
        if (t === Infinity) { expect(list.size()).toBe(0); continue }
        expect(list.size()).toBe(1)
        expect(Math.abs(list.at(0)!.distance - t)).toBeLessThan(1e-9)
      }
      expect(views).toBeGreaterThan(3000) // most of the run went through the view
    }
  })

  it('agrees with Rapier\'s trimesh castRay within f32 precision', () => {
    const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 })
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.fixed())
    // Rapier gets the triangles with area (it may refuse zero-area ones)
    const desc = RAPIER.ColliderDesc.trimesh(new Float32Array(vertices), indices.slice(0, indices.length - 3))
      .setTranslation(position[0], position[1], position[2]).setRotation({ x: rotation[0], y: rotation[1], z: rotation[2], w: rotation[3] })
    world.createCollider(desc, body)
    world.step()
    let agree = 0, hits = 0, grazing = 0
    for (const { o, d } of rays) {
      const ours = sim.rayTest(o, d, LEN)
      const rh = world.castRay(new RAPIER.Ray({ x: o[0], y: o[1], z: o[2] }, { x: d[0], y: d[1], z: d[2] }), LEN, true)
      const ourT = ours.size() ? ours.at(0)!.distance : Infinity
      const theirT = rh ? rh.timeOfImpact : Infinity
      if (ourT < Infinity) hits++
      if (ourT === theirT || Math.abs(ourT - theirT) <= 1e-4 * Math.max(1, ourT)) { agree++; continue }
      // f32 vertices move an edge by about 1e-6 m: a ray that close to an edge may pass on the other side
      const [, , bary] = bruteForce(W, o, d, LEN)
      if (bary < 1e-4) grazing++
      else {
        const [t2, , b2] = bruteForce(W, o, d, theirT === Infinity ? LEN : theirT * (1 + 1e-4) + 1e-6)
        expect(Math.min(b2, bary), `ray ${o} ${d}: ours ${ourT}, Rapier ${theirT} (${t2})`).toBeLessThan(1e-4)
        grazing++
      }
    }
    world.free()
    expect(hits).toBeGreaterThan(N_RAYS / 3)
    expect(grazing).toBeLessThan(N_RAYS / 500)
    expect(agree).toBeGreaterThan(N_RAYS * 0.998)
  })
})
