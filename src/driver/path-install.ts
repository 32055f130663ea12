/** The path level of detail in a sim: the vehicle domain's hooks for it, the query of path cars, and setAi/clearAi on them. Its system is systems/step-path-cars.ts. */
import { hasComponent, observe, onAdd, registerQuery, type Query, type World } from 'bitecs'
import type { Components } from '../../components/index'
import type { VehicleState } from '../vehicle/install'
import type { DriverState } from './install'
import { assertEntity } from '../entity'
import { assignTable, createPathLevel, enterPath, leavePath, type PathLevelState } from './path-level'

/** What the path level is built from: the drivers' paths and the vehicles' definitions and level changes. */
export interface PathLevelDeps {
  world: World
  components: Pick<Components, 'Car' | 'Driver' | 'LodPath'>
  drivers: DriverState
  vehicles: VehicleState
}

/** The path level of a sim (internal). */
export interface PathLevelDomain {
  state: PathLevelState
  /** Registered query: cars at the path level. Call commitRemovals first. */
  cars: Query
}

/** Builds the path level: hooks it into the vehicles' level changes and the drivers' setAi/clearAi. */
export function installPathLevel({ world, components, drivers, vehicles }: PathLevelDeps): PathLevelDomain {
  const { Car, Driver, LodPath } = components
  const state = createPathLevel(Car, Driver, drivers.paths, vehicles.defs, vehicles.gravity)
  const owner = { world }
  vehicles.pathLevel = {
    check(eid) {
      if (!hasComponent(world, eid, Driver)) throw new RangeError(`car ${eid} has no driver (sim.setAi): only a driven car can take the 'path' level`)
    },
    enter: (eid) => enterPath(state, eid),
    leave: (eid) => leavePath(state, eid),
  }
  observe(world, onAdd(LodPath), (eid: number) => assignTable(state, eid))
  const isPath = (car: unknown): number => {
    const eid = assertEntity(owner, car, 'car')
    return hasComponent(world, eid, LodPath) ? eid : -1
  }
  // A new path for a car at the path level puts it on the new line; clearAi drops it to singleTrack first.
  const { setAi, clearAi } = drivers.api
  drivers.api.setAi = (car, path, options) => {
    setAi(car, path, options)
    const eid = isPath(car)
    if (eid >= 0) { assignTable(state, eid); enterPath(state, eid) }
  }
  drivers.api.clearAi = (car) => {
    if (drivers.api.aiStatus(car) !== null && isPath(car) >= 0) vehicles.api.setLod(car, 'singleTrack')
    clearAi(car)
  }
  return { state, cars: registerQuery(world, [Car, Driver, LodPath]) }
}
