/** select-lod (phase 'lod'): runs the sim's installed LodController once per host step. */
import type { System } from './schedule'
import type { LodState } from '../src/lod/install'

/** The system that gives every car its level for the distance to the installed controller's focus. */
export function selectLod(lod: LodState): System {
  return (world) => {
    const controller = lod.controller
    if (controller) controller.step()
    return world
  }
}
