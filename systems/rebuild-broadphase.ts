/** System 'rebuild-broadphase' (phase broadphase): brings the collision BVHs up to date with this step's poses. */
import type { System } from './schedule'
import { updateBroadphase, type CollisionState } from '../src/collision/state'

/** The system that refits (or rebuilds, when membership changed or quality dropped) `collision`'s trees. */
export function rebuildBroadphase(collision: CollisionState): System {
  return (world) => {
    updateBroadphase(collision)
    return world
  }
}
