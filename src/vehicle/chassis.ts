/** The chassis box collider's pose from the car's state: centre at half the body height over the ground plus heave. */
import type { CarStore } from '../../components/car'
import type { CollisionState } from '../collision/state'
import { setColliderPoseFast } from '../collision/state'
import type { ResolvedCar } from './definition'

/** Writes car `eid`'s chassis collider pose (the caller checks the car has a live collider). */
export function writeChassisPose(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, groundZ: number): void {
  setColliderPoseFast(cs, C.collider[eid], C.x[eid], C.y[eid], groundZ + 0.5 * d.def.height + C.heave[eid], C.heading[eid], C.pitch[eid], C.roll[eid])
}
