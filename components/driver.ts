/** Driver component: the path-following driver's per-car state, SoA by entity id. Owned by driver/. */
import { createStore } from './store'

/** Creates the Driver store of one sim. */
export function createDriverComponent() {
  const Driver = createStore({
    path: Int32Array,
  } as const)
  return { Driver }
}
