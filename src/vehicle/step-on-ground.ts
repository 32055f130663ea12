/** One car's owed substeps at its model, on the ground prepareGround found for the host step. */
import type { CarStore } from '../../components/car'
import type { CollisionState } from '../collision/state'
import type { ResolvedCar } from './definition'
import type { SurfaceMap } from './surfaces'
import type { Substep } from './substep'
import { castWheels, type GroundContact } from './ground-contact'
import { fourWheelSubstep } from './four-wheel'
import { singleTrackSubsteps } from './single-track'
import { singleTrackGround } from './single-track-ground'

/**
 * Runs `n` substeps `step` of car `eid`: four-wheel (the wheels' rays cast before each one unless
 * `gc` is flat) or single-track (all in one call: its state stays in locals between them).
 */
export function stepOnGround(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, gc: GroundContact, surfaces: SurfaceMap | null, step: Substep, n: number): void {
  if (C.model[eid] === 0) {
    if (gc.flat) for (let i = 0; i < n; i++) fourWheelSubstep(C, d, eid, surfaces, step)
    else for (let i = 0; i < n; i++) { castWheels(cs, C, d, eid, gc, surfaces); fourWheelSubstep(C, d, eid, surfaces, step, gc) }
  } else if (n > 0) {
    if (gc.flat) singleTrackSubsteps(C, d, eid, surfaces, step, n)
    else singleTrackGround(cs, C, d, eid, gc, surfaces, step, n)
  }
}
