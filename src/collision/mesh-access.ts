/** Reading a mesh collider's geometry back (the debug renderers and the Rapier mirror use it). */
import { hasComponent } from 'bitecs'
import type { Sim } from '../types'
import { ColliderKind } from '../../components/collider'
import { assertEntity } from '../entity'

/** A mesh collider's geometry in its local frame: the shape's vertices (xyz triples) and indices (three a triangle, zero-area ones included). */
export interface MeshGeometry {
  /** Vertex coordinates, xyz triples (the collider's own copy: read it, never write it). */
  readonly vertices: Float64Array
  /** Vertex indices, three a triangle (the collider's own copy: read it, never write it). */
  readonly indices: Uint32Array
}

/**
 * The geometry of mesh collider `collider` of `sim` (as validated when it was added), or null for a
 * collider of another shape. Throws a TypeError/RangeError when `collider` is not a collider of `sim`.
 */
export function colliderMesh(sim: Sim, collider: number): MeshGeometry | null {
  const eid = assertEntity(sim, collider, 'collider')
  const C = sim.components.Collider
  if (!hasComponent(sim.world, eid, C)) throw new RangeError(`collider ${eid} is not a collider of this sim`)
  if (C.kind[eid] !== ColliderKind.mesh) return null
  const m = sim.internal.collision.meshes[C.mesh[eid]]
  return m === undefined ? null : { vertices: m.vertices, indices: m.indices }
}
