/** The mesh shape: validation (nothing registered on refusal), two-sided hits, the triangle index, poses. */
import { describe, expect, it } from 'vitest'
import { makeSim, cast, quat, rng } from './helpers'
import { terrainMesh } from '../../bench/mesh-scenes.mjs'
import { mesh, box, colliderMesh } from '../../src/index'

// a unit square in the xy plane at z = 0, two triangles: (0,1,2) and (0,2,3)
const quadV = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]
const quadI = [0, 1, 2, 0, 2, 3]

describe('mesh validation', () => {
  it('refuses a non-finite coordinate, an index out of range and an index count not a multiple of three, naming what is wrong, and registers nothing', () => {
    const sim = makeSim()
    const before = sim.internal.collision.version
    expect(() => sim.addCollider(mesh([0, 0, 0, 1, 0, NaN, 0, 1, 0], [0, 1, 2]))).toThrow(RangeError)
    expect(() => sim.addCollider(mesh([0, 0, 0, 1, 0, NaN, 0, 1, 0], [0, 1, 2]))).toThrow(/shape\.vertices\[5\].*finite/)
    expect(() => sim.addCollider(mesh([0, 0, 0, 1, 0, Infinity, 0, 1, 0], [0, 1, 2]))).toThrow(/vertices\[5\]/)
    expect(() => sim.addCollider(mesh(quadV, [0, 1, 4]))).toThrow(RangeError)
    expect(() => sim.addCollider(mesh(quadV, [0, 1, 4]))).toThrow(/shape\.indices\[2\].*\[0, 3\].*got 4/)
    expect(() => sim.addCollider(mesh(quadV, [0, 1, -1]))).toThrow(/indices\[2\]/)
    expect(() => sim.addCollider(mesh(quadV, [0, 1, 1.5]))).toThrow(/indices\[2\]/)
    expect(() => sim.addCollider(mesh(quadV, [0, 1, 2, 0]))).toThrow(RangeError)
    expect(() => sim.addCollider(mesh(quadV, [0, 1, 2, 0]))).toThrow(/shape\.indices.*multiple of 3.*got 4/)
    expect(() => sim.addCollider(mesh([0, 0, 0, 1], [0]))).toThrow(/shape\.vertices.*multiple of 3/)
    expect(() => sim.addCollider(mesh(null as never, quadI))).toThrow(TypeError)
    expect(() => sim.addCollider(mesh(quadV, 'abc' as never))).toThrow(TypeError)
    expect(() => sim.addCollider(mesh(['a', 0, 0] as never, []))).toThrow(/vertices\[0\].*number/)
    expect(sim.internal.collision.version).toBe(before)
    expect(sim.internal.collision.maxEid).toBe(0)
    expect(sim.rayTest([0.5, 0.5, 1], [0, 0, -1], 5).size()).toBe(0)
  })

  it('skips zero-area triangles (their indices still count) and accepts typed arrays and an empty mesh', () => {
    const sim = makeSim()
    // triangle 0 repeats a corner, triangle 1 is collinear, triangle 2 is the real one
    const v = new Float32Array([0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0])
    const e = sim.addCollider(mesh(v, new Uint16Array([0, 0, 1, 0, 1, 2, 0, 1, 3])))
    const h = sim.rayTest([0.2, 0.2, 1], [0, 0, -1], 5).at(0)!
    expect(h.collider).toBe(e)
    expect(h.triangle).toBe(2)
    const m = sim.internal.collision.meshes[sim.components.Collider.mesh[e]]!
    expect(m.triangleCount).toBe(3)
    expect(m.treeTriangles).toBe(1)
    const empty = sim.addCollider(mesh([], []), { position: [50, 0, 0] })
    expect(sim.rayTest([50, 0, 1], [0, 0, -1], 5).size()).toBe(0)
    expect(empty).toBeGreaterThan(e)
  })
})

