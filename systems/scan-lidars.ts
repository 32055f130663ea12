/** scan-lidars (phase 'sensors'): each lidar whose rate is due scans the scene into its LidarScan. */
import { commitRemovals, type World } from 'bitecs'
import { getSim } from '../src/sim'
import { scanLidar } from '../src/collision/lidar-sensor'

/** Runs every due lidar's scan (every step when hz is 0, else when its accumulator passes 1/hz). */
export function scanLidars(world: World): World {
  const sim = getSim(world)
  const Lidar = sim.components.Lidar
  const hz = Lidar.hz, accum = Lidar.accum
  const dt = sim.internal.lastDt
  commitRemovals(world)
  const lidars = sim.internal.lidars.lidars.dense
  for (let i = 0; i < lidars.length; i++) {
    const eid = lidars[i]
    const rate = hz[eid]
    if (rate > 0) {
      const period = 1 / rate
      const a = accum[eid] + dt
      // a relative tolerance so that e.g. six steps of 1/60 s reach 1/10 s despite rounding
      if (a < period * (1 - 1e-9)) { accum[eid] = a; continue }
      const rest = a - period
      accum[eid] = rest <= 0 ? 0 : rest < period ? rest : rest % period
    }
    scanLidar(sim, eid)
  }
  return world
}
