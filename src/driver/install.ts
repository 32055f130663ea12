/** The path-following driver domain of a sim: the Driver component, setAi/aiStatus/clearAi/aiPath. Its system is systems/drive-paths.ts. */
import { addComponent, hasComponent, Not, observe, onRemove, registerQuery, removeComponent, type Query, type World } from 'bitecs'
import type { Components } from '../../components/index'
import type { CarStore } from '../../components/car'
import type { DriverStore } from '../../components/driver'
import { assertEntity } from '../entity'
import type { AiOptions } from './options'
import type { Polyline } from './polyline'
import type { ResolvedCar } from '../vehicle/definition'
import type { CollisionState } from '../collision/state'
import { shiftTable } from './gearing'
import { createDriveArrays, startDriver, type DriveArrays, type DriverPath } from './drive'
import { assignPath, createPathTable, preparePath, releasePath, type PathTable } from './path-table'
import { createNeutralWatch, type NeutralWatch } from './neutral'
import { DRIVER_AHEAD, DRIVER_DISTANCE, DRIVER_FINISHED, DRIVER_GAP, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_PASSING, DRIVER_STRIDE, DRIVER_TARGET } from '../../components/driver'
import { createTraffic, recordSize, type TrafficState } from './traffic'
import { dropGuest, joinLine, leaveLine } from './traffic-lines'

/** Builds (validating) a driver path outside any sim (used by world snapshots to rebuild one). */
export { buildDriverPath } from './path-table'

/** What `sim.aiStatus(car)` reports. */
export interface AiStatus {
  /** Distance driven along the (offset) path since setAi, m: 0 at the start; on a closed path it keeps accumulating over laps. */
  distance: number
  /** Full laps driven since setAi (closed paths; 0 on an open path). */
  laps: number
  /** Signed distance of the car from the offset path, m (+ = left of it). */
  lateralError: number
  /** The profile speed the driver is tracking now, m/s. */
  targetSpeed: number
  /** True once the car has stopped at the end of an open path. */
  finished: boolean
  /** True while the car's gear is neutral: the driver's throttle cannot move it (setInput a gear, or setAi with `shift: true`). */
  neutral: boolean
  /** The car it is following or passing (traffic 'avoid'), −1 none. */
  ahead: number
  /** Bumper-to-bumper gap to `ahead` along the line, m; Infinity none. */
  gap: number
  /** True while it is off its own line to pass (or on its way back). */
  passing: boolean
}

/** Driver state of a sim (internal). */
export interface DriverState {
  /** Each driven car's path, by entity id (undefined when the car has no driver). */
  paths: (DriverPath | undefined)[]
  /** The path records behind `paths`, shared by cars with the same points and options. */
  table: PathTable
  /** Each car's shift table when its driver shifts a manual box (options.shift), by entity id. */
  shiftTables: (Float64Array | undefined)[]
  /** The registered query of driven cars (held, so a step builds no query terms); the step skips the frozen and path ones by Car.level. */
  driven: Query
  /** The Car and Driver arrays the system hoists each run. */
  arrays: DriveArrays
  /** The sim's Car store. */
  Car: CarStore
  /** The sim's Driver store. */
  Driver: DriverStore
  /** Newly driven cars to check for a neutral gear after the next step (checkNeutralCars). */
  neutral: NeutralWatch
  /** Traffic: the driven cars by line, for the avoiding drivers (systems/traffic.ts). */
  traffic: TrafficState
  api: {
    /** Makes `car` follow `path` (`[[x, y], …]` or flat `[x0, y0, …]`) with `options`; replaces any previous path. */
    setAi(car: number, path: ArrayLike<number> | ArrayLike<ArrayLike<number>>, options?: AiOptions): void
    /** The driver's status of `car`, or null when the car has no driver. */
    aiStatus(car: number): AiStatus | null
    /** Removes the driver of `car` (the inputs keep their last values); nothing when it has none. */
    clearAi(car: number): void
    /** The line `car`'s driver follows (the path with its lateral offset; read-only), or null when the car has no driver. */
    aiPath(car: number): Polyline | null
  }
}

