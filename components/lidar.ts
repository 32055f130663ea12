/**
 * Lidar component: sensor mount, pose, pattern, range window, filter and rate, SoA by entity id.
 * Owned by the lidar domain (src/lidar). `mount` is the car entity (or -1 for a fixed lidar); `offset` and
 * `rotation` are the pose in the car's frame (mounted) or in the world (fixed); `pose`/`origin`
 * hold the world pose of the latest scan. `hz` 0 means every step; `accum` is the time since the
 * last scan. The scans themselves live in the lidar state (one LidarScan per lidar).
 */
import { createStore } from './store'

/** Creates the Lidar store of one sim. */
export function createLidarComponent() {
  const Lidar = createStore({
    mount: Int32Array,
    offset: [Float64Array, 3],
    rotation: [Float64Array, 9],
    origin: [Float64Array, 3],
    pose: [Float64Array, 9],
    yawStart: Float64Array,
    yawIncrement: Float64Array,
    yawCount: Int32Array,
    pitchStart: Float64Array,
    pitchIncrement: Float64Array,
    pitchCount: Int32Array,
    rangeMin: Float64Array,
    rangeMax: Float64Array,
    collisionMask: Int32Array,
    hz: Float64Array,
    accum: Float64Array,
  } as const)
  return { Lidar }
}

/** The Lidar store type. */
export type LidarStore = ReturnType<typeof createLidarComponent>['Lidar']
