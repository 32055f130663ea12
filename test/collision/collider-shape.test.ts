// sim.colliderShape: every kind reads back as addCollider took it (a copy the caller may change),
// the ground as a plane; bad ids are refused.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { box, capsule, createSim, cylinder, heightfield, mesh, sphere, type HeightfieldShape } from '../../src/index'

describe('sim.colliderShape', () => {
  it('returns the shape of every kind, a heightfield with its heights (origin height folded in)', () => {
    const sim = createSim(createWorld())
    expect(sim.colliderShape(sim.ground)).toEqual({ kind: 'plane' })
    expect(sim.colliderShape(sim.addCollider(sphere(1.5)))).toEqual({ kind: 'sphere', radius: 1.5 })
    expect(sim.colliderShape(sim.addCollider(box(1, 2, 3)))).toEqual({ kind: 'box', halfExtents: [1, 2, 3] })
    expect(sim.colliderShape(sim.addCollider(capsule(0.5, 2)))).toEqual({ kind: 'capsule', radius: 0.5, halfHeight: 2 })
    expect(sim.colliderShape(sim.addCollider(cylinder(0.7, 1.2)))).toEqual({ kind: 'cylinder', radius: 0.7, halfHeight: 1.2 })
    const heights = [0, 1, 2, 3, 4, 5]
    const hf = sim.addCollider(heightfield([-10, -5, 2], 2.5, 3, 2, heights))
    const s = sim.colliderShape(hf) as HeightfieldShape
    expect(s).toMatchObject({ kind: 'heightfield', origin: [-10, -5, 0], cellSize: 2.5, columns: 3, rows: 2 })
    expect(Array.from(s.heights)).toEqual(heights.map((h) => h + 2))
    // a copy: changing it changes nothing in the sim
    ;(s.heights as Float64Array)[0] = 99
    expect((sim.colliderShape(hf) as HeightfieldShape).heights[0]).toBe(2)
    // the shape read back builds the same collider: a ray straight down hits both at the same height
    const again = sim.addCollider({ ...s, heights: heights.map((h) => h + 2) }, { position: [100, 0, 0] })
    const z = (x: number) => { const l = sim.rayTest([x, -4, 50], [0, 0, -1], 100, -1, -1, -1); return l.at(0)!.position[2] }
    expect(z(100 - 8)).toBeCloseTo(z(-8), 12)
    expect(sim.colliderShape(again)).toMatchObject({ kind: 'heightfield' })
    const tri = sim.colliderShape(sim.addCollider(mesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2])))
    expect(tri).toEqual({ kind: 'mesh', vertices: new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) })
  })

  it('refuses ids that are not colliders', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar()
    expect(() => sim.colliderShape(-1)).toThrow(RangeError)
    expect(() => sim.colliderShape('1' as never)).toThrow(TypeError)
    expect(() => sim.colliderShape(car)).toThrow(/not a collider/)
    expect(() => sim.colliderShape(9999)).toThrow(/not a live entity/)
  })
})
