/**
 * Mirrors a pitlane collider (sphere, box, capsule, cylinder) into a Rapier world as a fixed body
 * with the same shape and pose, so scenery built for pitlane's rays (barriers, cones) also stops
 * hosted cars. Capsules and cylinders turn their axis from pitlane's local z to Rapier's local y.
 */
import type RAPIER_MODULE from '@dimforge/rapier3d-compat'
import type { Collider, World as RapierWorld } from '@dimforge/rapier3d-compat'
import type { Sim } from '../sim'
import { assertEntity } from '../sim'
import { hasComponent } from 'bitecs'
import { ColliderKind } from '../../components/collider'
import { quatFromMat3 } from '../math/quat'

const quat = new Float64Array(4)
// +90° about x: Rapier's local y axis onto pitlane's local z
const AXIS_TO_Z = { x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 }

/** Adds a fixed Rapier body mirroring pitlane collider `collider` of `sim`; returns its Rapier collider. */
export function mirrorCollider(sim: Sim, world: RapierWorld, R: typeof RAPIER_MODULE, collider: number, friction = 0.5): Collider {
  const eid = assertEntity(sim, collider, 'collider')
  const C = sim.components.Collider
  if (!hasComponent(sim.world, eid, C)) throw new TypeError(`collider ${eid} is not a collider of this sim`)
  const kind = C.kind[eid]
  const p = C.params
  const o = eid * 4
  let desc
  if (kind === ColliderKind.sphere) desc = R.ColliderDesc.ball(p[o])
  else if (kind === ColliderKind.box) desc = R.ColliderDesc.cuboid(p[o], p[o + 1], p[o + 2])
  else if (kind === ColliderKind.capsule) desc = R.ColliderDesc.capsule(p[o + 1], p[o]).setRotation(AXIS_TO_Z)
  else if (kind === ColliderKind.cylinder) desc = R.ColliderDesc.cylinder(p[o + 1], p[o]).setRotation(AXIS_TO_Z)
  else throw new RangeError(`collider ${eid} is a ${Object.keys(ColliderKind).find((k) => ColliderKind[k as keyof typeof ColliderKind] === kind)}: only sphere, box, capsule and cylinder colliders can be mirrored`)
  quatFromMat3(quat, 0, C.rotation, eid * 9)
  const pos = C.position
  const body = world.createRigidBody(R.RigidBodyDesc.fixed()
    .setTranslation(pos[eid * 3], pos[eid * 3 + 1], pos[eid * 3 + 2])
    .setRotation({ x: quat[0], y: quat[1], z: quat[2], w: quat[3] }))
  return world.createCollider(desc.setFriction(friction), body)
}
