/** The lod domain of a sim: the slot of the LodController that the 'select-lod' system (systems/select-lod.ts) runs each step. */

/** What the lod phase and hosting use of the installed controller (a LodController). */
export interface InstalledLodController {
  /** Runs one update with the distance to the focus. */
  step(): number
  /** Stops being the installed controller. */
  uninstall(): void
  /** True when `car` is marked external. */
  isExternal(car: number): boolean
  /** Marks `car` external (it may be frozen, never reduced to singleTrack). */
  markExternal(car: number): void
  /** Removes the external mark of `car`. */
  unmarkExternal(car: number): void
}

/** LOD state of a sim (internal). */
export interface LodState {
  /** The installed controller (see LodController.install), or null. */
  controller: InstalledLodController | null
}

/** Builds the lod domain: no controller until one is installed. */
export function installLod(): LodState {
  return { controller: null }
}
