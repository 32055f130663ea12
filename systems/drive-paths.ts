/** drive-paths (phase 'input'): every driven car that is not frozen gets steer, throttle and brake from its driver. */
import { commitRemovals, type World } from 'bitecs'
import { getSim } from '../src/sim'
import { hoistDriveArrays } from '../src/driver/drive'
import { locateCars } from '../src/driver/locate'
import { pedalCars } from '../src/driver/pedals'
import { aimCars, courseCars, steerCars } from '../src/driver/steer'

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
  // Phase by phase over all cars rather than car by car: V8 inlines only so much into one
  // function, and each helper left as a call boxed its number arguments (allocation per car).
  // Each car's phases touch only its own entries, so the order across cars changes nothing.
  locateCars(arrays, paths, cars, dt)
  pedalCars(arrays, paths, cars, dt)
  aimCars(arrays, paths, cars)
  courseCars(arrays, paths, cars)
  steerCars(arrays, paths, cars, dt)
  return world
}
