/** follow-cars (phase 'broadphase', before 'rebuild-broadphase'): each moving car's chassis collider takes the car's pose. */
import { commitRemovals, type World } from 'bitecs'
import { getSim } from '../src/sim'
import { writeChassisPoses } from '../src/vehicle/chassis'
import { carArrays } from '../src/vehicle/install'

/** Writes every running car's chassis box pose (frozen cars do not move). */
export function followCars(world: World): World {
  const sim = getSim(world)
  const vs = sim.internal.vehicles
  commitRemovals(world)
  writeChassisPoses(sim.internal.collision, carArrays(vs, sim.components.Car), vs.defs, vs.moving.dense, vs.groundZ)
  return world
}
