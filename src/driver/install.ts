/** Installs the path-following driver into a sim: the Driver component, setAi/aiStatus/clearAi and the input system. */
import { addComponent, hasComponent, Not, observe, onRemove, registerQuery, removeComponent, type Query } from 'bitecs'
import { assertEntity, type Sim } from '../sim'
import { createPolyline } from './polyline'
import { offsetPolyline, pointCurvatures } from './curvature'
import { buildSpeedProfile } from './profile'
import { resolveAiOptions, type AiOptions } from './options'
import { startDriver, type DriverPath } from './drive'
import { drivePaths } from '../../systems/drive-paths'

/** What `sim.aiStatus(car)` reports. */
export interface AiStatus {
  /** Distance along the (offset) path, m; on a closed path it keeps accumulating over laps. */
  distance: number
  /** Full laps driven since setAi (closed paths; 0 on an open path). */
  laps: number
  /** Signed distance of the car from the offset path, m (+ = left of it). */
  lateralError: number
  /** The profile speed the driver is tracking now, m/s. */
  targetSpeed: number
  /** True once the car has stopped at the end of an open path. */
  finished: boolean
}

/** Point curvature span (m): neighbours at least this far along the path shape the curvature. */
const CURVATURE_SPAN = 1

/** Driver state of a sim (internal). */
export interface DriverState {
  /** Each driven car's path, by entity id (undefined when the car has no driver). */
  paths: (DriverPath | undefined)[]
  /** The registered query of driven, non-frozen cars (held, so a step builds no query terms). */
  driven: Query
  api: {
    /** Makes `car` follow `path` (`[[x, y], …]` or flat `[x0, y0, …]`) with `options`; replaces any previous path. */
    setAi(car: number, path: ArrayLike<number> | ArrayLike<ArrayLike<number>>, options?: AiOptions): void
    /** The driver's status of `car`, or null when the car has no driver. */
    aiStatus(car: number): AiStatus | null
    /** Removes the driver of `car` (the inputs keep their last values); nothing when it has none. */
    clearAi(car: number): void
  }
}

/** Builds the path a driver follows: validated points, offset, curvature and speed profile. */
export function buildDriverPath(path: unknown, options: unknown): DriverPath {
  const resolved = resolveAiOptions(options)
  const base = createPolyline(path, resolved.closed, 'path')
  const poly = offsetPolyline(base, resolved.lateralOffset)
  const kappa = pointCurvatures(poly, CURVATURE_SPAN)
  const profile = buildSpeedProfile(poly, kappa, resolved)
  return { poly, kappa, profile, options: resolved }
}

/** Installs drivers into `sim`. */
export function installDrivers(sim: Sim): DriverState {
  const { world } = sim
  const { Car, Driver } = sim.components
  const paths: (DriverPath | undefined)[] = []
  // A driver goes with its car (or with clearAi); ids are recycled at once, so forget the path.
  observe(world, onRemove(Driver), (eid: number) => { paths[eid] = undefined })

  const assertCar = (car: unknown): number => {
    const eid = assertEntity(sim, car, 'car')
    if (!hasComponent(world, eid, Car)) throw new TypeError(`car ${eid} is not a car of this sim`)
    return eid
  }

  const driven = registerQuery(world, [Driver, Car, Not(sim.components.LodFrozen)])
  sim.schedule.add(drivePaths, { name: 'drive-paths', phase: 'input' })

  return {
    paths,
    driven,
    api: {
      setAi(car, path, options) {
        const eid = assertCar(car)
        const built = buildDriverPath(path, options) // validates everything before any write
        if (!hasComponent(world, eid, Driver)) addComponent(world, eid, Driver)
        while (paths.length <= eid) paths.push(undefined)
        paths[eid] = built
        startDriver(Car, sim.components.Driver, built, eid)
      },
      aiStatus(car) {
        const eid = assertCar(car)
        if (!hasComponent(world, eid, Driver)) return null
        const D = sim.components.Driver
        return {
          distance: D.distance[eid],
          laps: D.laps[eid],
          lateralError: D.lateralError[eid],
          targetSpeed: D.targetSpeed[eid],
          finished: D.finished[eid] === 1,
        }
      },
      clearAi(car) {
        const eid = assertCar(car)
        if (hasComponent(world, eid, Driver)) removeComponent(world, eid, Driver)
      },
    },
  }
}
