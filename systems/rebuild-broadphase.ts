/** System 'rebuild-broadphase' (phase broadphase): brings the collision BVHs up to date with this step's poses. */
import type { World } from 'bitecs'
import { getSim } from '../src/sim'
import { updateBroadphase } from '../src/collision/state'

/** Refits (or rebuilds, when membership changed or quality dropped) the sim's collision trees. */
export function rebuildBroadphase(world: World): World {
  updateBroadphase(getSim(world).internal.collision)
  return world
}
