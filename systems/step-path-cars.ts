/** step-path-cars (phase 'vehicle', after 'step-vehicles'): every car at the path level moves along its driver's line for the host step. */
import { commitRemovals } from 'bitecs'
import type { System } from './schedule'
import type { SimClock } from '../src/clock'
import type { PathLevelDomain } from '../src/driver/path-install'
import { stepPathCars } from '../src/driver/path-level'
import { MAX_HOST_STEP } from './step-vehicles'

/** The system over the path level `domain` and the sim `clock`. */
export function stepPathLevel(domain: PathLevelDomain, clock: SimClock): System {
  return (world) => {
    commitRemovals(world)
    const dt = clock.dt < MAX_HOST_STEP ? clock.dt : MAX_HOST_STEP
    stepPathCars(domain.state, domain.cars.dense, dt)
    return world
  }
}
