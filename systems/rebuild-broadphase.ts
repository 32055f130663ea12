/**
 * System 'rebuild-broadphase' (phase broadphase): brings the collision trees' membership up to date
 * (colliders added, removed, gone dynamic, reshaped: the trees rebuilt). The refit that this step's
 * moves call for, and any rebuild that refit's quality calls for, waits for the first query that
 * needs the trees (rayTest, castRay, lidars: each checks broadphaseStale first), so a step that
 * nobody queries pays no refit: one refit over the current boxes equals any number of them.
 */
import type { World } from 'bitecs'
import { getSim } from '../src/sim'
import { updateBroadphase } from '../src/collision/state'

/** Rebuilds the sim's collision trees whose membership changed; a refit is left to the next query. Cost: nothing when only poses changed. */
export function rebuildBroadphase(world: World): World {
  const cs = getSim(world).internal.collision
  if (cs.staticDirty || cs.dynamicDirty || cs.pendingAdds) updateBroadphase(cs)
  return world
}
