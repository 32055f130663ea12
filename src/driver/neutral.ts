/**
 * The warning for a driven car left in neutral: the gear is the user's unless setAi's `shift`
 * hands it to the driver, so a car given a driver but no gear sits still with the throttle open.
 * Each setAi puts its car on a watch list; after a step the drive-paths system looks at the cars
 * on it (and only those, so a race pays nothing once its cars are checked): a car in gear, or
 * whose driver shifts, leaves the list; a car in neutral whose driver opens the throttle is
 * reported once per sim with both fixes, and the watch ends.
 */
import { hasComponent, type World } from 'bitecs'
import type { CarStore } from '../../components/car'
import type { DriverStore } from '../../components/driver'
import type { DriverPath } from './drive'

/** The watch over newly driven cars (part of the driver state). */
export interface NeutralWatch {
  /** Cars given a driver since they were last checked (a set: a car given one path after another is watched once). */
  cars: Set<number>
  /** True once the sim has warned (or been asked never to). */
  warned: boolean
}

/** A watch with no cars on it. */
export function createNeutralWatch(): NeutralWatch {
  return { cars: new Set(), warned: false }
}

/** The warning's text for car `car`. */
export function neutralWarning(car: number): string {
  return `pitlane: car ${car} has a driver (setAi) but its gear is neutral, so it will not move. ` +
    `Put it in gear yourself, sim.setInput(car, { gear: 1 }), or hand the gearbox to the driver, sim.setAi(car, path, { shift: true }). ` +
    '(sim.aiStatus(car).neutral tells; this warning is shown once per sim.)'
}

/** Checks the watched cars after a step; warns once (console.warn) for a driven car in neutral with its throttle open. */
export function checkNeutralCars(world: World, watch: NeutralWatch, Car: CarStore, Driver: DriverStore, paths: readonly (DriverPath | undefined)[]): void {
  const cars = watch.cars
  if (cars.size === 0) return
  for (const eid of cars) {
    const path = paths[eid]
    if (!hasComponent(world, eid, Driver) || path === undefined || path.shift || Car.gear[eid] !== 0) { cars.delete(eid); continue }
    if (Car.throttle[eid] > 0) {
      console.warn(neutralWarning(eid))
      watch.warned = true
      cars.clear()
      return
    }
    // in neutral but not asking to move yet (at its target speed, or finished): look again next step
  }
}
