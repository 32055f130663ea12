/** select-lod (phase 'lod'): runs the sim's installed LodController once per host step. */
import type { World } from 'bitecs'
import { getSim } from '../src/sim'

/** Gives every car its level for the distance to the installed controller's focus. */
export function selectLod(world: World): World {
  const controller = getSim(world).internal.lod.controller
  if (controller) controller.step()
  return world
}
