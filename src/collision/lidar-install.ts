/** Installs lidars into a sim: the Lidar component, addLidar, lidarScan, rayTestLidar and the sensors system. */
import type { Sim } from '../sim'

/** Lidar state of a sim (internal). */
export interface LidarState {
  api: {
    /** Adds a lidar; see DESIGN section 3. */
    addLidar(options: unknown): number
    /** The latest scan of a lidar. */
    lidarScan(lidar: number): unknown
    /** A batched lidar scan; see DESIGN section 5. */
    rayTestLidar(...args: unknown[]): void
  }
  /** Moves a fixed lidar. */
  setPose(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void
}

/** Installs lidars into `sim`. */
export function installLidars(sim: Sim): LidarState {
  void sim
  const todo = () => { throw new Error('not implemented yet') }
  return { api: { addLidar: todo, lidarScan: todo, rayTestLidar: todo }, setPose: todo }
}
