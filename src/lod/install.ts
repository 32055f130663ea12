/** Installs the lod phase into a sim: the 'select-lod' system runs the sim's LodController, if one is set. */
import type { Sim } from '../sim'
import type { LodController } from './controller'
import { selectLod } from '../../systems/select-lod'

/** LOD state of a sim (internal). */
export interface LodState {
  /** The installed controller (see LodController.install), or null. */
  controller: LodController | null
}

/** Installs the lod-phase system into `sim`. */
export function installLod(sim: Sim): LodState {
  sim.schedule.add(selectLod, { name: 'select-lod', phase: 'lod' })
  return { controller: null }
}
