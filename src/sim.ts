/**
 * createSim: the facade that owns a sim's component stores, its schedule and its query state.
 * Each domain (collision, lidar, vehicle, driver, lod) installs its own state and systems; this
 * file only wires them together and dispatches the calls that span domains.
 */
import { hasComponent, removeEntity, type World } from 'bitecs'
import { assertEntity, assertUnversioned } from './entity'
import { createComponents, type Components } from '../components/index'
import { createSchedule, type Schedule } from '../systems/schedule'
import { nonNegativeInteger, optionKeys, optionsObject, positiveNumber, describe } from './validate'
import { installCollision, type CollisionState } from './collision/install'
import { installLidars, type LidarState } from './collision/lidar-install'
import { installVehicles, type VehicleState } from './vehicle/install'
import { installDrivers, type DriverState } from './driver/install'
import { installLod, type LodState } from './lod/install'
import type { SurfaceMap } from './vehicle/surfaces'

/** Options of createSim. */
export interface SimOptions {
  /** Gravity, m/s² (default 9.81). */
  gravity?: number
  /** The ground plane: `{ height }` (default 0), or false for none. */
  ground?: { height?: number } | false
  /** Maps a ground position to a surface (grip, rolling resistance); default: tarmac everywhere. */
  surfaces?: SurfaceMap
}

/** The resolved options a sim runs with. */
export interface ResolvedSimOptions {
  gravity: number
  ground: { height: number } | false
  surfaces: SurfaceMap | undefined
}

/** Internal per-domain state of a sim (not public API; shapes may change). */
export interface SimInternals {
  collision: CollisionState
  lidars: LidarState
  vehicles: VehicleState
  drivers: DriverState
  lod: LodState
  /** Host steps taken. */
  steps: number
  /** Simulated host time, s. */
  time: number
  /** The dt of the step being run (or last run), s. */
  lastDt: number
}

/** A pitlane simulation living in a user's bitecs world. See DESIGN section 3. */
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

const simOfWorld = new WeakMap<object, Sim>()

/** The names of a sim's methods. */
type SimMethodName = Exclude<keyof Sim, 'world' | 'components' | 'schedule' | 'ground' | 'options' | 'internal' | 'time' | 'dt' | 'steps'>

/**
 * Every method of a sim, in one order, as placeholders: createSim makes the sim one object literal
 * with all of them (then fills them in), so every sim has the same hidden class in V8. A prototype
 * per sim (each sim's methods are closures over it) gave each sim its own class: code that met a
 * few sims (a server running several races, the bench, the tests) went polymorphic, then
 * megamorphic, on every `sim.` read, and a step-vehicles deoptimised at a new sim's first step
 * could be left allocating 27–65 KB per step for 200 cars (3 of 14 runs in the bench's order).
 */
const SIM_METHODS: { readonly [K in SimMethodName]: undefined } = {
  step: undefined, stepMany: undefined, setPose: undefined, remove: undefined,
  addCollider: undefined, rayTest: undefined, addLidar: undefined, lidarScan: undefined, rayTestLidar: undefined,
  addCar: undefined, setInput: undefined, getInput: undefined, carState: undefined, setLod: undefined, getLod: undefined,
  snapshot: undefined, restore: undefined, carDefinition: undefined, setAi: undefined, aiStatus: undefined, clearAi: undefined, aiPath: undefined,
}

/** The sim living in `world` (systems find their sim this way); throws if there is none. */
export function getSim(world: World): Sim {
  const sim = simOfWorld.get(world as object)
  if (!sim) throw new TypeError('world has no pitlane sim (call createSim(world) first)')
  return sim
}

const SIM_OPTION_KEYS = optionKeys<SimOptions>({ gravity: true, ground: true, surfaces: true })
const GROUND_KEYS = optionKeys<{ height: number }>({ height: true })

