/** traffic (phase 'input', before 'drive-paths'): every avoiding driver sees the cars on its line and sets its speed cap and where beside its line it heads. */
import { commitRemovals } from 'bitecs'
import type { System } from './schedule'
import type { SimClock } from '../src/clock'
import type { DriverState } from '../src/driver/install'
import { stepTraffic } from '../src/driver/traffic'
import { MAX_HOST_STEP } from './step-vehicles'

/** The system over the driver domain `drivers` and the sim `clock`. */
export function trafficSystem(drivers: DriverState, clock: SimClock): System {
  return (world) => {
    commitRemovals(world)
    stepTraffic(drivers.traffic, clock.dt < MAX_HOST_STEP ? clock.dt : MAX_HOST_STEP, clock.time)
    return world
  }
}
