// Per-shape ray tests against analytic answers (closed-form geometry worked out by hand).
import { describe, expect, it } from 'vitest'
import { makeSim, cast, quat } from './helpers'

const close = (a: number[], b: number[], eps = 1e-12) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i], -Math.log10(eps)))

describe('sphere', () => {
  const sim = makeSim()
  const s = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [5, 0, 0] })
  it('hits head-on at centre distance − r with the outward normal', () => {
    const h = cast(sim, [0, 0, 0], [1, 0, 0], 100)!
    expect(h.collider).toBe(s)
    expect(h.distance).toBe(4)
    expect(h.position).toEqual([4, 0, 0])
    close(h.normal, [-1, 0, 0])
  })
  it('off-centre: t = 5 − √(1 − b²)', () => {
    const h = cast(sim, [0, 0.6, 0], [1, 0, 0], 100)!
    expect(h.distance).toBeCloseTo(5 - 0.8, 12)
    close(h.normal, [-0.8, 0.6, 0])
  })
  it('misses just outside, a tangent ray hits', () => {
    expect(cast(sim, [0, 1.0000001, 0], [1, 0, 0], 100)).toBeNull()
    const h = cast(sim, [0, 0, 1], [1, 0, 0], 100)!
    expect(h.distance).toBe(5)
    close(h.normal, [0, 0, 1])
  })
  it('starting inside or on the surface hits at 0 with normal −direction', () => {
    for (const start of [[5, 0, 0], [5.5, 0.2, 0], [6, 0, 0]]) {
      const h = cast(sim, start, [0, 1, 0], 10)!
      expect(h.distance).toBe(0)
      expect(h.normal).toEqual([-0, -1, -0])
    }
  })
  it('counts a hit exactly at length, not beyond', () => {
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 4)!.distance).toBe(4)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 3.999999)).toBeNull()
  })
  it('a ray pointing away misses', () => {
    expect(cast(sim, [0, 0, 0], [-1, 0, 0], 100)).toBeNull()
  })
})

describe('box', () => {
  const sim = makeSim()
  const b = sim.addCollider({ kind: 'box', halfExtents: [1, 2, 3] }, { position: [10, 0, 0] })
  it('hits the near face', () => {
    const h = cast(sim, [0, 1.5, 2.5], [1, 0, 0], 100)!
    expect(h.collider).toBe(b)
    expect(h.distance).toBe(9)
    expect(h.normal).toEqual([-1, 0, 0])
  })
  it('diagonal entry through an edge region: t from the later slab', () => {
    // from (0, -10, 0) towards (10, 0, 0)·(1,1,0)/√2: enters x=9 at t=9√2 (y = −1 inside [−2, 2])
    const h = cast(sim, [0, -10, 0], [1, 1, 0], 100)!
    expect(h.distance).toBeCloseTo(9 * Math.SQRT2, 12)
    close(h.normal, [-1, 0, 0])
  })
  it('rays along a face and along an edge hit (tangent)', () => {
    const face = cast(sim, [0, 2, 0], [1, 0, 0], 100)!
    expect(face.distance).toBe(9)
    const edge = cast(sim, [0, 2, 3], [1, 0, 0], 100)!
    expect(edge.distance).toBe(9)
    expect(cast(sim, [0, 2.000001, 0], [1, 0, 0], 100)).toBeNull()
  })
  it('inside / on the surface → 0; exactly at length counts', () => {
    expect(cast(sim, [10, 0, 0], [0, 0, 1], 1)!.distance).toBe(0)
    expect(cast(sim, [11, 0, 0], [1, 0, 0], 1)!.distance).toBe(0)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 9)!.distance).toBe(9)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 8.99999)).toBeNull()
  })
  it('a box rotated 45° about z by Mat3 and by quaternion: the corner is at √2 from the centre', () => {
    const c = Math.SQRT1_2
    for (const rotation of [[c, -c, 0, c, c, 0, 0, 0, 1], quat(0, 0, 1, Math.PI / 4)]) {
      const s2 = makeSim()
      s2.addCollider({ kind: 'box', halfExtents: [1, 1, 1] }, { position: [10, 0, 0], rotation })
      const h = cast(s2, [0, 0, 0], [1, 0, 0], 100)!
      expect(h.distance).toBeCloseTo(10 - Math.SQRT2, 12)
      // hit the corner exactly: the normal is one of the two adjacent faces' normals
      expect(Math.abs(h.normal[0])).toBeCloseTo(c, 12)
      const off = cast(s2, [0, 0.5, 0], [1, 0, 0], 100)!
      expect(off.distance).toBeCloseTo(10 - Math.SQRT2 + 0.5, 12)
      close(off.normal, [-c, c, 0])
    }
  })
})

