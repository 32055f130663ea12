/**
 * Mirrors a pitlane collider (sphere, box, capsule, cylinder, heightfield, mesh) into a Rapier
 * world as a collider of a fixed body with the same shape and world pose, so scenery built for
 * pitlane's rays (barriers, cones, terrain, track and city meshes) also stops hosted cars. Capsules
 * and cylinders turn their axis from pitlane's local z to Rapier's local y; a mesh becomes a trimesh
 * (f32 vertices, the triangles that keep an area in f32: Rapier's own precision). A heightfield
 * becomes Rapier's heightfield (heights along its local y over its x–z plane, centred), turned +90°
 * about x like the capsules (Rapier's z is pitlane's −y, so its rows run in pitlane's rows' reverse
 * order): Rapier splits each cell along the diagonal from (x, z+1) to (x+1, z), which is pitlane's
 * diagonal from (i, j) to (i+1, j+1) (tested by rays inside cells).
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
  else if (kind === ColliderKind.heightfield) return addHeightfield(sim, world, R, body, eid, friction)
  else throw new RangeError(`collider ${eid} is a ${Object.keys(ColliderKind).find((k) => ColliderKind[k as keyof typeof ColliderKind] === kind)}: only sphere, box, capsule, cylinder, heightfield and mesh colliders can be mirrored`)
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

/** Adds the Rapier heightfield mirroring heightfield collider eid (see the module comment for the frames). */
function addHeightfield(sim: Sim, world: RapierWorld, R: typeof RAPIER_MODULE, body: RigidBody, eid: number, friction: number): Collider {
  const shape = sim.colliderShape(eid)
  if (shape === null || shape.kind !== 'heightfield') throw new RangeError(`collider ${eid} has no heightfield data`)
  const { columns, rows, cellSize } = shape
  const sizeX = (columns - 1) * cellSize, sizeY = (rows - 1) * cellSize
  // Rapier's heights: column-major, rows along its z (pitlane's y reversed), columns along its x (pitlane's x)
  const H = shape.heights, heights = new Float32Array(columns * rows)
  for (let c = 0; c < columns; c++) for (let r = 0; r < rows; r++) heights[r + c * rows] = H[(rows - 1 - r) * columns + c]
  const desc = R.ColliderDesc.heightfield(rows - 1, columns - 1, heights, { x: sizeX, y: 1, z: sizeY })
  const C = sim.components.Collider, Rm = C.rotation, r = eid * 9, P = C.position
  // Rapier's field is centred on its origin: the grid's centre in pitlane's local frame, then the world
  const cx = shape.origin[0] + sizeX / 2, cy = shape.origin[1] + sizeY / 2
  quatFromMat3(quat, 0, Rm, r)
  quatMultiply(quat, 0, quat, AXIS_TO_Z)
  desc.setTranslation(P[eid * 3] + Rm[r] * cx + Rm[r + 1] * cy, P[eid * 3 + 1] + Rm[r + 3] * cx + Rm[r + 4] * cy, P[eid * 3 + 2] + Rm[r + 6] * cx + Rm[r + 7] * cy)
    .setRotation({ x: quat[0], y: quat[1], z: quat[2], w: quat[3] })
    .setFriction(friction)
  return world.createCollider(desc, body)
}