describe('mesh rays', () => {
  it('hit from either side with the normal facing the start, report the triangle, and −1 for other shapes', () => {
    const sim = makeSim()
    sim.addCollider(mesh(quadV, quadI))
    const down = cast(sim, [0.75, 0.25, 2], [0, 0, -1], 5)!
    expect(down.distance).toBe(2)
    expect(down.normal).toEqual([0, 0, 1])
    expect(sim.rayTest([0.75, 0.25, 2], [0, 0, -1], 5).at(0)!.triangle).toBe(0)
    const up = cast(sim, [0.25, 0.75, -3], [0, 0, 1], 5)!
    expect(up.distance).toBe(3)
    expect(up.normal).toEqual([0, 0, -1])
    expect(sim.rayTest([0.25, 0.75, -3], [0, 0, 1], 5).at(0)!.triangle).toBe(1)
    // a ray in the plane of the quad meets no triangle face; beside it, nothing
    expect(cast(sim, [-1, 0.5, 0], [1, 0, 0], 5)).toBeNull()
    expect(cast(sim, [1.5, 0.5, 1], [0, 0, -1], 5)).toBeNull()
    // beyond the length: no hit; exactly at the length: a hit
    expect(cast(sim, [0.5, 0.2, 2], [0, 0, -1], 1.999)).toBeNull()
    expect(cast(sim, [0.5, 0.2, 2], [0, 0, -1], 2)!.distance).toBe(2)
    const b = sim.addCollider(box(0.1, 0.1, 0.1), { position: [5, 5, 0] })
    const hb = sim.rayTest([5, 5, 1], [0, 0, -1], 5).at(0)!
    expect(hb.collider).toBe(b)
    expect(hb.triangle).toBe(-1)
  })

  it('a ray starting on the surface hits at 0 in either direction (no inside), also on a rotated pose', () => {
    const sim = makeSim()
    sim.addCollider(mesh(quadV, quadI))
    for (const dz of [1, -1]) {
      const h = cast(sim, [0.3, 0.6, 0], [0.2, 0.1, dz], 5)!
      expect(h.distance).toBe(0)
      expect(h.normal[2]).toBe(-dz)
    }
    const sim2 = makeSim()
    const q = quat(0.3, -0.5, 0.8, 1.1)
    const e = sim2.addCollider(mesh(quadV, quadI), { position: [10.3, -4.7, 2.9], rotation: q })
    // the world point of local (0.4, 0.3, 0)
    const R = sim2.components.Collider.rotation, P = sim2.components.Collider.position
    const w = [0, 1, 2].map((i) => P[3 * e + i] + R[9 * e + 3 * i] * 0.4 + R[9 * e + 3 * i + 1] * 0.3)
    const n = [R[9 * e + 2], R[9 * e + 5], R[9 * e + 8]]
    // off the surface by the pose's rounding only: one way or both it hits at about 0
    const hits = [1, -1].map((s) => cast(sim2, w, [s * n[0] + 0.1, s * n[1], s * n[2]], 5)).filter((h) => h !== null)
    expect(hits.length).toBeGreaterThan(0)
    for (const h of hits) expect(h!.distance).toBeLessThan(1e-12)
  })

  it('moves with setPose without rebuilding its tree', () => {
    const sim = makeSim()
    const e = sim.addCollider(mesh(quadV, quadI))
    const m = sim.internal.collision.meshes[sim.components.Collider.mesh[e]]!
    const nodes = m.nodes
    sim.setPose(e, [10, 0, 1], quat(1, 0, 0, Math.PI))
    expect(cast(sim, [0.5, 0.5, 3], [0, 0, -1], 5)).toBeNull()
    const h = cast(sim, [10.5, -0.5, 3], [0, 0, -1], 5)!
    expect(h.distance).toBeCloseTo(2, 12)
    expect(h.normal[2]).toBeCloseTo(1, 12)
    expect(sim.internal.collision.meshes[sim.components.Collider.mesh[e]]!.nodes).toBe(nodes)
  })

  it('gives its geometry back through colliderMesh (null for other shapes, refusing non-colliders)', () => {
    const sim = makeSim()
    const e = sim.addCollider(mesh(new Float32Array(quadV), quadI))
    const g = colliderMesh(sim, e)!
    expect(g.vertices).toBeInstanceOf(Float64Array)
    expect(Array.from(g.vertices)).toEqual(quadV)
    expect(Array.from(g.indices)).toEqual(quadI)
    expect(colliderMesh(sim, sim.addCollider(box(1, 1, 1)))).toBeNull()
    expect(() => colliderMesh(sim, -1)).toThrow(RangeError)
    expect(() => colliderMesh(sim, 'a' as never)).toThrow(TypeError)
  })

  it('is watertight: rays aimed at shared edges and vertices of a posed terrain never slip through', () => {
    const sim = makeSim()
    const t = terrainMesh({ cells: 30, cellSize: 0.7, amp: 1.5, seed: 4 })
    const q = quat(0.2, 0.1, 1, 0.6)
    const e = sim.addCollider(mesh(t.vertices, t.indices), { position: [1.1, -0.3, 0.2], rotation: q })
    const C = sim.components.Collider, R = C.rotation.subarray(9 * e, 9 * e + 9), P = C.position.subarray(3 * e, 3 * e + 3)
    const world = (i: number) => [0, 1, 2].map((k) => P[k] + R[3 * k] * t.vertices[3 * i] + R[3 * k + 1] * t.vertices[3 * i + 1] + R[3 * k + 2] * t.vertices[3 * i + 2])
    const border = (i: number) => i % 31 === 0 || i % 31 === 30 || i < 31 || i >= 30 * 31
    const rand = rng(17)
    let missed = 0, cast = 0
    for (let r = 0; r < 5000; r++) {
      // a point on an interior edge (or a vertex), from 3..10 m above the surface's side, slanted
      const tri = 3 * Math.floor(rand() * (t.indices.length / 3)), k = Math.floor(rand() * 3)
      const ia = t.indices[tri + k], ib = t.indices[tri + ((k + 1) % 3)]
      if (border(ia) || border(ib)) continue // a border edge has nothing beyond it
      const a = world(ia), b = world(ib), f = r % 10 === 0 ? 0 : rand()
      const target = [0, 1, 2].map((j) => a[j] + f * (b[j] - a[j]))
      const up = [R[2], R[5], R[8]], h = 3 + 7 * rand()
      const o = [0, 1, 2].map((j) => target[j] + h * up[j] + (rand() - 0.5) * 2)
      const d = [target[0] - o[0], target[1] - o[1], target[2] - o[2]]
      const len = Math.hypot(d[0], d[1], d[2])
      const hit = sim.rayTest(o, d, len * 1.01).at(0)
      cast++
      if (!hit) missed++
      else expect(hit.distance).toBeLessThanOrEqual(len * (1 + 1e-12))
    }
    expect(cast).toBeGreaterThan(4000)
    expect(missed).toBe(0)
  })

  it('frees its data when removed', () => {
    const sim = makeSim()
    const e = sim.addCollider(mesh(quadV, quadI))
    sim.remove(e)
    expect(sim.rayTest([0.5, 0.5, 1], [0, 0, -1], 5).size()).toBe(0)
    expect(sim.internal.collision.meshes.filter((x) => x !== undefined).length).toBe(0)
  })
})
