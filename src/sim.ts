/**
 * createSim: builds a sim's component stores, clock and schedule, then each domain from exactly
 * what it needs, in dependency order, and registers their systems in one list. It only wires: the
 * calls that span domains (setPose, remove) dispatch to them. getSim(world) finds a world's sim
 * for users' systems; pitlane's own systems close over their domain's state instead.
 */
import { hasComponent, removeEntity, type World } from 'bitecs'
import { assertEntity, assertUnversioned } from './entity'
import { createComponents } from '../components/index'
import { createSchedule } from '../systems/schedule'
import { nonNegativeInteger, positiveNumber, describe } from './validate'
import { createClock, type SimClock } from './clock'
import { resolveOptions, type SimOptions } from './options'
import type { Sim, SimInternals } from './types'
import { installCollision } from './collision/install'
import { installLidars } from './collision/lidar-install'
import { installVehicles } from './vehicle/install'
import { installDrivers } from './driver/install'
import { installLod } from './lod/install'
import { selectLod } from '../systems/select-lod'
import { drivePaths } from '../systems/drive-paths'
import { stepVehicles } from '../systems/step-vehicles'
import { followCars } from '../systems/follow-cars'
import { rebuildBroadphase } from '../systems/rebuild-broadphase'
import { scanLidars } from '../systems/scan-lidars'

export type { Sim, SimInternals, SimOptions } from './types'

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

/** Creates a sim in `world`: registers this sim's components and systems. One sim per world. */
export function createSim(world: World, options?: SimOptions): Sim {
  if (world === null || typeof world !== 'object') throw new TypeError(`world must be a bitecs world, got ${describe(world)}`)
  if (simOfWorld.has(world as object)) throw new RangeError('world already has a pitlane sim')
  assertUnversioned(world)
  const resolved = resolveOptions(options)
  const components = createComponents(world)
  const schedule = createSchedule()
  const clock = createClock()

  // The domains, in dependency order: each is built from what it needs, all of it built before it.
  const collision = installCollision({ world, components, options: resolved })
  const vehicles = installVehicles({ world, components, options: resolved, collision })
  const drivers = installDrivers({ world, components })
  const lidars = installLidars({ world, components, options: resolved, collision })
  const lod = installLod()
  const internal: SimInternals = { collision, lidars, vehicles, drivers, lod, clock }

  // The schedule, phase by phase; each system closes over its domains' state and the clock.
  schedule.add(selectLod(lod), { name: 'select-lod', phase: 'lod' })
  schedule.add(drivePaths(drivers, clock), { name: 'drive-paths', phase: 'input' })
  schedule.add(stepVehicles(vehicles, clock), { name: 'step-vehicles', phase: 'vehicle' })
  schedule.add(followCars(vehicles, collision), { name: 'follow-cars', phase: 'broadphase' })
  schedule.add(rebuildBroadphase(collision), { name: 'rebuild-broadphase', phase: 'broadphase', after: 'follow-cars' })
  schedule.add(scanLidars(lidars, clock), { name: 'scan-lidars', phase: 'sensors' })

  const sim = {
    world, components, schedule, options: resolved, internal, ground: collision.ground,
    get time() { return clock.time },
    get dt() { return clock.dt },
    get steps() { return clock.steps },
    ...SIM_METHODS,
  } as unknown as Sim
  simOfWorld.set(world as object, sim)
  // The domains' methods fill the sim's placeholders (SIM_METHODS): writing existing properties
  // keeps its fast properties (adding ~20 with Object.assign pushed it into V8's dictionary mode,
  // a hash lookup on every call: ~7 ns of sim.rayTest's ~100, measured).
  for (const api of [collision.api, lidars.api, vehicles.api, drivers.api] as Record<string, unknown>[]) {
    for (const name of Object.keys(api)) {
      if (!(name in SIM_METHODS)) throw new Error(`pitlane: method ${name} is missing from SIM_METHODS`)
      ;(sim as unknown as Record<string, unknown>)[name] = api[name]
    }
  }

  sim.step = (dt: number) => {
    positiveNumber(dt, 'dt')
    stepOnce(sim, clock, dt)
  }
  sim.stepMany = (dt: number, n: number) => {
    positiveNumber(dt, 'dt')
    nonNegativeInteger(n, 'n')
    for (let i = 0; i < n; i++) stepOnce(sim, clock, dt)
  }
  sim.setPose = (eid, position, rotation) => {
    const { Car, Lidar, Collider } = components
    assertEntity(sim, eid, 'eid')
    if (hasComponent(world, eid, Car)) vehicles.teleport(eid, position, rotation)
    else if (hasComponent(world, eid, Lidar)) lidars.setPose(eid, position, rotation)
    else if (hasComponent(world, eid, Collider)) collision.setPose(eid, position, rotation)
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

function stepOnce(sim: Sim, clock: SimClock, dt: number): void {
  clock.dt = dt
  sim.schedule.run(sim.world)
  clock.steps++
  clock.time += dt
}
