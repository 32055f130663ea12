/** The chassis box collider's pose from the car's state: centre at half the body height over the ground plus heave. */
import type { CarStore } from '../../components/car'
import type { CollisionState } from '../collision/state'
import { poseIn, setColliderPoseIn } from '../collision/state'
import type { ResolvedCar } from './definition'

/** Writes car `eid`'s chassis collider pose (the caller checks the car has a live collider). No allocation. */
export function writeChassisPose(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, groundZ: number): void {
  poseIn[0] = C.x[eid]; poseIn[1] = C.y[eid]; poseIn[2] = groundZ + 0.5 * d.def.height + C.heave[eid]
  poseIn[3] = C.heading[eid]; poseIn[4] = C.pitch[eid]; poseIn[5] = C.roll[eid]
  setColliderPoseIn(cs, C.collider[eid])
}
