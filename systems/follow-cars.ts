/** follow-cars (phase 'broadphase', before 'rebuild-broadphase'): each moving car's chassis collider takes the car's pose. */
import { commitRemovals, type World } from 'bitecs'
import { getSim } from '../src/sim'
import { writeChassisPose } from '../src/vehicle/chassis'
import { carArrays } from '../src/vehicle/install'

/** Writes every running car's chassis box pose (frozen cars do not move). */
export function followCars(world: World): World {
  const sim = getSim(world)
  const vs = sim.internal.vehicles
  const cs = sim.internal.collision
  const Car = sim.components.Car
  const C = carArrays(vs, Car)
  const defs = vs.defs
  const z0 = vs.groundZ
  commitRemovals(world)
  const cars = vs.moving.dense
  for (let k = 0; k < cars.length; k++) {
    const eid = cars[k]
    const c = C.collider[eid]
    const d = defs[eid]
    if (c < 0 || d === undefined) continue
    writeChassisPose(cs, C, d, eid, z0)
  }
  return world
}
