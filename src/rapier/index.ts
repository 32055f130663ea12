/**
 * pitlane/rapier: Rapier (@dimforge/rapier3d-compat) as a VehicleHost.
 *
 * A hosted car's chassis is
 * a dynamic Rapier rigid body with a cuboid collider, moving in the ground plane (z translation,
 * roll and pitch locked: the sprung mass stays pitlane's), so it hits the game's Rapier bodies and
 * other hosted cars while pitlane computes its tyres, suspension and powertrain.
 *
 * ```ts
 * import RAPIER from '@dimforge/rapier3d-compat'
 * import { attachRapier } from 'pitlane/rapier'
 * await RAPIER.init()
 * const rapier = attachRapier(sim, new RAPIER.World({ x: 0, y: 0, z: -9.81 }), RAPIER)
 * rapier.sim.setHost(car, rapier)      // or rapier.host(car); rapier.sim.clearHost(car)
 * ```
 * The RAPIER module is passed in, so pitlane's core never imports Rapier. By default the adapter
 * steps the Rapier world once per sim step, inside the 'vehicle' phase (system
 * 'step-hosted-cars'); with `stepWorld: false` the game steps it after sim.step and pitlane reads
 * the result at the start of the next step. Why one Rapier step per sim step, with pitlane's
 * substeps inside: docs/decisions/0004-host-substeps.md.
 * @module pitlane/rapier
 */
import type RAPIER_MODULE from '@dimforge/rapier3d-compat'
import type { Collider, EventQueue, RigidBody, World as RapierWorld } from '@dimforge/rapier3d-compat'
import { enableHosting, type CarState, type ChassisMass, type ChassisState, type HostedSim, type Sim, type VehicleHost } from '../index'
import { mat3FromEuler } from '../math/mat3'
import { quatFromMat3 } from '../math/quat'
import { describe, nonNegativeNumber, optionKeys, optionsObject } from '../validate'
import { mirrorCollider } from './mirror'

// Rapier's wasm-side vector (the type VectorOps.intoRaw returns)
type RawVector = ReturnType<RapierModule['VectorOps']['intoRaw']>

export type { VehicleHost, ChassisState, ChassisMass, HostingApi, HostedSim } from '../index'
export { enableHosting } from '../index'

/** The Rapier module (what `import RAPIER from '@dimforge/rapier3d-compat'` gives). */
export type RapierModule = typeof RAPIER_MODULE

/** Options of attachRapier. */
export interface RapierHostOptions {
  /** 'host' (default): one Rapier step per sim step with pitlane's substeps inside; 'substep': one per substep. */
  rate?: 'host' | 'substep'
  /** True (default): pitlane steps the Rapier world in the vehicle phase; false: the game does, after sim.step. */
  stepWorld?: boolean
  /** The chassis cuboid starts this high above the ground, m (default 0.1), so it never rubs on a Rapier ground. */
  clearance?: number
  /** Chassis friction coefficient (default 0.3). */
  friction?: number
  /** Chassis restitution (default 0.1). */
  restitution?: number
  /** Continuous collision detection on chassis bodies (default true: no tunnelling through thin walls). */
  ccd?: boolean
  /** Passed to every `world.step` pitlane makes (collision and contact-force events for the game). */
  eventQueue?: EventQueue
}

/** How far (m) the car's centre of mass may move up or down before its Rapier body is moved to follow. */
export const FOLLOW_Z = 0.005
/** How far (rad) the car's pitch or roll may turn before its Rapier body is turned to follow. */
export const FOLLOW_ANGLE = 0.005

const RAPIER_OPTION_KEYS = optionKeys<RapierHostOptions>({ rate: true, stepWorld: true, clearance: true, friction: true, restitution: true, ccd: true, eventQueue: true })

function bool(v: unknown, fallback: boolean, name: string): boolean {
  if (v === undefined) return fallback
  if (typeof v !== 'boolean') throw new TypeError(`${name} must be a boolean, got ${describe(v)}`)
  return v
}

