/** Collider component: collision bodies (shape, pose, filter ids), SoA by entity id. Owned by collision/. */
import { createStore } from './store'

/** Creates the Collider store of one sim. */
export function createColliderComponent() {
  const Collider = createStore({
    kind: Uint8Array,
    group: Int32Array,
    object: Int32Array,
    localId: Int32Array,
    position: [Float64Array, 3],
    rotation: [Float64Array, 9],
  } as const)
  return { Collider }
}