function resolveOptions(options: unknown): ResolvedSimOptions {
  const o = optionsObject<SimOptions>(options, 'options', SIM_OPTION_KEYS)
  const gravity = o.gravity === undefined ? 9.81 : positiveNumber(o.gravity, 'options.gravity')
  let ground: { height: number } | false = { height: 0 }
  if (o.ground === false) ground = false
  else if (o.ground !== undefined) {
    const g = optionsObject<{ height: number }>(o.ground, 'options.ground', GROUND_KEYS)
    const h = g.height === undefined ? 0 : g.height
    if (typeof h !== 'number') throw new TypeError(`options.ground.height must be a number, got ${describe(h)}`)
    if (!Number.isFinite(h)) throw new RangeError(`options.ground.height must be finite, got ${h}`)
    ground = { height: h }
  }
  if (o.surfaces !== undefined && (o.surfaces === null || typeof o.surfaces !== 'object' || typeof (o.surfaces as SurfaceMap).surfaceAt !== 'function')) {
    throw new TypeError('options.surfaces must be a SurfaceMap ({ surfaceAt(x, y) }), e.g. from surfaceGrid()')
  }
  return { gravity, ground, surfaces: o.surfaces }
}

/** Creates a sim in `world`: registers this sim's components and systems. One sim per world. */
export function createSim(world: World, options?: SimOptions): Sim {
  if (world === null || typeof world !== 'object') throw new TypeError(`world must be a bitecs world, got ${describe(world)}`)
  if (simOfWorld.has(world as object)) throw new RangeError('world already has a pitlane sim')
  assertUnversioned(world)
  const resolved = resolveOptions(options)
  const components = createComponents(world)
  const schedule = createSchedule()
  const internal = { steps: 0, time: 0, lastDt: 0 } as SimInternals
  const sim = {
    world, components, schedule, options: resolved, internal, ground: -1,
    get time() { return internal.time },
    get dt() { return internal.lastDt },
    get steps() { return internal.steps },
    ...SIM_METHODS,
  } as unknown as Sim & { ground: number }
  simOfWorld.set(world as object, sim)

  // Domains install in dependency order; each registers its systems in its phase.
  internal.lod = installLod(sim)
  internal.drivers = installDrivers(sim)
  internal.vehicles = installVehicles(sim)
  internal.collision = installCollision(sim)
  internal.lidars = installLidars(sim)
  // The domains' methods fill the sim's placeholders (SIM_METHODS): writing existing properties
  // keeps its fast properties (adding ~20 with Object.assign pushed it into V8's dictionary mode,
  // a hash lookup on every call: ~7 ns of sim.rayTest's ~100, measured).
  for (const api of [internal.collision.api, internal.lidars.api, internal.vehicles.api, internal.drivers.api] as Record<string, unknown>[]) {
    for (const name of Object.keys(api)) {
      if (!(name in SIM_METHODS)) throw new Error(`pitlane: method ${name} is missing from SIM_METHODS`)
      ;(sim as unknown as Record<string, unknown>)[name] = api[name]
    }
  }
  sim.ground = internal.collision.ground

  sim.step = (dt: number) => {
    positiveNumber(dt, 'dt')
    stepOnce(sim, dt)
  }
  sim.stepMany = (dt: number, n: number) => {
    positiveNumber(dt, 'dt')
    nonNegativeInteger(n, 'n')
    for (let i = 0; i < n; i++) stepOnce(sim, dt)
  }
  sim.setPose = (eid, position, rotation) => {
    const { Car, Lidar, Collider } = components
    assertEntity(sim, eid, 'eid')
    if (hasComponent(world, eid, Car)) internal.vehicles.teleport(eid, position, rotation)
    else if (hasComponent(world, eid, Lidar)) internal.lidars.setPose(eid, position, rotation)
    else if (hasComponent(world, eid, Collider)) internal.collision.setPose(eid, position, rotation)
    else throw new RangeError(`eid ${eid} is not a car, collider or lidar of this sim`)
  }
  sim.remove = (eid) => {
    const { Car, Lidar, Collider } = components
    assertEntity(sim, eid, 'eid')
    if (eid === sim.ground) throw new RangeError('eid is the ground plane, which cannot be removed')
    if (!hasComponent(world, eid, Car) && !hasComponent(world, eid, Lidar) && !hasComponent(world, eid, Collider)) {
      throw new RangeError(`eid ${eid} is not a car, collider or lidar of this sim`)
    }
    // Cleanup of what the entity owns runs in each domain's onRemove observer, so a raw
    // bitecs removeEntity does the same.
    removeEntity(world, eid)
  }
  return sim
}

function stepOnce(sim: Sim, dt: number): void {
  const internal = sim.internal
  internal.lastDt = dt
  sim.schedule.run(sim.world)
  internal.steps++
  internal.time += dt
}