/**
 * Rapier as the host of pitlane cars' chassis: each hosted car's chassis is a dynamic Rapier rigid
 * body (a cuboid, moving in the ground plane) that collides with the game's Rapier bodies, while
 * pitlane computes its tyres, suspension and powertrain. Made by attachRapier; hand it a car with
 * `sim.setHost(car, host)`.
 */
export class RapierHost implements VehicleHost {
  /** The sim, with setHost / clearHost / hostOf. */
  readonly sim: HostedSim
  /** The Rapier world the chassis bodies live in. */
  readonly world: RapierWorld
  /** How substeps meet Rapier. */
  readonly rate: 'host' | 'substep'
  /** True when pitlane steps the Rapier world. */
  readonly stepsWithSim: boolean
  private readonly R: RapierModule
  private readonly clearance: number
  private readonly friction: number
  private readonly restitution: number
  private readonly ccd: boolean
  private readonly eventQueue: EventQueue | undefined
  private readonly bodies: (RigidBody | null)[] = []
  private readonly colliders: (Collider | null)[] = []
  // per car, the height, pitch and roll its body was last put at (3 a car)
  private readonly placed: number[] = []
  private state: CarState | null = null
  private fixed: RigidBody | null = null
  // reused argument objects (Rapier copies them into wasm), and the rotation's scratch
  private readonly v = { x: 0, y: 0, z: 0 }
  private readonly q = { x: 0, y: 0, z: 0, w: 1 }
  // reused targets of Rapier's getters (without one, each call returns a new object)
  private readonly readT = { x: 0, y: 0, z: 0 }
  private readonly readQ = { x: 0, y: 0, z: 0, w: 1 }
  private readonly readV = { x: 0, y: 0, z: 0 }
  // the impulses' argument, a wasm-side vector kept for good: RigidBody.applyImpulse makes (and frees) a new one per call
  private impulse: RawVector | null = null
  // the body's pose and velocity, read by follow
  private readonly bodyState = new Float64Array(6)
  private readonly m = new Float64Array(9)
  private readonly qa = new Float64Array(4)

  /** Use attachRapier. */
  constructor(sim: Sim, world: RapierWorld, R: RapierModule, options?: RapierHostOptions) {
    if (sim === null || typeof sim !== 'object' || !sim.components || !sim.world) throw new TypeError(`sim must be a pitlane Sim, got ${describe(sim)}`)
    if (R === null || typeof R !== 'object' || typeof (R as RapierModule).RigidBodyDesc !== 'function') {
      throw new TypeError(`RAPIER must be the @dimforge/rapier3d-compat module (after await RAPIER.init()), got ${describe(R)}`)
    }
    if (!(world instanceof R.World)) throw new TypeError(`rapierWorld must be a RAPIER.World, got ${describe(world)}`)
    const o = optionsObject<RapierHostOptions>(options, 'options', RAPIER_OPTION_KEYS)
    const rate = o.rate === undefined ? 'host' : o.rate
    if (rate !== 'host' && rate !== 'substep') throw new RangeError(`options.rate must be 'host' or 'substep', got ${describe(o.rate)}`)
    const stepWorld = bool(o.stepWorld, true, 'options.stepWorld')
    if (rate === 'substep' && !stepWorld) throw new RangeError("options.rate 'substep' needs options.stepWorld true (pitlane must step Rapier between substeps)")
    const clearance = o.clearance === undefined ? 0.1 : nonNegativeNumber(o.clearance, 'options.clearance')
    const friction = o.friction === undefined ? 0.3 : nonNegativeNumber(o.friction, 'options.friction')
    const restitution = o.restitution === undefined ? 0.1 : nonNegativeNumber(o.restitution, 'options.restitution')
    const ccd = bool(o.ccd, true, 'options.ccd')
    if (o.eventQueue !== undefined && !(o.eventQueue instanceof R.EventQueue)) throw new TypeError(`options.eventQueue must be a RAPIER.EventQueue, got ${describe(o.eventQueue)}`)
    this.R = R
    this.world = world
    this.rate = rate
    this.stepsWithSim = stepWorld
    this.clearance = clearance
    this.friction = friction
    this.restitution = restitution
    this.ccd = ccd
    this.eventQueue = o.eventQueue
    this.sim = enableHosting(sim, this)
  }

