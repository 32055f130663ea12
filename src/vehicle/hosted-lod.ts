/** mark-hosted-external (phase 'lod', before 'select-lod'): the installed LodController treats every hosted car as external. */
import { query } from 'bitecs'
import type { System } from '../../systems/schedule'
import { Hosted } from './host'
import { markExternalFor, type HostingState } from './hosted-state'

/** The system that marks every hosted car external on a newly installed LodController (may freeze it, never reduce it). */
export function markHostedExternal(hs: HostingState): System {
  return (world) => {
    const controller = hs.lod.controller
    // setHost marks cars on the controller of its time; only a controller installed later needs this
    if (controller === null || controller === hs.marked) return world
    const cars = query(world, [hs.vehicles.Car, Hosted])
    for (let k = 0; k < cars.length; k++) markExternalFor(hs, controller, cars[k])
    hs.marked = controller
    return world
  }
}
