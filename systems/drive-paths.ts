/** drive-paths (phase 'input'): every driven car that is not frozen gets steer, throttle and brake from its driver. */
import { commitRemovals, type World } from 'bitecs'
import type { System } from './schedule'
import type { SimClock } from '../src/clock'
import type { DriverState } from '../src/driver/install'
import { hoistDriveArrays } from '../src/driver/drive'
import { driveCars } from '../src/driver/drive-cars'
import { checkNeutralCars } from '../src/driver/neutral'

/** The system over the driver domain `drivers` and the sim `clock`. */
export function drivePaths(drivers: DriverState, clock: SimClock): System {
  return (world) => driveAll(world, drivers, clock.dt)
}

/** The path-following drivers: runs each driven, non-frozen car's driver for the host step. */
function driveAll(world: World, drivers: DriverState, dt: number): World {
  const { paths, shiftTables, driven, arrays } = drivers
  hoistDriveArrays(arrays, drivers.Car, drivers.Driver)
  // The query is registered once (query() would build its terms and hash every step).
  commitRemovals(world)
  const cars = driven.dense
  driveCars(arrays, paths, shiftTables, cars, dt)
  checkNeutralCars(world, drivers.neutral, drivers.Car, drivers.Driver, paths) // newly driven cars only
  return world
}
