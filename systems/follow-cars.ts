/** follow-cars (phase 'broadphase', before 'rebuild-broadphase'): each moving car's chassis collider takes the car's pose. */
import { commitRemovals } from 'bitecs'
import type { System } from './schedule'
import type { CollisionState } from '../src/collision/state'
import { writeChassisPoses } from '../src/vehicle/chassis'
import type { VehicleState } from '../src/vehicle/install'

/** The system that writes every running car's chassis box pose into `collision` (frozen cars do not move). */
export function followCars(vs: VehicleState, collision: CollisionState): System {
  return (world) => {
    commitRemovals(world)
    writeChassisPoses(collision, vs.Car, vs.defs, vs.cars.dense, vs.groundZ)
    return world
  }
}
