/**
 * Lidar component: sensor mount, pose, pattern, range window, filter and rate, SoA by entity id.
 * Owned by the lidar domain (src/lidar). `mount` is the car entity (or -1 for a fixed lidar); `offset` and
 * `rotation` are the pose in the car's frame (mounted) or in the world (fixed); `pose`/`origin`
 * hold the world pose of the latest scan. `hz` 0 means every step; `accum` is the time since the
 * last scan. The scans themselves live in the lidar state (one LidarScan per lidar).
 */
import { createStore } from './store'

/**
 * The Lidar store: one array per field, indexed by the lidar's entity id. Units are m, rad, s and
 * Hz. The sensor frame has x forward (yaw 0, pitch 0), y left and z up.
 */
export interface LidarStore {
  /** The car it is mounted on, or -1 for a fixed lidar. */
  mount: Int32Array
  /** Position, m, 3 per lidar (at 3·id): in the car's frame (chassis box centre; mounted) or the world (fixed). */
  offset: Float64Array
  /** Rotation, row-major 3×3, 9 per lidar (at 9·id): sensor → car frame (mounted) or → world (fixed). */
  rotation: Float64Array
  /** World position of its latest scan, m, 3 per lidar (sim.lidarPose gives it as an object). */
  origin: Float64Array
  /** World rotation of its latest scan, row-major 3×3, 9 per lidar: world = pose · sensor + origin. */
  pose: Float64Array
  /** Yaw of column 0, rad (from the sensor's x axis towards y). */
  yawStart: Float64Array
  /** Yaw step between columns, rad. */
  yawIncrement: Float64Array
  /** Columns per scan. */
  yawCount: Int32Array
  /** Pitch of row 0, rad (+ = up). */
  pitchStart: Float64Array
  /** Pitch step between rows, rad. */
  pitchIncrement: Float64Array
  /** Rows (channels) per column. */
  pitchCount: Int32Array
  /** Range window start, m: rays begin this far out. */
  rangeMin: Float64Array
  /** Range window end, m. */
  rangeMax: Float64Array
  /** Collider groups it sees (bits; -1 all). */
  collisionMask: Int32Array
  /** Scans (or sweeps) per second, Hz; 0: every step. */
  hz: Float64Array
  /** Time since its last scan, s (a rotating lidar: the head's time into its sweep). */
  accum: Float64Array
}

const LIDAR_SCHEMA = {
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
} as const

/** Creates the Lidar store of one sim. */
export function createLidarComponent(): { Lidar: LidarStore } {
  // the interface and the schema agree both ways: a field missing from either fails to compile
  const Lidar: LidarStore = createStore(LIDAR_SCHEMA)
  void (Lidar satisfies Record<keyof typeof LIDAR_SCHEMA, ArrayLike<number>>)
  return { Lidar }
}
