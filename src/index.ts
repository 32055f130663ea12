/** pitlane: many cars with levels of detail, drivers, collision shapes, and fast ray and lidar queries for bitecs 0.4. */
export { createSim, getSim } from './sim'
export type { Sim, SimOptions } from './sim'
export { PHASES } from '../systems/schedule'
export type { Phase, System, SystemOptions, Schedule } from '../systems/schedule'
export type { Surface, SurfaceMap } from './vehicle/surfaces'
export { LodController, createLodController } from './lod/controller'
export type { LodControllerOptions, LodFocus, LodInstallOptions } from './lod/controller'
export type { LodLevel } from './lod/bands'