  /** Puts `car` on this host (same as sim.setHost(car, this)). */
  host(car: number): void {
    this.sim.setHost(car, this)
  }

  /** The chassis body of `car`, or null when it is not on this host. */
  bodyOf(car: number): RigidBody | null {
    return this.bodies[car] ?? null
  }

  /** The chassis collider of `car`, or null when it is not on this host. */
  colliderOf(car: number): Collider | null {
    return this.colliders[car] ?? null
  }

  /** Adds a fixed Rapier body with the shape and pose of pitlane collider `collider` (a barrier, a cone); returns its Rapier collider. */
  addFixed(collider: number): Collider {
    // one fixed body carries every mirrored collider (fewer bodies for Rapier to keep)
    if (this.fixed === null) this.fixed = this.world.createRigidBody(this.R.RigidBodyDesc.fixed())
    return mirrorCollider(this.sim, this.world, this.R, this.fixed, collider)
  }

  /** VehicleHost: creates the chassis body and cuboid of `car`. */
  attach(car: number, s: ChassisState, mass: ChassisMass, frozen: boolean): void {
    const R = this.R
    const d = this.sim.carDefinition(car)
    const c = Math.min(this.clearance, 0.5 * d.height)
    const halfZ = 0.5 * (d.height - c)
    // the body's origin at the centre of mass (as pitlane has it), the cuboid from `c` over the ground up
    const cs = this.carState(car)
    const z = cs.position[2]
    const desc = (frozen ? R.RigidBodyDesc.kinematicVelocityBased() : R.RigidBodyDesc.dynamic())
      .setTranslation(s[0], s[1], z)
      .setRotation(this.pose(s[2], cs.pitch, cs.roll))
      .enabledTranslations(true, true, false)
      .enabledRotations(false, false, true)
      .setGravityScale(0)
      .setCcdEnabled(this.ccd)
      .setAdditionalMassProperties(mass.mass, { x: 0, y: 0, z: 0 }, { x: mass.ixx, y: mass.iyy, z: mass.izz }, { x: 0, y: 0, z: 0, w: 1 })
    if (!frozen) desc.setLinvel(s[3], s[4], 0).setAngvel({ x: 0, y: 0, z: s[5] })
    const body = this.world.createRigidBody(desc)
    const cdesc = R.ColliderDesc.cuboid(0.5 * d.length, 0.5 * d.width, halfZ)
      .setTranslation(0, 0, c + halfZ - d.cgHeight)
      .setDensity(0)
      .setFriction(this.friction)
      .setRestitution(this.restitution)
    this.bodies[car] = body
    this.colliders[car] = this.world.createCollider(cdesc, body)
    // Rapier applies mass properties at its next step; the first impulses need them now
    body.recomputeMassPropertiesFromColliders()
    this.placed[3 * car] = z; this.placed[3 * car + 1] = cs.pitch; this.placed[3 * car + 2] = cs.roll
  }

  /** VehicleHost: removes the chassis body of `car`. */
  detach(car: number): void {
    const body = this.bodies[car]
    if (!body) return
    this.world.removeRigidBody(body)
    this.bodies[car] = null
    this.colliders[car] = null
  }

