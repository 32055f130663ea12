/**
 * The collision domain of a sim: observers on the Collider component (so raw bitecs
 * addComponent/removeEntity are honoured), the ground plane, addCollider, setPose and rayTest.
 * Its system is systems/rebuild-broadphase.ts.
 */
import { addComponent, addEntity, hasComponent, observe, onAdd, onRemove, type World } from 'bitecs'
import { assertEntity } from '../entity'
import { ColliderKind, type ColliderStore } from '../../components/collider'
import { groundHeight, type ResolvedSimOptions } from '../options'
import { describe, numberInRange, optionsObject } from '../validate'
import { mat3Identity, mat3Copy } from '../math/mat3'
import { computeAabb, parseShape, shapeOf } from './shapes'
import { parsePosition, parseRotation } from './pose'
import { colliderAdded, colliderMoved, colliderRemoved, createCollisionState, notGround, storeHeightfield, storeMesh, type CollisionState } from './state'
import { checkSurface } from '../vehicle/surfaces'
import { rayTestInto } from './query'
import { COLLIDER_OPTION_KEYS, type ColliderOptions } from './collider-options'
import { RayCollisionList } from './ray-list'

export type { CollisionState } from './state'
export type { ColliderOptions } from './collider-options'

/** Throws unless `v` is an integer representable as an int32 (group bits may be given unsigned, up to 2³²−1). */
function int32(v: unknown, name: string, unsigned = false): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be an integer, got ${describe(v)}`)
  const hi = unsigned ? 0xffffffff : 0x7fffffff
  if (!Number.isInteger(v) || v < -0x80000000 || v > hi) throw new RangeError(`${name} must be an integer in [-2147483648, ${hi}], got ${v}`)
  return v | 0
}

/** What the collision domain is built from. */
export interface CollisionDeps {
  world: World
  components: { readonly Collider: ColliderStore }
  options: ResolvedSimOptions
}

/** Builds the collision domain (and the ground plane's entity, when the options ask for one). */
export function installCollision({ world, components, options }: CollisionDeps): CollisionState {
  const C = components.Collider
  const state = createCollisionState(C)
  const groundZ = groundHeight(options)
  const pos = new Float64Array(3), rot = new Float64Array(9)
  const list = new RayCollisionList()
  const owner = { world }

  // Ids are recycled at once: every field gets its default here, so nothing is inherited.
  observe(world, onAdd(C), (eid: number) => {
    C.kind[eid] = ColliderKind.none
    C.params.fill(0, eid * 4, eid * 4 + 4)
    C.heightfield[eid] = -1
    C.mesh[eid] = -1
    C.group[eid] = 1
    C.object[eid] = eid
    C.localId[eid] = 0
    C.position.fill(0, eid * 3, eid * 3 + 3)
    mat3Identity(C.rotation, eid * 9)
    C.dynamic[eid] = 0
    C.name[eid] = undefined
    colliderAdded(state, eid)
  })
  observe(world, onRemove(C), (eid: number) => colliderRemoved(state, eid))

  function addCollider(shape: unknown, options?: unknown): number {
    // validate everything before any write
    const s = parseShape(shape, 'shape')
    const o = optionsObject<ColliderOptions>(options, 'options', COLLIDER_OPTION_KEYS)
    if (o.position === undefined) pos.fill(0)
    else parsePosition(o.position, 'options.position', groundZ, pos)
    if (o.rotation === undefined) mat3Identity(rot)
    else parseRotation(o.rotation, 'options.rotation', rot)
    const group = o.group === undefined ? 1 : int32(o.group, 'options.group', true)
    const object = o.object === undefined ? undefined : int32(o.object, 'options.object')
    const localId = o.localId === undefined ? 0 : int32(o.localId, 'options.localId')
    if (o.name !== undefined && typeof o.name !== 'string') throw new TypeError(`options.name must be a string, got ${describe(o.name)}`)
    const reflectivity = o.reflectivity === undefined ? undefined : numberInRange(o.reflectivity, 0, 1, 'options.reflectivity')
    const surface = o.surface === undefined ? undefined : checkSurface(o.surface, 'options.surface')
    const eid = addEntity(world)
    addComponent(world, eid, C)
    C.kind[eid] = s.kind
    C.params[eid * 4] = s.p0; C.params[eid * 4 + 1] = s.p1; C.params[eid * 4 + 2] = s.p2
    if (s.hf) C.heightfield[eid] = storeHeightfield(state, s.hf)
    if (s.mesh) C.mesh[eid] = storeMesh(state, s.mesh)
    C.group[eid] = group
    C.object[eid] = object === undefined ? eid : object
    C.localId[eid] = localId
    C.position.set(pos, eid * 3)
    C.rotation.set(rot, eid * 9)
    C.name[eid] = o.name
    if (reflectivity !== undefined) state.reflectivity[eid] = reflectivity
    state.surfaces[eid] = surface === undefined ? undefined : Object.freeze({ name: surface.name, grip: surface.grip, rollingResistance: surface.rollingResistance })
    if (s.kind === ColliderKind.plane) notGround(state, eid) // planes are tested apart, by every query
    computeAabb(C, eid, state.heightfields, state.meshes)
    state.version++
    return eid
  }

  function setPose(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void {
    parsePosition(position, 'position', groundZ, pos)
    if (rotation === undefined) mat3Copy(rot, 0, C.rotation, eid * 9)
    else parseRotation(rotation, 'rotation', rot)
    C.position.set(pos, eid * 3)
    C.rotation.set(rot, eid * 9)
    colliderMoved(state, eid)
  }

  state.api = {
    addCollider: addCollider as CollisionState['api']['addCollider'],
    rayTest: (start, direction, length, objectId, localId, collisionMask) => rayTestInto(state, list, start, direction, length, objectId, localId, collisionMask),
    colliderShape(collider) {
      const eid = assertEntity(owner, collider, 'collider')
      if (!hasComponent(world, eid, C)) throw new RangeError(`collider ${eid} is not a collider of this sim`)
      return shapeOf(C, eid, state.heightfields, state.meshes)
    },
  }
  state.setPose = setPose

  if (options.ground) {
    const g = addEntity(world)
    addComponent(world, g, C)
    C.kind[g] = ColliderKind.plane
    C.position[g * 3 + 2] = options.ground.height
    state.ground = g
    notGround(state, g)
    state.reflectivity[g] = options.ground.reflectivity
  }
  return state
}
