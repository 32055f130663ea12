/**
 * Car components: vehicle state SoA by entity id, and one tag per level of detail. Owned by vehicle/.
 *
 * Fields other domains may read (all indexed by the car's entity id):
 * - input record (the driver writes these; `sim.setInput` clamps into these ranges):
 *   `steer` [-1, 1] (+ = left), `throttle` [0, 1], `brake` [0, 1], `handbrake` [0, 1],
 *   `clutch` [0, 1] (1 = pedal down, disengaged), `gear` (-1 reverse, 0 neutral, >= 1; for an
 *   automatic definition any value >= 1 means drive)
 * - per-car constants: `wheelbase` (m), `maxSteer` (rad, road-wheel angle at steer = ±1)
 * - pose and motion: `x`, `y` (m, centre of mass on the ground plane), `heading` (rad, from +x
 *   towards +y), `vx`, `vy` (m/s, body frame: x forward, y left), `speed` (m/s, |v|, signed by vx),
 *   `yawRate` (rad/s, + = turning left)
 * - `collider`: the chassis box collider's entity (-1 while none)
 * Everything else is the models' internal state (see src/vehicle/).
 */
import { createStore } from './store'

/** Creates the Car store and the level tags of one sim. */
export function createCarComponents() {
  const Car = createStore({
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
    // model (0 four-wheel, 1 single-track), level (0 full, 1 singleTrack, 2 frozen), substep rate
    model: Uint8Array,
    level: Uint8Array,
    hz: Float64Array,
    collider: Int32Array,
    // the collision groups its wheels stand on (addCar's groundMask), and which wheels carried load in the last substep (FL, FR, RL, RR; single-track: its axles as pairs)
    groundMask: Int32Array,
    grounded: [Uint8Array, 4],
  } as const)
  /** Tag: the car steps with its full (definition's) model. */
  const LodFull = {}
  /** Tag: the car steps with the single-track model. */
  const LodSingleTrack = {}
  /** Tag: the car is frozen (not stepped). */
  const LodFrozen = {}
  /** Tag: the car moves along its driver's line (the path level). */
  const LodPath = {}
  return { Car, LodFull, LodSingleTrack, LodFrozen, LodPath }
}

/** The Car store type. */
export type CarStore = ReturnType<typeof createCarComponents>['Car']
