// setColliderPoseFast against the reference rotation (mat3FromEuler) and AABB (computeAabb), bit for
// bit, over level bodies (pitch and roll ±0: the no-trig path) interleaved with tilted ones (the
// cached-trig path), parked poses and moves.
import { describe, expect, it } from 'vitest'
import { makeSim, rng } from './helpers'
import { setColliderPoseFast } from '../../src/collision/state'
import { computeAabb } from '../../src/collision/shapes'
import { mat3FromEuler } from '../../src/math/mat3'

const same = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).every((v, i) => Object.is(v, b[i]))

describe('setColliderPoseFast', () => {
  it('writes mat3FromEuler’s rotation and computeAabb’s box, for level and tilted bodies in any order', () => {
    const sim = makeSim()
    const st = sim.internal.collision
    const C = st.Collider
    const boxes = Array.from({ length: 12 }, (_, i) => sim.addCollider({ kind: 'box', halfExtents: [2.1 + 0.1 * i, 0.9, 0.7] }))
    const rand = rng(11)
    const R = new Float64Array(9), aabb = new Float64Array(6)
    const angles = [0, -0, 1e-300, -1e-300, 0.01, -0.02]
    for (let step = 0; step < 40; step++) {
      for (let i = 0; i < boxes.length; i++) {
        const e = boxes[i]
        const level = (i + step) % 3 !== 0
        const pitch = level ? angles[(i + step) % 2] : angles[(i * 7 + step) % angles.length]
        const roll = level ? angles[(i + 1 + step) % 2] : angles[(i * 5 + step + 1) % angles.length]
        const parked = step % 4 === 3
        const x = parked ? C.position[e * 3] : (rand() - 0.5) * 100
        const y = parked ? C.position[e * 3 + 1] : (rand() - 0.5) * 100
        const yaw = (rand() - 0.5) * 20
        setColliderPoseFast(st, e, x, y, 0.7, yaw, pitch, roll)
        mat3FromEuler(R, 0, yaw, pitch, roll)
        expect(same(C.rotation.subarray(e * 9, e * 9 + 9), R)).toBe(true)
        expect(same(C.position.subarray(e * 3, e * 3 + 3), [x, y, 0.7])).toBe(true)
        aabb.set(C.aabb.subarray(e * 6, e * 6 + 6))
        computeAabb(C, e, st.heightfields, st.meshes)
        expect(same(C.aabb.subarray(e * 6, e * 6 + 6), aabb)).toBe(true)
      }
      sim.step(1 / 60)
    }
  })

  it('a pose equal to the stored one bit for bit changes nothing (the version stays)', () => {
    const sim = makeSim()
    const st = sim.internal.collision
    const e = sim.addCollider({ kind: 'box', halfExtents: [2, 1, 0.7] })
    for (const [pitch, roll] of [[0, 0], [0.01, -0.02]]) {
      setColliderPoseFast(st, e, 3, 4, 0.7, 1.2, pitch, roll)
      sim.step(1 / 60)
      const v = st.version
      setColliderPoseFast(st, e, 3, 4, 0.7, 1.2, pitch, roll)
      expect(st.version).toBe(v)
      setColliderPoseFast(st, e, 3, 4, 0.7, 1.3, pitch, roll)
      expect(st.version).toBe(v + 1)
    }
  })
})
