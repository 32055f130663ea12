/** Lidar component: sensor pose, pattern and rate, SoA by entity id. Owned by collision/lidar. */
import { createStore } from './store'

/** Creates the Lidar store of one sim. */
export function createLidarComponent() {
  const Lidar = createStore({
    mount: Int32Array,
  } as const)
  return { Lidar }
}
