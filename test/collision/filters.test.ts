// Ray rules of DESIGN section 5 and scene bookkeeping: self-filter, masks, removal (sim.remove and
// raw bitecs removeEntity), recycled ids, raw addComponent, lazy refit after setPose, list reuse.
import { describe, expect, it } from 'vitest'
import { addComponent, addEntity, removeEntity } from 'bitecs'
import { ColliderKind } from '../../components/collider'
import { markColliderChanged } from '../../src/collision/state'
import { makeSim, cast } from './helpers'

describe('self-filter and masks', () => {
  const sim = makeSim()
  const near = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [5, 0, 0], object: 7, localId: 2, group: 2 })
  const far = sim.addCollider({ kind: 'box', halfExtents: [1, 1, 1] }, { position: [20, 0, 0], object: 7, localId: 3, group: 1 })
  it('defaults: object = own eid, localId 0, group 1 — here overridden', () => {
    const h = cast(sim, [0, 0, 0], [1, 0, 0], 100)!
    expect(h).toMatchObject({ collider: near, object: 7, localId: 2 })
  })
  it('ignores the body whose object AND localId both match, only when both are ≥ 0', () => {
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, 7, 2)!.collider).toBe(far)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, 7, 3)!.collider).toBe(near)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, 7, -1)!.collider).toBe(near)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, -1, 2)!.collider).toBe(near)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, 8, 2)!.collider).toBe(near)
  })
  it('hits only when (group & mask) !== 0', () => {
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, -1, -1, 1)!.collider).toBe(far)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, -1, -1, 2)!.collider).toBe(near)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, -1, -1, 4)).toBeNull()
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100, -1, -1, 0)).toBeNull()
    const s2 = makeSim()
    const top = s2.addCollider({ kind: 'sphere', radius: 1 }, { position: [5, 0, 0], group: 0x80000000 })
    expect(cast(s2, [0, 0, 0], [1, 0, 0], 100, -1, -1, 0x80000000)!.collider).toBe(top)
    expect(cast(s2, [0, 0, 0], [1, 0, 0], 100, -1, -1, 0x7fffffff)).toBeNull()
  })
  it('defaults are object = eid, localId = 0, group = 1', () => {
    const s2 = makeSim()
    const e = s2.addCollider({ kind: 'sphere', radius: 1 }, { position: [5, 0, 0], name: 'ball' })
    expect(cast(s2, [0, 0, 0], [1, 0, 0], 100)).toMatchObject({ collider: e, object: e, localId: 0 })
    expect(s2.components.Collider.group[e]).toBe(1)
    expect(s2.components.Collider.name[e]).toBe('ball')
  })
})

describe('ray argument rules', () => {
  const sim = makeSim()
  sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [0, 0, 5] })
  it('normalises the direction; a zero direction means +z', () => {
    expect(cast(sim, [0, 0, 0], [0, 0, 1e-200], 100)!.distance).toBe(4)
    expect(cast(sim, [0, 0, 0], [0, 0, 7e200], 100)!.distance).toBe(4)
    expect(cast(sim, [0, 0, 0], [0, 0, 0], 100)!.distance).toBe(4)
    const h = cast(sim, [-5, 0, 0], [5, 0, 5], 100)!
    expect(h.position[0] + 5).toBeCloseTo(h.distance * Math.SQRT1_2, 12)
    expect(h.position[2]).toBeCloseTo(h.distance * Math.SQRT1_2, 12)
  })
  it('length ≤ 0 or anything non-finite or malformed gives no hit and never throws', () => {
    const bad: unknown[][] = [
      [[0, 0, 0], [0, 0, 1], 0], [[0, 0, 0], [0, 0, 1], -1], [[0, 0, 0], [0, 0, 1], NaN], [[0, 0, 0], [0, 0, 1], Infinity],
      [[NaN, 0, 0], [0, 0, 1], 10], [[0, 0, 0], [0, Infinity, 1], 10], [[0, 0, 0], [0, 0, 1], 10, NaN], [[0, 0, 0], [0, 0, 1], 10, -1, Infinity],
      [[0, 0, 0], [0, 0, 1], 10, -1, -1, NaN], [undefined, [0, 0, 1], 10], [[0, 0], [0, 0, 1], 10], [[0, 0, 0], null, 10],
      [[0, 0, 0], [0, 0, 1], '10'], [['0', 0, 0], [0, 0, 1], 10],
    ]
    for (const args of bad) {
      // @ts-expect-error deliberately malformed
      expect(sim.rayTest(...args).size(), JSON.stringify(args)).toBe(0)
    }
  })
  it('returns one reused list, overwritten by the next call; at() and iteration', () => {
    const a = sim.rayTest([0, 0, 0], [0, 0, 1], 100)
    expect(a.size()).toBe(1)
    expect([...a].length).toBe(1)
    expect(a.at(1)).toBeUndefined()
    const b = sim.rayTest([0, 0, 0], [0, 0, -1], 100)
    expect(b).toBe(a)
    expect(a.size()).toBe(0)
    expect([...a]).toEqual([])
    expect(a.at(0)).toBeUndefined()
  })
  it('exact ties go to the lowest entity id', () => {
    const s2 = makeSim()
    const e1 = s2.addCollider({ kind: 'box', halfExtents: [1, 1, 1] }, { position: [5, 0, 0] })
    const e2 = s2.addCollider({ kind: 'box', halfExtents: [1, 2, 1] }, { position: [5, 0, 0] })
    expect(cast(s2, [0, 0, 0], [1, 0, 0], 100)!.collider).toBe(Math.min(e1, e2))
    s2.remove(e1)
    expect(cast(s2, [0, 0, 0], [1, 0, 0], 100)!.collider).toBe(e2)
  })
})

