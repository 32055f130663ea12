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

/** Creates the Collider store of one sim. */
export function createColliderComponent() {
  const store = createStore({
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
  } as const)
  const Collider = Object.assign(store, { name: [] as (string | undefined)[] })
  return { Collider }
}

/** The Collider store type. */
export type ColliderStore = ReturnType<typeof createColliderComponent>['Collider']
