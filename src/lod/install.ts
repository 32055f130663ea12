/** Installs the lod phase into a sim: runs the sim's LodController, if one is set. */
import type { Sim } from '../sim'

/** LOD state of a sim (internal). */
export interface LodState {
  /** The installed controller's per-step update, or null. */
  controller: null | { step(): void }
}

/** Installs the lod-phase system into `sim`. */
export function installLod(sim: Sim): LodState {
  void sim
  return { controller: null }
}
