/**
 * Car components: vehicle state SoA by entity id (CarStore documents each field: unit and frame),
 * and one tag per level of detail. Owned by vehicle/; the fields beyond the input record, the
 * pose and motion and `collider` are the models' internal state (see src/vehicle/).
 */
import { createStore } from './store'

/**
 * The Car store: one array per field, indexed by the car's entity id (`Car.speed[car]`). Units are
 * SI (m, s, rad); "world" is the sim's frame (x, y on the ground plane, z up), "body" the car's
 * (x forward, y left). The input fields are what `sim.setInput` writes (clamped into range).
 */
export interface CarStore {
  /** Input: steering, in [-1, 1] (+ = left). */
  steer: Float64Array
  /** Input: throttle pedal, in [0, 1]. */
  throttle: Float64Array
  /** Input: brake pedal, in [0, 1]. */
  brake: Float64Array
  /** Input: handbrake (rear wheels), in [0, 1]. */
  handbrake: Float64Array
  /** Input: clutch pedal, in [0, 1] (1 = pedal down, disengaged). */
  clutch: Float64Array
  /** Input: the gear asked for, an integer: -1 reverse, 0 neutral, 1 and up forward (an automatic: any value ≥ 1 is drive). */
  gear: Int32Array
  /** The definition's wheelbase, m (a constant per car). */
  wheelbase: Float64Array
  /** The road-wheel angle at steer = ±1, rad (a constant per car). */
  maxSteer: Float64Array
  /** Centre of mass, world x, m (on the ground plane). */
  x: Float64Array
  /** Centre of mass, world y, m (on the ground plane). */
  y: Float64Array
  /** Heading, rad: the body x axis's angle from world +x towards +y. */
  heading: Float64Array
  /** Velocity of the centre of mass along the body x axis (forward), m/s. */
  vx: Float64Array
  /** Velocity of the centre of mass along the body y axis (left), m/s. */
  vy: Float64Array
  /** Yaw rate, rad/s (+ = turning left). */
  yawRate: Float64Array
  /** Ground speed |v|, m/s, signed by vx (negative when moving backwards). */
  speed: Float64Array
  /** Sprung mass: heave, m: the centre of mass's height over the ground height plus the definition's cgHeight. */
  heave: Float64Array
  /** Sprung mass: heave rate, m/s (up). */
  heaveRate: Float64Array
  /** Sprung mass: body roll against the world, rad (+ = left side up). */
  roll: Float64Array
  /** Sprung mass: roll rate, rad/s. */
  rollRate: Float64Array
  /** Sprung mass: body pitch against the world, rad (+ = nose down). */
  pitch: Float64Array
  /** Sprung mass: pitch rate, rad/s. */
  pitchRate: Float64Array
  /** Wheel spin rates, rad/s, 4 per car (FL, FR, RL, RR at 4·car + i); single-track uses 0 (front axle) and 2 (rear axle). */
  wheelSpeed: Float64Array
  /** The road wheels' actual (rate-limited) steering angle, rad (+ = left). */
  steerAngle: Float64Array
  /** Engine speed, rad/s (CarState.engineRpm gives rpm). */
  engineSpeed: Float64Array
  /** The gear engaged now (differs from `gear` during a shift), an integer as `gear`. */
  gearActual: Int32Array
  /** Time left of the shift under way, s (0: none). */
  shiftTimer: Float64Array
  /** Longitudinal tyre force over mass of the last substep, m/s², body x (single-track load transfer). */
  ax: Float64Array
  /** The car's own clock, s (its substeps so far). */
  time: Float64Array
  /** Substep accumulator: the fraction of a substep carried to the next host step. */
  acc: Float64Array
  /** The model stepping it: 0 four-wheel, 1 single-track. */
  model: Uint8Array
  /** Level of detail: 0 full, 1 singleTrack, 2 frozen, 3 path (sim.getLod names it). */
  level: Uint8Array
  /** Substep rate, Hz. */
  hz: Float64Array
  /** The chassis box collider's entity id (-1 while none). */
  collider: Int32Array
  /** The collision groups its wheels stand on (addCar's groundMask). */
  groundMask: Int32Array
  /** Which wheels carried load in the last substep, 4 per car (FL, FR, RL, RR; single-track and path: their axles as pairs), 1 or 0. */
  grounded: Uint8Array
}

const CAR_SCHEMA = {
  // input record
  steer: Float64Array,
  throttle: Float64Array,
  brake: Float64Array,
  handbrake: Float64Array,
  clutch: Float64Array,
  gear: Int32Array,
  // per-car constants the driver reads
  wheelbase: Float64Array,
  maxSteer: Float64Array,
  // planar pose and motion
  x: Float64Array,
  y: Float64Array,
  heading: Float64Array,
  vx: Float64Array,
  vy: Float64Array,
  yawRate: Float64Array,
  speed: Float64Array,
  // sprung mass against the world: heave (centre of mass height over ground height + cgHeight), roll, pitch and their rates
  heave: Float64Array,
  heaveRate: Float64Array,
  roll: Float64Array,
  rollRate: Float64Array,
  pitch: Float64Array,
  pitchRate: Float64Array,
  // wheels FL, FR, RL, RR (rad/s); single-track uses 0 (front axle) and 2 (rear axle), mirrored
  wheelSpeed: [Float64Array, 4],
  // actual centre road-wheel steering angle (rate limited), rad
  steerAngle: Float64Array,
  // powertrain
  engineSpeed: Float64Array,
  gearActual: Int32Array,
  shiftTimer: Float64Array,
  // longitudinal tyre force / mass (m/s², body frame) of the last substep, for single-track load transfer
  ax: Float64Array,
  // the car's clock (s) and substep accumulator (fraction of a substep)
  time: Float64Array,
  acc: Float64Array,
  // model (0 four-wheel, 1 single-track), level (0 full, 1 singleTrack, 2 frozen, 3 path), substep rate
  model: Uint8Array,
  level: Uint8Array,
  hz: Float64Array,
  collider: Int32Array,
  // the collision groups its wheels stand on, and which wheels carried load in the last substep (single-track: its axles as pairs)
  groundMask: Int32Array,
  grounded: [Uint8Array, 4],
} as const

/** Level tags: each car carries exactly one, so a query can select the cars of one level. */
export interface CarLevelTags {
  /** Tag: the car steps with its full (definition's) model. */
  LodFull: object
  /** Tag: the car steps with the single-track model. */
  LodSingleTrack: object
  /** Tag: the car is frozen (not stepped). */
  LodFrozen: object
  /** Tag: the car moves along its driver's line (the path level). */
  LodPath: object
}

/** Creates the Car store and the level tags of one sim. */
export function createCarComponents(): { Car: CarStore } & CarLevelTags {
  // the interface and the schema agree both ways: a field missing from either fails to compile
  const Car: CarStore = createStore(CAR_SCHEMA)
  void (Car satisfies Record<keyof typeof CAR_SCHEMA, ArrayLike<number>>)
  return { Car, LodFull: {}, LodSingleTrack: {}, LodFrozen: {}, LodPath: {} }
}
