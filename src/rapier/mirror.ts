/**
 * Mirrors a pitlane collider (sphere, box, capsule, cylinder, mesh) into a Rapier world as a
 * collider of a fixed body with the same shape and world pose, so scenery built for pitlane's rays
 * (barriers, cones, track and city meshes) also stops hosted cars. Capsules and cylinders turn
 * their axis from pitlane's local z to Rapier's local y; a mesh becomes a trimesh (f32 vertices,
 * the triangles that keep an area in f32: Rapier's own precision).
 */
import type RAPIER_MODULE from '@dimforge/rapier3d-compat'
import type { Collider, RigidBody, World as RapierWorld } from '@dimforge/rapier3d-compat'
import { hasComponent } from 'bitecs'
import { colliderMesh, ColliderKind, type Sim } from '../index'
import { quatFromMat3, quatMultiply } from '../math/quat'
import { assertEntity } from '../entity'

const quat = new Float64Array(4)
// +90° about x: Rapier's local y axis onto pitlane's local z
const AXIS_TO_Z = [Math.SQRT1_2, 0, 0, Math.SQRT1_2]

/** Adds to fixed body `body` (at the origin, unrotated) a Rapier collider mirroring pitlane collider `collider` of `sim`. */
export function mirrorCollider(sim: Sim, world: RapierWorld, R: typeof RAPIER_MODULE, body: RigidBody, collider: number, friction = 0.5): Collider {
  const eid = assertEntity(sim, collider, 'collider')
  const C = sim.components.Collider
  if (!hasComponent(sim.world, eid, C)) throw new RangeError(`collider ${eid} is not a collider of this sim`)
  const kind = C.kind[eid]
  const p = C.params
  const o = eid * 4
  let desc
  if (kind === ColliderKind.sphere) desc = R.ColliderDesc.ball(p[o])
  else if (kind === ColliderKind.box) desc = R.ColliderDesc.cuboid(p[o], p[o + 1], p[o + 2])
  else if (kind === ColliderKind.capsule) desc = R.ColliderDesc.capsule(p[o + 1], p[o])
  else if (kind === ColliderKind.cylinder) desc = R.ColliderDesc.cylinder(p[o + 1], p[o])
  else if (kind === ColliderKind.mesh) desc = trimeshDesc(R, sim, eid)
  else throw new RangeError(`collider ${eid} is a ${Object.keys(ColliderKind).find((k) => ColliderKind[k as keyof typeof ColliderKind] === kind)}: only sphere, box, capsule, cylinder and mesh colliders can be mirrored`)
  if (desc === null) throw new RangeError(`collider ${eid} is a mesh with no triangle of any area in f32: Rapier has nothing to mirror`)
  quatFromMat3(quat, 0, C.rotation, eid * 9)
  if (kind === ColliderKind.capsule || kind === ColliderKind.cylinder) quatMultiply(quat, 0, quat, AXIS_TO_Z)
  const pos = C.position
  desc.setTranslation(pos[eid * 3], pos[eid * 3 + 1], pos[eid * 3 + 2])
    .setRotation({ x: quat[0], y: quat[1], z: quat[2], w: quat[3] })
    .setFriction(friction)
  return world.createCollider(desc, body)
}

/** A Rapier trimesh of mesh collider eid: f32 vertices, the triangles with an area in f32 (null when none is left). */
function trimeshDesc(R: typeof RAPIER_MODULE, sim: Sim, eid: number) {
  const g = colliderMesh(sim, eid)!
  const v = new Float32Array(g.vertices), I = g.indices, kept = new Uint32Array(I.length)
  let n = 0
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t], b = 3 * I[t + 1], c = 3 * I[t + 2]
    const e1x = v[b] - v[a], e1y = v[b + 1] - v[a + 1], e1z = v[b + 2] - v[a + 2]
    const e2x = v[c] - v[a], e2y = v[c + 1] - v[a + 1], e2z = v[c + 2] - v[a + 2]
    if (e1y * e2z - e1z * e2y === 0 && e1z * e2x - e1x * e2z === 0 && e1x * e2y - e1y * e2x === 0) continue
    kept[n++] = I[t]; kept[n++] = I[t + 1]; kept[n++] = I[t + 2]
  }
  return n === 0 ? null : R.ColliderDesc.trimesh(v, kept.slice(0, n))
}
