/** mark-hosted-external (phase 'lod', before 'select-lod'): the installed LodController treats every hosted car as external. */
import { query, type World } from 'bitecs'
import { getSim } from '../sim'
import { Hosted } from './host'
import { hostingState, markExternalFor } from './hosted-state'

/** Marks every hosted car external on a newly installed LodController (may freeze it, never reduce it). */
export function markHostedExternal(world: World): World {
  const sim = getSim(world)
  const hs = hostingState(sim)
  const controller = sim.internal.lod.controller
  // setHost marks cars on the controller of its time; only a controller installed later needs this
  if (hs === undefined || controller === null || controller === hs.marked) return world
  const cars = query(world, [sim.components.Car, Hosted])
  for (let k = 0; k < cars.length; k++) markExternalFor(hs, controller, cars[k])
  hs.marked = controller
  return world
}