describe('scene changes', () => {
  it('removed colliders are never hit (sim.remove and raw removeEntity), even before a step', () => {
    const sim = makeSim()
    const a = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [5, 0, 0] })
    const b = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [10, 0, 0] })
    const c = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [15, 0, 0] })
    sim.step(1 / 60)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)!.collider).toBe(a)
    sim.remove(a)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)!.collider).toBe(b)
    removeEntity(sim.world, b)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)!.collider).toBe(c)
    sim.step(1 / 60)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)!.collider).toBe(c)
  })
  it('a recycled entity id does not inherit the old shape, pose, ids, group or name', () => {
    const sim = makeSim()
    const a = sim.addCollider({ kind: 'box', halfExtents: [3, 3, 3] }, { position: [10, 0, 0], group: 4, object: 99, localId: 5, name: 'old' })
    sim.step(1 / 60)
    sim.remove(a)
    const b = sim.addCollider({ kind: 'sphere', radius: 0.5 }, { position: [20, 0, 0] })
    expect(b).toBe(a) // bitecs recycles at once
    const h = cast(sim, [0, 0, 0], [1, 0, 0], 100)!
    expect(h).toMatchObject({ collider: b, object: b, localId: 0, distance: 19.5 })
    expect(sim.components.Collider.name[b]).toBeUndefined()
    expect(sim.components.Collider.group[b]).toBe(1)
    // raw reuse: the recycled id joins with kind none (never hit) until its fields are written
    removeEntity(sim.world, b)
    const e = addEntity(sim.world)
    addComponent(sim.world, e, sim.components.Collider)
    expect(sim.components.Collider.kind[e]).toBe(ColliderKind.none)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)).toBeNull()
  })
  it('a collider added with raw addComponent and written fields is picked up at the next step or query', () => {
    const sim = makeSim()
    const C = sim.components.Collider
    const e = addEntity(sim.world)
    addComponent(sim.world, e, C)
    C.kind[e] = ColliderKind.sphere
    C.params[e * 4] = 2
    C.position[e * 3] = 10
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)).toMatchObject({ collider: e, distance: 8 })
    // later raw writes need markColliderChanged
    C.position[e * 3] = 30
    markColliderChanged(sim.internal.collision, e)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)).toMatchObject({ collider: e, distance: 28 })
  })
  it('setPose moves a collider: queries see the new pose at once (lazy refit), static and dynamic', () => {
    const sim = makeSim()
    const state = sim.internal.collision
    const others = [] as number[]
    for (let i = 0; i < 50; i++) others.push(sim.addCollider({ kind: 'sphere', radius: 0.5 }, { position: [i * 3, 50, 0] }))
    const m = sim.addCollider({ kind: 'box', halfExtents: [1, 1, 1] }, { position: [10, 0, 0] })
    sim.step(1 / 60)
    const v0 = state.version
    sim.setPose(m, [30, 0, 0])
    expect(state.version).toBeGreaterThan(v0)
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)).toMatchObject({ collider: m, distance: 29 })
    for (let k = 0; k < 5; k++) {
      sim.setPose(m, [40 + k, 0, 0], [0, 0, 0, 1])
      expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)).toMatchObject({ collider: m, distance: 39 + k })
      sim.step(1 / 60)
    }
    // [x, y] means ground height (no ground here: 0); turned 45° about z its corner points at the ray
    sim.setPose(m, [60, 0], [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)])
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)!.distance).toBeCloseTo(60 - Math.SQRT2, 12)
    expect(cast(sim, [0, 50, 0], [1, 0, 0], 100)!.collider).toBe(others[0])
  })
  it('the version counter increments on add, remove and move', () => {
    const sim = makeSim()
    const st = sim.internal.collision
    let v = st.version
    const e = sim.addCollider({ kind: 'sphere', radius: 1 })
    expect(st.version).toBeGreaterThan(v); v = st.version
    sim.setPose(e, [1, 2, 3])
    expect(st.version).toBeGreaterThan(v); v = st.version
    sim.step(1 / 60)
    expect(st.version).toBe(v)
    sim.remove(e)
    expect(st.version).toBeGreaterThan(v)
  })
  it('the ground cannot be removed through sim.remove, and no-ground sims have ground −1', () => {
    const sim = makeSim({ height: 0 })
    expect(() => sim.remove(sim.ground)).toThrow(RangeError)
    expect(makeSim().ground).toBe(-1)
  })
})
