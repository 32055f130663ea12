/**
 * pitlane's internals for its own benchmarks and tests (not public API: names and shapes may change
 * in any release). Functions here take a domain's state (`sim.internal.*`), not a sim.
 */
export { setColliderPoseFast, setColliderPoseMat3Fast, markColliderChanged, updateBroadphase } from './collision/state'
export { castRay } from './collision/query'
export { rayCollider } from './collision/narrowphase'
export {
  DRIVER_SEG, DRIVER_GOAL_SEG, DRIVER_S, DRIVER_DISTANCE, DRIVER_START, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_TARGET, DRIVER_FINISHED,
  DRIVER_SPEED_I, DRIVER_CURVE_I, DRIVER_STRIDE, DRIVER_FIELDS,
} from '../components/driver'
