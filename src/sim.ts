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
import { createClock } from './clock'
import { resolveOptions, type SimOptions } from './options'
import type { Sim, SimInternals } from './types'
import { installCollision } from './collision/install'
import { installLidars } from './lidar/install'
import { installVehicles } from './vehicle/install'
import { installDrivers } from './driver/install'
import { installPathLevel } from './driver/path-install'
import { installLod } from './lod/install'
import { selectLod } from '../systems/select-lod'
import { drivePaths } from '../systems/drive-paths'
import { stepVehicles } from '../systems/step-vehicles'
import { stepPathLevel } from '../systems/step-path-cars'
import { followCars } from '../systems/follow-cars'
import { rebuildBroadphase } from '../systems/rebuild-broadphase'
import { scanLidars } from '../systems/scan-lidars'

export type { Sim, SimInternals, SimOptions } from './types'

const simOfWorld = new WeakMap<object, Sim>()

/** The sim living in `world` (how a user's system finds its sim); throws if there is none. */
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
  const drivers = installDrivers({ world, components, defs: vehicles.defs })
  const pathLevel = installPathLevel({ world, components, drivers, vehicles })
  const lidars = installLidars({ world, components, options: resolved, collision })
  const lod = installLod()
  const internal: SimInternals = { collision, lidars, vehicles, drivers, lod, clock }

  // The schedule, phase by phase; each system closes over its domains' state and the clock.
  schedule.add(selectLod(lod), { name: 'select-lod', phase: 'lod' })
  schedule.add(drivePaths(drivers, clock), { name: 'drive-paths', phase: 'input' })
  schedule.add(stepVehicles(vehicles, clock), { name: 'step-vehicles', phase: 'vehicle' })
  schedule.add(stepPathLevel(pathLevel, clock, vehicles), { name: 'step-path-cars', phase: 'vehicle', after: 'step-vehicles' })
  schedule.add(followCars(vehicles, collision), { name: 'follow-cars', phase: 'broadphase' })
  schedule.add(rebuildBroadphase(collision), { name: 'rebuild-broadphase', phase: 'broadphase', after: 'follow-cars' })
  schedule.add(scanLidars(lidars, clock), { name: 'scan-lidars', phase: 'sensors' })

  const owner = { world }
  const { Car, Lidar, Collider } = components
  const stepOnce = (dt: number) => {
    clock.dt = dt
    schedule.run(world)
    clock.steps++
    clock.time += dt
  }

  // Built whole, the clock's getters added after the literal: a literal with accessors becomes a
  // hash-table object, and every call of a sim method (sim.rayTest per ray) a lookup in it
  // (decision 0007, checked by bench/ab.mjs rayTest).
  const fields: Omit<Sim, 'time' | 'dt' | 'steps'> = {
    world, components, schedule, options: resolved, internal, ground: collision.ground,
    step(dt) {
      positiveNumber(dt, 'dt')
      stepOnce(dt)
    },
    stepMany(dt, n) {
      positiveNumber(dt, 'dt')
      nonNegativeInteger(n, 'n')
      for (let i = 0; i < n; i++) stepOnce(dt)
    },
    setPose(eid, position, rotation) {
      assertEntity(owner, eid, 'eid')
      if (hasComponent(world, eid, Car)) vehicles.teleport(eid, position, rotation)
      else if (hasComponent(world, eid, Lidar)) lidars.setPose(eid, position, rotation)
      else if (hasComponent(world, eid, Collider)) collision.setPose(eid, position, rotation)
      else throw new RangeError(`eid ${eid} is not a car, collider or lidar of this sim`)
    },
    remove(eid) {
      assertEntity(owner, eid, 'eid')
      if (eid === collision.ground) throw new RangeError('eid is the ground plane, which cannot be removed')
      if (!hasComponent(world, eid, Car) && !hasComponent(world, eid, Lidar) && !hasComponent(world, eid, Collider)) {
        throw new RangeError(`eid ${eid} is not a car, collider or lidar of this sim`)
      }
      // Cleanup of what the entity owns runs in each domain's onRemove observer, so a raw
      // bitecs removeEntity does the same.
      removeEntity(world, eid)
    },
    addCollider: collision.api.addCollider,
    rayTest: collision.api.rayTest,
    colliderShape: collision.api.colliderShape,
    addLidar: lidars.api.addLidar,
    lidarScan: lidars.api.lidarScan,
    lidarPose: lidars.api.lidarPose,
    rayTestLidar: lidars.api.rayTestLidar,
    addCar: vehicles.api.addCar,
    setInput: vehicles.api.setInput,
    getInput: vehicles.api.getInput,
    carState: vehicles.api.carState,
    setLod: vehicles.api.setLod,
    getLod: vehicles.api.getLod,
    snapshot: vehicles.api.snapshot,
    restore: vehicles.api.restore,
    carDefinition: vehicles.api.carDefinition,
    setAi: drivers.api.setAi,
    aiStatus: drivers.api.aiStatus,
    clearAi: drivers.api.clearAi,
    aiPath: drivers.api.aiPath,
  }
  const sim = Object.defineProperties(fields, {
    time: { get: () => clock.time, enumerable: true, configurable: true },
    dt: { get: () => clock.dt, enumerable: true, configurable: true },
    steps: { get: () => clock.steps, enumerable: true, configurable: true },
  }) as Sim
  simOfWorld.set(world as object, sim)
  return sim
}
