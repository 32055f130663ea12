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
import type { LidarState } from './lidar/install'
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

  /** Adds a collision body of `shape` (sphere, box, capsule, cylinder, heightfield, mesh); returns its entity id. */
  addCollider: CollisionState['api']['addCollider']
  /** The shape of a collider as addCollider takes it (a copy: heightfield heights included), the ground plane's as { kind: 'plane' }, or null for a collider of kind none. */
  colliderShape: CollisionState['api']['colliderShape']
  /** Closest hit along a ray within `length`, skipping the body whose object and localId match (both ≥ 0) and colliders outside `collisionMask`; the list is overwritten by the next call. */
  rayTest: CollisionState['api']['rayTest']
  /** Adds a lidar, fixed or mounted on a car (a mounted one never sees its car); returns its entity id. */
  addLidar: LidarState['api']['addLidar']
  /** The latest scan of `lidar` (overwritten by its next scan). */
  lidarScan: LidarState['api']['lidarScan']
  /** The world pose ({ position, rotation }) of `lidar`'s latest scan; a rotating lidar's: at the end of the latest step. */
  lidarPose: LidarState['api']['lidarPose']
  /** Casts a yaw × pitch pattern from a pose into `scan` (sensor-frame points, ray indices, ranges); returns `scan`. */
  rayTestLidar: LidarState['api']['rayTestLidar']
  /** Adds a car (default presets.hatchback) with a box collider for its chassis; returns its entity id. */
  addCar: VehicleState['api']['addCar']
  /** Sets some of a car's inputs (steer, throttle, brake, handbrake, clutch, gear); values are clamped into range, unknown keys refused. */
  setInput: VehicleState['api']['setInput']
  /** A car's current input record. */
  getInput: VehicleState['api']['getInput']
  /** A car's state: pose, velocity, wheel speeds, steering, suspension, engine, gear, clock, model and level; `out` (an earlier result) is filled in place, allocating nothing. */
  carState: VehicleState['api']['carState']
  /** Moves a car to a level of detail ('full', 'singleTrack', 'path', 'frozen'), optionally at substep rate `hz`. */
  setLod: VehicleState['api']['setLod']
  /** A car's level of detail and substep rate. */
  getLod: VehicleState['api']['getLod']
  /** A versioned, JSON-safe snapshot of a car's state (records its model). */
  snapshot: VehicleState['api']['snapshot']
  /** Restores a car from a snapshot (validated first; another model's snapshot moves the car to that model). */
  restore: VehicleState['api']['restore']
  /** The car's resolved definition (read-only). */
  carDefinition: VehicleState['api']['carDefinition']
  /** Hands a car to the path-following driver along `path` ([[x, y], …] or flat), with AiOptions. */
  setAi: DriverState['api']['setAi']
  /** The driver's progress on a car (distance, laps, lateral error, target speed, finished), or null without a driver. */
  aiStatus: DriverState['api']['aiStatus']
  /** Takes a car back from its driver (inputs stay at their last values; a 'path' car drops to 'singleTrack'). */
  clearAi: DriverState['api']['clearAi']
  /** The line the car's driver follows, or null without a driver. */
  aiPath: DriverState['api']['aiPath']
}
