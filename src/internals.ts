/**
 * pitlane's internals for its own benchmarks and tests (not public API: names and shapes may change
 * in any release). Functions here take a domain's state (`sim.internal.*`), not a sim; the math
 * helpers (vec3, row-major mat3, quaternions) work on plain numbers and typed arrays.
 */
export { setColliderPoseFast, setColliderPoseMat3Fast, markColliderChanged, updateBroadphase } from './collision/state'
export { castRay } from './collision/query'
export { rayCollider } from './collision/narrowphase'
export {
  DRIVER_SEG, DRIVER_GOAL_SEG, DRIVER_S, DRIVER_DISTANCE, DRIVER_START, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_TARGET, DRIVER_FINISHED,
  DRIVER_SPEED_I, DRIVER_CURVE_I, DRIVER_AHEAD, DRIVER_GAP, DRIVER_PASSING, DRIVER_SHIFT, DRIVER_SHIFT_GOAL, DRIVER_CAP, DRIVER_RECHECK, DRIVER_STRIDE, DRIVER_FIELDS,
} from '../components/driver'
export * from './math/index'
