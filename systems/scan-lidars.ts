/** scan-lidars (phase 'sensors'): each lidar whose rate is due scans the scene into its LidarScan. */
import { commitRemovals, type World } from 'bitecs'
import type { System } from './schedule'
import type { SimClock } from '../src/clock'
import type { LidarState } from '../src/lidar/install'
import { scanLidar } from '../src/lidar/sensor'
import { sweepLidar } from '../src/lidar/sweep'

/** The system over `state` and `clock`. */
export function scanLidars(state: LidarState, clock: SimClock): System {
  return (world) => scanDueLidars(world, state, clock)
}

/**
 * Runs every due lidar's scan (every step when hz is 0, else when its accumulator passes 1/hz);
 * a rotating lidar casts the columns its head passes in the step. The step count keys the noise.
 */
function scanDueLidars(world: World, state: LidarState, clock: SimClock): World {
  const Lidar = state.components.Lidar
  const hz = Lidar.hz, accum = Lidar.accum, dt = clock.dt
  commitRemovals(world)
  const lidars = state.lidars.dense
  for (let i = 0; i < lidars.length; i++) {
    const eid = lidars[i]
    const sensor = state.sensors[eid]
    if (sensor !== undefined && sensor.rotating) { sweepLidar(state, eid, sensor, clock.time, dt, clock.steps); continue }
    const rate = hz[eid]
    if (rate > 0) {
      const period = 1 / rate
      const a = accum[eid] + dt
      // a relative tolerance so that e.g. six steps of 1/60 s reach 1/10 s despite rounding
      if (a < period * (1 - 1e-9)) { accum[eid] = a; continue }
      const rest = a - period
      accum[eid] = rest <= 0 ? 0 : rest < period ? rest : rest % period
    }
    scanLidar(state, eid, clock.steps)
  }
  return world
}
