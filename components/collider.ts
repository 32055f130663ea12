/**
 * Collider component: collision bodies, SoA by entity id. Owned by collision/.
 * Fields: `kind` (ColliderKind), `params` (4 per entity: sphere r | box hx hy hz | capsule and
 * cylinder r, halfHeight), `heightfield` (index into the collision state's heightfield list, or -1),
 * `mesh` (index into its mesh list, or -1),
 * `group`, `object`, `localId`, world `position` (3), row-major `rotation` Mat3 (9, world = R·local
 * + position), world `aabb` (6: min xyz, max xyz; padded a little so rounding never hides a hit),
 * `dynamic` (1 when it lives in the moving tree), and `name` (a plain JS array, by entity id).
 * After writing fields directly, call markColliderChanged (src/collision/state.ts).
 */
import { createStore } from './store'

/** Shape kinds as stored in Collider.kind (0 = none: never hit). */
export const ColliderKind = { none: 0, plane: 1, sphere: 2, box: 3, capsule: 4, cylinder: 5, heightfield: 6, mesh: 7 } as const

/**
 * The Collider store: one array per field, indexed by the collider's entity id. Units are m and
 * rad; positions and rotations are in the world frame (x, y on the ground plane, z up). After
 * writing fields directly, call markColliderChanged.
 */
export interface ColliderStore {
  /** Shape kind (ColliderKind: 0 none, never hit). */
  kind: Uint8Array
  /** Shape sizes, m, 4 per collider (at 4·id): sphere [r] | box [hx, hy, hz] | capsule, cylinder [r, halfHeight]. */
  params: Float64Array
  /** A heightfield's index in the collision state's heightfield list, or -1. */
  heightfield: Int32Array
  /** A mesh's index in the collision state's mesh list, or -1. */
  mesh: Int32Array
  /** Collision group bits (a ray's collisionMask selects groups). */
  group: Int32Array
  /** The object it belongs to (a car's chassis: the car's entity id), or -1. */
  object: Int32Array
  /** Its id within its object (a part number), or -1. */
  localId: Int32Array
  /** Position, world frame, m, 3 per collider (at 3·id). */
  position: Float64Array
  /** Rotation, a row-major 3×3 matrix, 9 per collider (at 9·id): world = rotation · local + position. */
  rotation: Float64Array
  /** World-frame bounding box, m, 6 per collider (min x, y, z, max x, y, z; padded a little so rounding never hides a hit). */
  aabb: Float64Array
  /** 1 when it lives in the moving (refitted) tree, else 0. */
  dynamic: Uint8Array
  /** Its name (addCollider's `name`), by entity id: a plain array, not a typed one. */
  name: (string | undefined)[]
}

const COLLIDER_SCHEMA = {
  kind: Uint8Array,
  params: [Float64Array, 4],
  heightfield: Int32Array,
  mesh: Int32Array,
  group: Int32Array,
  object: Int32Array,
  localId: Int32Array,
  position: [Float64Array, 3],
  rotation: [Float64Array, 9],
  aabb: [Float64Array, 6],
  dynamic: Uint8Array,
} as const

/** Creates the Collider store of one sim. */
export function createColliderComponent(): { Collider: ColliderStore } {
  const store = createStore(COLLIDER_SCHEMA)
  // the interface and the schema agree both ways: a field missing from either fails to compile
  const Collider: ColliderStore = Object.assign(store, { name: [] as (string | undefined)[] })
  void (Collider satisfies Record<keyof typeof COLLIDER_SCHEMA, ArrayLike<number>>)
  return { Collider }
}
