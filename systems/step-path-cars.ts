/** step-path-cars (phase 'vehicle', after 'step-vehicles'): every car at the path level moves along its driver's line for the host step. */
import { commitRemovals } from 'bitecs'
import type { System } from './schedule'
import type { SimClock } from '../src/clock'
import type { PathLevelDomain } from '../src/driver/path-install'
import { stepPathCars } from '../src/driver/path-level'
import { MAX_HOST_STEP } from './step-vehicles'
import type { VehicleState } from '../src/vehicle/install'
import { pathCarsOnGround } from '../src/vehicle/single-track-ground'

/** The system over the path level `domain`, the vehicle domain `vs` (the ground under the cars) and the sim `clock`. */
export function stepPathLevel(domain: PathLevelDomain, clock: SimClock, vs: VehicleState): System {
  return (world) => {
    commitRemovals(world)
    const dt = clock.dt < MAX_HOST_STEP ? clock.dt : MAX_HOST_STEP
    const cars = domain.cars.dense
    stepPathCars(domain.state, cars, dt)
    pathCarsOnGround(vs.collision, vs.Car, vs.defs, cars, vs.groundZ, dt, vs.surfaces)
    return world
  }
}
