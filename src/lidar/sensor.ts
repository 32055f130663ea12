/** One Lidar entity's scan: its world pose (lidarWorldPose) and the cast. */
import { castLidar } from './cast'
import type { LidarState } from './install'
import { applyLidarNoise } from './noise'
import { lidarPointsToWorld, lidarWorldPose, NO_ANCHOR } from './pose'

/** Writes lidar `eid`'s world pose and scans the whole pattern into its LidarScan; `scanNumber` keys its noise. */
export function scanLidar(state: LidarState, eid: number, scanNumber: number): void {
  const { Lidar } = state.components
  const scan = state.scans[eid], caster = state.casters[eid], sensor = state.sensors[eid]
  if (!scan || !caster || !sensor) return
  const objectId = lidarWorldPose(state.components, eid)
  if (objectId === NO_ANCHOR) { scan.count = 0; return }
  // the caster's own scratch, so no view is allocated per scan
  const rot = caster.mountRot, pos = caster.mountPos, m = 9 * eid, o = 3 * eid
  for (let i = 0; i < 9; i++) rot[i] = Lidar.pose[m + i]
  for (let i = 0; i < 3; i++) pos[i] = Lidar.origin[o + i]
  castLidar(state.collision, caster, rot, pos, Lidar.yawStart[eid], Lidar.yawIncrement[eid], Lidar.yawCount[eid],
    Lidar.pitchStart[eid], Lidar.pitchIncrement[eid], Lidar.pitchCount[eid], Lidar.rangeMin[eid], Lidar.rangeMax[eid],
    objectId, objectId >= 0 ? 0 : -1, Lidar.collisionMask[eid], scan)
  if (sensor.sigma > 0 || sensor.dropout > 0 || sensor.intensityDropout > 0) {
    applyLidarNoise(scan, 0, sensor.sigma, sensor.dropout, sensor.intensityDropout, sensor.seed, scanNumber)
  }
  if (scan.worldPoints !== null) lidarPointsToWorld(scan, 0, rot, pos)
}