/** What the driver domain is built from. */
export interface DriverDeps {
  world: World
  components: Pick<Components, 'Car' | 'Driver'>
  /** The vehicle domain's definitions by car (a shifting driver reads the gearing). */
  defs: readonly (ResolvedCar | undefined)[]
  /** The sim's colliders (traffic's obstacles). */
  collision: CollisionState
  /** The ground's height, m. */
  groundZ: number
}

/** Builds the driver domain. */
export function installDrivers({ world, components, defs, collision, groundZ }: DriverDeps): DriverState {
  const { Car, Driver } = components
  const owner = { world }
  const table = createPathTable()
  const shiftTables: (Float64Array | undefined)[] = []
  // A driver goes with its car (or with clearAi); ids are recycled at once, so forget the path.
  const traffic = createTraffic(Car, Driver, table.byCar, defs, registerQuery(world, [Car, Not(Driver)]), collision, groundZ)
  observe(world, onRemove(Driver), (eid: number) => { releasePath(table, eid); shiftTables[eid] = undefined; leaveLine(traffic.lines, eid) })
  observe(world, onRemove(Car), (eid: number) => dropGuest(traffic.lines, eid))

  const assertCar = (car: unknown): number => {
    const eid = assertEntity(owner, car, 'car')
    if (!hasComponent(world, eid, Car)) throw new RangeError(`car ${eid} is not a car of this sim`)
    return eid
  }

  // every driven car: drive-paths skips the frozen and path ones by Car.level, so a LOD switch
  // changes no query (test/perf/perf.test.ts 'race frames': bitecs allocates per query touched)
  const driven = registerQuery(world, [Driver, Car])
  const neutral = createNeutralWatch()

  return {
    paths: table.byCar,
    table,
    shiftTables,
    driven,
    arrays: createDriveArrays(Car, Driver),
    Car,
    Driver,
    neutral,
    traffic,
    api: {
      setAi(car, path, options) {
        const eid = assertCar(car)
        const prepared = preparePath(table, path, options) // validates everything before any write
        if (!hasComponent(world, eid, Driver)) addComponent(world, eid, Driver)
        assignPath(table, eid, prepared)
        leaveLine(traffic.lines, eid)
        dropGuest(traffic.lines, eid)
        recordSize(traffic, eid)
        joinLine(traffic.lines, eid, prepared.base, prepared.path.options, traffic.halfLength[eid], traffic.halfWidth[eid])
        const d = defs[eid]!
        while (shiftTables.length <= eid) shiftTables.push(undefined)
        shiftTables[eid] = prepared.path.shift && !d.automatic ? shiftTable(d) : undefined
        startDriver(Car, Driver, prepared.path, eid)
        if (!neutral.warned) neutral.cars.add(eid)
      },
      aiStatus(car) {
        const eid = assertCar(car)
        if (!hasComponent(world, eid, Driver)) return null
        const R = Driver.state, o = eid * DRIVER_STRIDE
        return {
          distance: R[o + DRIVER_DISTANCE],
          laps: R[o + DRIVER_LAPS],
          lateralError: R[o + DRIVER_LATERAL],
          targetSpeed: R[o + DRIVER_TARGET],
          finished: R[o + DRIVER_FINISHED] === 1,
          neutral: Car.gear[eid] === 0,
          ahead: R[o + DRIVER_AHEAD],
          gap: R[o + DRIVER_GAP] < 0 ? Infinity : R[o + DRIVER_GAP],
          passing: R[o + DRIVER_PASSING] !== 0,
        }
      },
      clearAi(car) {
        const eid = assertCar(car)
        if (hasComponent(world, eid, Driver)) removeComponent(world, eid, Driver)
      },
      aiPath(car) {
        const eid = assertCar(car)
        return hasComponent(world, eid, Driver) ? table.byCar[eid]!.poly : null
      },
    },
  }
}
