/**
 * The host contract: how a rigid-body engine the game already runs (Rapier, …) carries a
 * pitlane car's chassis, so the car collides with the game's world while pitlane still computes
 * its tyres, suspension, steering and powertrain.
 *
 * What the host gives pitlane, per hosted car: the chassis' planar pose and velocity
 * (`read`). What pitlane gives back: the planar impulse of its tyre, drag and rolling forces
 * (`applyImpulse`, world frame, at the centre of mass, plus a yaw impulse), summed over the
 * substeps taken since the host last stepped. The host integrates the chassis (and resolves its
 * contacts) in `step`; pitlane reads the result back. The sprung mass (heave, roll, pitch) stays
 * pitlane's: the host's chassis moves in the ground plane only, so tyre loads and load transfer
 * are exactly the four-wheel model's. Ground queries are not part of the contract: the four-wheel
 * model runs on the sim's flat ground and its surface map.
 *
 * A host object serves any number of cars, addressed by the car's entity id.
 */

/** A rigid-body engine that carries the chassis of pitlane cars (see the file comment). */
export interface VehicleHost {
  /** How substeps meet the host: 'host' = one host step per sim step, 'substep' = one per car substep. */
  readonly rate: 'host' | 'substep'
  /** True when pitlane steps the host in the vehicle phase (false: the game steps it after sim.step). */
  readonly stepsWithSim: boolean
  /** Creates the chassis body of `car` with this pose and velocity (world frame); `frozen`: kinematic at rest. */
  attach(car: number, init: ChassisState, mass: ChassisMass, frozen: boolean): void
  /** Removes the chassis body of `car`. */
  detach(car: number): void
  /** Writes the chassis pose and velocity of `car` into `out` (see ChassisState's layout). */
  read(car: number, out: Float64Array): void
  /** Moves the chassis of `car` to this pose and velocity (teleport, snapshot restore). */
  write(car: number, s: ChassisState): void
  /** Adds a world-frame planar impulse (N·s) at the centre of mass and a yaw impulse (N·m·s). */
  applyImpulse(car: number, jx: number, jy: number, jyaw: number): void
  /** Frozen: the body stays put (kinematic, asleep) and other bodies hit it as a wall; thawed: dynamic again with `s`'s velocity. */
  setFrozen(car: number, frozen: boolean, s: ChassisState): void
  /** Advances the host's world by dt (s); only called when stepsWithSim is true. */
  step(dt: number): void
}

/**
 * A chassis' planar state, a Float64Array(6): [x, y, heading, vx, vy, yawRate] with the
 * velocity in the world frame (m, rad, m/s, rad/s).
 */
export type ChassisState = Float64Array

/** Mass properties a host gives the chassis body: mass (kg) and roll, pitch, yaw inertia (kg·m²). */
export interface ChassisMass {
  mass: number
  ixx: number
  iyy: number
  izz: number
}

/**
 * Tag of a hosted car: the normal vehicle step skips it and step-hosted-cars runs it. A tag has
 * no store, so one object serves every sim (bitecs registers it per world).
 */
export const Hosted = {}

/** The methods enableHosting adds to a sim. */
export interface HostingApi {
  /** Puts `car` on `host` (its state carries across without a jump, like a LOD switch). */
  setHost(car: number, host: VehicleHost): void
  /** Takes `car` off its host, back to pitlane's own integration (no jump). */
  clearHost(car: number): void
  /** The host carrying `car`, or null. */
  hostOf(car: number): VehicleHost | null
}
