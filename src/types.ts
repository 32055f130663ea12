/**
 * The Sim interface and its internals' types, apart from createSim (src/sim.ts) so that code built
 * on a sim (replay, hosting, LodController, pitlane/pixi, pitlane/rapier) imports no wiring.
 */
import type { World } from 'bitecs'
import type { Components } from '../components/index'
import type { Schedule } from '../systems/schedule'
import type { SimClock } from './clock'
import type { ResolvedSimOptions } from './options'
import type { CollisionState } from './collision/state'
import type { LidarState } from './collision/lidar-install'
import type { VehicleState } from './vehicle/install'
import type { DriverState } from './driver/install'
import type { LodState } from './lod/install'

export type { SimOptions, ResolvedSimOptions } from './options'
export type { SimClock } from './clock'

/** Internal per-domain state of a sim (not public API; shapes may change). */
export interface SimInternals {
  collision: CollisionState
  lidars: LidarState
  vehicles: VehicleState
  drivers: DriverState
  lod: LodState
  /** The clock step() advances and the systems read. */
  clock: SimClock
}

/** A pitlane simulation living in a user's bitecs world. */
export interface Sim {
  /** The bitecs world this sim lives in. */
  readonly world: World
  /** This sim's component stores (per sim: two sims never share stores). */
  readonly components: Components
  /** The ordered schedule of systems run by step(). */
  readonly schedule: Schedule
  /** The ground plane's entity (a plane collider, group 1), or -1 when the sim has no ground. */
  readonly ground: number
  /** Options as resolved. */
  readonly options: ResolvedSimOptions
  /** Internal domain state (not public API: shapes may change). */
  readonly internal: SimInternals
  /** Simulated time, s: the sum of the host steps taken. Inside a system it is the time before the step being run. */
  readonly time: number
  /** The host step being run (inside a system) or last run, s; 0 before the first step. */
  readonly dt: number
  /** Host steps taken (a step counts once the schedule has run). */
  readonly steps: number

  /** Runs the schedule once with host step dt (s, finite, > 0). */
  step(dt: number): void
  /** Runs the schedule n times with dt; bit-identical to n calls of step. */
  stepMany(dt: number, n: number): void
  /** Moves a collider or a fixed lidar, or teleports a car (heading from rotation). */
  setPose(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void
  /** Removes a car, collider or lidar and everything it owns. */
  remove(eid: number): void

  addCollider: CollisionState['api']['addCollider']
  rayTest: CollisionState['api']['rayTest']
  addLidar: LidarState['api']['addLidar']
  lidarScan: LidarState['api']['lidarScan']
  rayTestLidar: LidarState['api']['rayTestLidar']
  addCar: VehicleState['api']['addCar']
  setInput: VehicleState['api']['setInput']
  getInput: VehicleState['api']['getInput']
  carState: VehicleState['api']['carState']
  setLod: VehicleState['api']['setLod']
  getLod: VehicleState['api']['getLod']
  snapshot: VehicleState['api']['snapshot']
  restore: VehicleState['api']['restore']
  carDefinition: VehicleState['api']['carDefinition']
  setAi: DriverState['api']['setAi']
  aiStatus: DriverState['api']['aiStatus']
  clearAi: DriverState['api']['clearAi']
  aiPath: DriverState['api']['aiPath']
}
