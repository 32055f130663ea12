// Bad input to addCollider / setPose: the right error type, a message naming the argument, and no change.
import { describe, expect, it } from 'vitest'
import { makeSim, cast } from './helpers'

describe('addCollider validation', () => {
  const cases: [unknown, unknown, ErrorConstructor, RegExp][] = [
    [null, undefined, TypeError, /^shape/],
    [{ kind: 'cone', radius: 1 }, undefined, RangeError, /shape\.kind/],
    [{ kind: 'sphere' }, undefined, TypeError, /shape\.radius/],
    [{ kind: 'sphere', radius: -1 }, undefined, RangeError, /shape\.radius/],
    [{ kind: 'sphere', radius: NaN }, undefined, RangeError, /shape\.radius/],
    [{ kind: 'box', halfExtents: [1, 1] }, undefined, RangeError, /shape\.halfExtents/],
    [{ kind: 'box', halfExtents: [1, 0, 1] }, undefined, RangeError, /shape\.halfExtents\[1\]/],
    [{ kind: 'capsule', radius: 1, halfHeight: -1 }, undefined, RangeError, /shape\.halfHeight/],
    [{ kind: 'cylinder', radius: 1, halfHeight: 0 }, undefined, RangeError, /shape\.halfHeight/],
    [{ kind: 'heightfield', origin: [0], cellSize: 1, columns: 2, rows: 2, heights: [0, 0, 0, 0] }, undefined, RangeError, /shape\.origin/],
    [{ kind: 'heightfield', origin: [0, 0], cellSize: 0, columns: 2, rows: 2, heights: [0, 0, 0, 0] }, undefined, RangeError, /shape\.cellSize/],
    [{ kind: 'heightfield', origin: [0, 0], cellSize: 1, columns: 1.5, rows: 2, heights: [0, 0, 0, 0] }, undefined, RangeError, /shape\.columns/],
    [{ kind: 'heightfield', origin: [0, 0], cellSize: 1, columns: 2, rows: 2, heights: [0, 0, 0] }, undefined, RangeError, /shape\.heights/],
    [{ kind: 'heightfield', origin: [0, 0], cellSize: 1, columns: 2, rows: 2, heights: [0, 0, NaN, 0] }, undefined, RangeError, /shape\.heights\[2\]/],
    [{ kind: 'sphere', radius: 1 }, 5, TypeError, /^options/],
    [{ kind: 'sphere', radius: 1 }, { position: [0, NaN, 0] }, RangeError, /options\.position\[1\]/],
    [{ kind: 'sphere', radius: 1 }, { position: [0, 0, 0, 0] }, RangeError, /options\.position/],
    [{ kind: 'sphere', radius: 1 }, { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 2] }, RangeError, /options\.rotation/],
    [{ kind: 'sphere', radius: 1 }, { rotation: [1, 0, 0, 0, 1, 0, 0, 0, -1] }, RangeError, /options\.rotation/],
    [{ kind: 'sphere', radius: 1 }, { rotation: [0, 0, 0, 0] }, RangeError, /options\.rotation/],
    [{ kind: 'sphere', radius: 1 }, { rotation: [0, 0, 1] }, RangeError, /options\.rotation/],
    [{ kind: 'sphere', radius: 1 }, { group: 1.5 }, RangeError, /options\.group/],
    [{ kind: 'sphere', radius: 1 }, { group: '1' }, TypeError, /options\.group/],
    [{ kind: 'sphere', radius: 1 }, { object: 2 ** 40 }, RangeError, /options\.object/],
    [{ kind: 'sphere', radius: 1 }, { localId: null }, TypeError, /options\.localId/],
    [{ kind: 'sphere', radius: 1 }, { name: 3 }, TypeError, /options\.name/],
  ]
  it.each(cases.map((c, i) => [i, ...c] as const))('case %i throws the right error naming the argument and changes nothing', (_i, shape, options, Err, re) => {
    const sim = makeSim({ height: 0 })
    const first = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [5, 0, 1] })
    const v = sim.internal.collision.version
    let err: unknown
    try { sim.addCollider(shape as never, options as never) } catch (e) { err = e }
    expect(err).toBeInstanceOf(Err)
    expect((err as Error).message).toMatch(re)
    expect(sim.internal.collision.version).toBe(v)
    // no entity was created: the next id is the one right after `first`
    expect(sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [50, 0, 1] })).toBe(first + 1)
    expect(cast(sim, [0, 0, 1], [1, 0, 0], 100)!.collider).toBe(first)
  })
})

describe('setPose validation', () => {
  const bad: [unknown, unknown, ErrorConstructor, RegExp][] = [
    [undefined, undefined, TypeError, /^position/],
    [[1, 2, 3, 4], undefined, RangeError, /^position/],
    [[1, Infinity, 3], undefined, RangeError, /^position\[1\]/],
    [[1, 2, 3], [1, 0, 0, 0, 1, 0, 0, 0], RangeError, /^rotation/],
    [[1, 2, 3], [2, 0, 0, 0, 1, 0, 0, 0, 1], RangeError, /^rotation/],
    [[1, 2, 3], [0, 0, 0, NaN], RangeError, /^rotation\[3\]/],
    [[1, 2, 3], 'up', TypeError, /^rotation/],
  ]
  it.each(bad.map((c, i) => [i, ...c] as const))('case %i throws naming the argument; pose unchanged', (_i, position, rotation, Err, re) => {
    const sim = makeSim()
    const e = sim.addCollider({ kind: 'box', halfExtents: [1, 1, 1] }, { position: [5, 0, 0] })
    const v = sim.internal.collision.version
    let err: unknown
    // @ts-expect-error deliberately malformed
    try { sim.setPose(e, position, rotation) } catch (x) { err = x }
    expect(err).toBeInstanceOf(Err)
    expect((err as Error).message).toMatch(re)
    expect(sim.internal.collision.version).toBe(v)
    expect(Array.from(sim.components.Collider.position.subarray(e * 3, e * 3 + 3))).toEqual([5, 0, 0])
    expect(Array.from(sim.components.Collider.rotation.subarray(e * 9, e * 9 + 9))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1])
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)!.distance).toBe(4)
  })
  it('sim.setPose on something that is not an entity throws naming eid', () => {
    const sim = makeSim()
    expect(() => sim.setPose(-1, [0, 0, 0])).toThrow(/eid/)
    expect(() => sim.setPose(12345, [0, 0, 0])).toThrow(/eid/)
  })
})
