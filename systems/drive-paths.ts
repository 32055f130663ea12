/** drive-paths (phase 'input'): every driven car that is not frozen gets steer, throttle and brake from its driver. */
import { commitRemovals, type World } from 'bitecs'
import { getSim } from '../src/sim'
import { hoistDriveArrays } from '../src/driver/drive'
import { driveCars } from '../src/driver/drive-cars'

/** The path-following drivers' system: runs each driven, non-frozen car's driver for the host step. */
export function drivePaths(world: World): World {
  const sim = getSim(world)
  const drivers = sim.internal.drivers
  const { paths, driven, arrays } = drivers
  hoistDriveArrays(arrays, sim.components.Car, sim.components.Driver)
  const dt = sim.internal.lastDt
  // The query is registered once (query() would build its terms and hash every step).
  commitRemovals(world)
  const cars = driven.dense
  driveCars(arrays, paths, cars, dt)
  return world
}