describe('capsule (axis local z)', () => {
  const sim = makeSim()
  sim.addCollider({ kind: 'capsule', radius: 0.5, halfHeight: 2 }, { position: [0, 0, 0] })
  it('side hit, cap hit from above, cap sphere off-axis', () => {
    expect(cast(sim, [-5, 0, 1], [1, 0, 0], 100)!.distance).toBe(4.5)
    const top = cast(sim, [0, 0, 10], [0, 0, -1], 100)!
    expect(top.distance).toBe(7.5)
    close(top.normal, [0, 0, 1])
    // horizontal ray at z = 2.3 hits the top sphere at x = −√(0.25 − 0.09) = −0.4
    const h = cast(sim, [-5, 0, 2.3], [1, 0, 0], 100)!
    expect(h.distance).toBeCloseTo(4.6, 12)
    close(h.normal, [-0.8, 0, 0.6])
  })
  it('tangent to the cylinder part and to the end sphere; misses beyond', () => {
    expect(cast(sim, [-5, 0.5, 0], [1, 0, 0], 100)!.distance).toBe(5)
    expect(cast(sim, [-5, 0, 2.5], [1, 0, 0], 100)!.distance).toBe(5)
    expect(cast(sim, [-5, 0, 2.5000001], [1, 0, 0], 100)).toBeNull()
  })
  it('inside → 0, hit at length counts', () => {
    expect(cast(sim, [0, 0, 2.4], [1, 0, 0], 3)!.distance).toBe(0)
    expect(cast(sim, [-5, 0, 0], [1, 0, 0], 4.5)!.distance).toBe(4.5)
    expect(cast(sim, [-5, 0, 0], [1, 0, 0], 4.4999)).toBeNull()
  })
  it('lying along x by rotation (quaternion 90° about y)', () => {
    const s2 = makeSim()
    s2.addCollider({ kind: 'capsule', radius: 0.5, halfHeight: 2 }, { position: [0, 0, 0], rotation: quat(0, 1, 0, Math.PI / 2) })
    expect(cast(s2, [-10, 0, 0], [1, 0, 0], 100)!.distance).toBeCloseTo(7.5, 12)
    expect(cast(s2, [0, 0, 10], [0, 0, -1], 100)!.distance).toBeCloseTo(9.5, 12)
  })
})

describe('cylinder (axis local z)', () => {
  const sim = makeSim()
  sim.addCollider({ kind: 'cylinder', radius: 1, halfHeight: 1 }, { position: [0, 0, 0] })
  it('side, cap and rim', () => {
    const side = cast(sim, [-5, 0, 0.5], [1, 0, 0], 100)!
    expect(side.distance).toBe(4)
    expect(side.normal).toEqual([-1, 0, 0])
    const cap = cast(sim, [0.5, 0.5, 5], [0, 0, -1], 100)!
    expect(cap.distance).toBe(4)
    expect(cap.normal).toEqual([0, 0, 1])
    // a 45° ray into the rim region: from (−3, 0, 3) along (1, 0, −1)/√2 reaches (−1, 0, 1) at t = 2√2
    const rim = cast(sim, [-3, 0, 3], [1, 0, -1], 100)!
    expect(rim.distance).toBeCloseTo(2 * Math.SQRT2, 12)
  })
  it('tangent to the side and along the cap plane hit; just outside misses', () => {
    expect(cast(sim, [-5, 1, 0], [1, 0, 0], 100)!.distance).toBe(5)
    expect(cast(sim, [-5, 0, 1], [1, 0, 0], 100)!.distance).toBe(4)
    expect(cast(sim, [-5, 0, 1.000001], [1, 0, 0], 100)).toBeNull()
    expect(cast(sim, [-5, 1.000001, 0], [1, 0, 0], 100)).toBeNull()
  })
  it('inside → 0 with normal −direction; at length counts', () => {
    const h = cast(sim, [0, 0, 0], [0, 0, 1], 5)!
    expect(h.distance).toBe(0)
    expect(h.normal).toEqual([-0, -0, -1])
    expect(cast(sim, [-5, 0, 0], [1, 0, 0], 4)!.distance).toBe(4)
  })
  it('tilted 90° about x (Mat3): the axis lies along y', () => {
    const s2 = makeSim()
    s2.addCollider({ kind: 'cylinder', radius: 1, halfHeight: 3 }, { position: [0, 0, 0], rotation: [1, 0, 0, 0, 0, -1, 0, 1, 0] })
    const end = cast(s2, [0, -10, 0], [0, 1, 0], 100)!
    expect(end.distance).toBe(7)
    close(end.normal, [0, -1, 0])
    expect(cast(s2, [0, 0, 10], [0, 0, -1], 100)!.distance).toBe(9)
  })
})

describe('ground plane', () => {
  const sim = makeSim({ height: 1.5 })
  it('is an entity with kind plane and group 1, hit from above', () => {
    expect(sim.ground).toBeGreaterThanOrEqual(0)
    const h = cast(sim, [3, 4, 11.5], [0, 0, -1], 100)!
    expect(h.collider).toBe(sim.ground)
    expect(h.object).toBe(sim.ground)
    expect(h.distance).toBe(10)
    expect(h.normal).toEqual([0, 0, 1])
    // slanted: from height 10 above, 45° down: distance 10√2
    expect(cast(sim, [0, 0, 11.5], [1, 0, -1], 100)!.distance).toBeCloseTo(10 * Math.SQRT2, 12)
  })
  it('the half-space below is solid; a ray along the surface starts inside; masks leave it out', () => {
    expect(cast(sim, [0, 0, -3], [0, 0, 1], 1)!.distance).toBe(0)
    expect(cast(sim, [0, 0, 1.5], [1, 0, 0], 1)!.distance).toBe(0)
    expect(cast(sim, [0, 0, 5], [1, 0, 0], 100)).toBeNull()
    expect(cast(sim, [0, 0, 5], [0, 0, -1], 100, -1, -1, ~1)).toBeNull()
  })
})
