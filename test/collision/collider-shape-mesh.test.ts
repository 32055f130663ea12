// sim.colliderShape for a mesh: its vertices and indices as addCollider took them (a copy), and a
// mesh built from what it returns answers rays as the original does.
import { expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, mesh, type MeshShape } from '../../src/index'

it('returns a mesh collider’s vertices and indices (zero-area triangles kept), as a copy', () => {
  const sim = createSim(createWorld(), { ground: false })
  const vertices = [0, 0, 0, 2, 0, 0, 0, 2, 0, 1, 1, 0]
  const indices = [0, 1, 2, 0, 1, 1] // the second triangle has zero area
  const m = sim.addCollider(mesh(vertices, indices), { position: [5, 0, 1] })
  const s = sim.colliderShape(m)
  if (s?.kind !== 'mesh') throw new Error(`expected a mesh, got ${s?.kind}`)
  expect(s.vertices).toBeInstanceOf(Float64Array)
  expect(s.indices).toBeInstanceOf(Uint32Array)
  expect(Array.from(s.vertices)).toEqual(vertices)
  expect(Array.from(s.indices)).toEqual(indices)
  ;(s.vertices as Float64Array)[0] = 99
  expect((sim.colliderShape(m) as MeshShape).vertices[0]).toBe(0)
  const copy = sim.addCollider(sim.colliderShape(m) as MeshShape, { position: [5, 10, 1] })
  const down = (y: number) => sim.rayTest([5.5, y + 0.5, 10], [0, 0, -1], 20).at(0)
  expect(down(0)!.collider).toBe(m)
  expect(down(10)!.collider).toBe(copy)
  expect(down(10)!.distance).toBe(down(0)!.distance)
})