  /** VehicleHost: the chassis pose and world velocity of `car`. */
  read(car: number, out: Float64Array): void {
    const body = this.bodies[car]!
    const t = body.translation(this.readT)
    out[0] = t.x
    out[1] = t.y
    // the yaw of yaw · pitch · roll (roll and pitch are pitlane's, set by follow)
    const q = body.rotation(this.readQ)
    out[2] = Math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))
    const v = body.linvel(this.readV)
    out[3] = v.x
    out[4] = v.y
    out[5] = body.angvel(this.readV).z
  }

  /** VehicleHost: moves the chassis of `car` (pose, and velocity unless frozen). */
  write(car: number, s: ChassisState): void {
    const body = this.bodies[car]!
    const v = this.v
    const k = 3 * car
    v.x = s[0]; v.y = s[1]; v.z = this.placed[k]
    body.setTranslation(v, true)
    body.setRotation(this.pose(s[2], this.placed[k + 1], this.placed[k + 2]), true)
    if (!body.isDynamic()) return
    v.x = s[3]; v.y = s[4]; v.z = 0
    body.setLinvel(v, true)
    v.x = 0; v.y = 0; v.z = s[5]
    body.setAngvel(v, true)
  }

  /** VehicleHost: adds pitlane's planar impulse to the chassis of `car` (and first moves its body to the car's height, pitch and roll, when they moved). */
  applyImpulse(car: number, jx: number, jy: number, jyaw: number): void {
    const body = this.bodies[car]!
    this.follow(car, body)
    const wake = jx !== 0 || jy !== 0 || jyaw !== 0
    // what body.applyImpulse and applyTorqueImpulse do, on one kept wasm vector (they make and free
    // one per call: test/perf/perf.test.ts 'hosted20 steady' counts the garbage)
    const set = this.world.bodies.raw
    const r = this.impulse ?? (this.impulse = this.R.VectorOps.intoRaw(this.v))
    r.x = jx; r.y = jy; r.z = 0
    set.rbApplyImpulse(body.handle, r, wake)
    r.x = 0; r.y = 0; r.z = jyaw
    set.rbApplyTorqueImpulse(body.handle, r, wake)
  }

  /** VehicleHost: frozen = kinematic at rest (others hit it as a wall); thawed = dynamic with s's velocity. */
  setFrozen(car: number, frozen: boolean, s: ChassisState): void {
    const body = this.bodies[car]!
    const R = this.R
    body.setBodyType(frozen ? R.RigidBodyType.KinematicVelocityBased : R.RigidBodyType.Dynamic, !frozen)
    if (frozen) {
      const v = this.v
      v.x = 0; v.y = 0; v.z = 0
      body.setLinvel(v, false)
      body.setAngvel(v, false)
      body.sleep()
    } else {
      body.recomputeMassPropertiesFromColliders()
      this.write(car, s)
    }
  }

  /** VehicleHost: steps the Rapier world by dt. */
  step(dt: number): void {
    this.world.timestep = dt
    this.world.step(this.eventQueue)
  }

  /** The car's state, in one reused record. */
  private carState(car: number): CarState {
    return this.state === null ? (this.state = this.sim.carState(car)) : this.sim.carState(car, this.state)
  }

  /** Moves `car`'s body to its centre of mass's height and turns it to its pitch and roll, once they moved past the thresholds. */
  private follow(car: number, body: RigidBody): void {
    const s = this.carState(car), P = this.placed, k = 3 * car
    const z = s.position[2], pitch = s.pitch, roll = s.roll
    if (Math.abs(z - P[k]) < FOLLOW_Z && Math.abs(pitch - P[k + 1]) < FOLLOW_ANGLE && Math.abs(roll - P[k + 2]) < FOLLOW_ANGLE) return
    P[k] = z; P[k + 1] = pitch; P[k + 2] = roll
    const b = this.bodyState
    this.read(car, b)
    const v = this.v
    v.x = b[0]; v.y = b[1]; v.z = z
    body.setTranslation(v, false)
    body.setRotation(this.pose(b[2], pitch, roll), false)
  }

  /** The quaternion of yaw · pitch · roll (pitlane's order), in the reused argument object. */
  private pose(yaw: number, pitch: number, roll: number): { x: number; y: number; z: number; w: number } {
    mat3FromEuler(this.m, 0, yaw, pitch, roll)
    quatFromMat3(this.qa, 0, this.m, 0)
    const q = this.q
    q.x = this.qa[0]; q.y = this.qa[1]; q.z = this.qa[2]; q.w = this.qa[3]
    return q
  }
}

/**
 * Attaches a Rapier world to `sim` as a host of cars: returns the adapter, and gives the sim
 * `setHost(car, host)`, `clearHost(car)` and `hostOf(car)` (see RapierHost, RapierHostOptions).
 */
export function attachRapier(sim: Sim, rapierWorld: RapierWorld, RAPIER: RapierModule, options?: RapierHostOptions): RapierHost {
  return new RapierHost(sim, rapierWorld, RAPIER, options)
}
