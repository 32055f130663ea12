/**
 * Driver component: the path-following driver's per-car state, SoA by entity id. Owned by driver/.
 * The path itself (points, arc length, curvature, speed profile) lives in the sim's driver table
 * (`sim.internal.drivers.paths[eid]`); these fields are what changes each step.
 */
import { createStore } from './store'

/** Creates the Driver store of one sim. */
export function createDriverComponent() {
  const Driver = createStore({
    // segment of the last projection (the next search starts there), and of the last look-ahead point
    seg: Int32Array,
    goalSeg: Int32Array,
    // arc length of the last projection on the (offset) path, m, in [0, length]
    s: Float64Array,
    // distance along the path, m, accumulating over laps on a closed path; and its value at setAi
    distance: Float64Array,
    start: Float64Array,
    laps: Int32Array,
    // signed distance from the offset path, m (+ = car left of it)
    lateralError: Float64Array,
    // profile speed the controller tracks now, m/s
    targetSpeed: Float64Array,
    // 1 once an open path's car has stopped at its end
    finished: Uint8Array,
    // integrators: speed loop (m/s² of demand) and curvature loop (rad of road-wheel angle)
    speedI: Float64Array,
    curveI: Float64Array,
  } as const)
  return { Driver }
}

/** The Driver store type. */
export type DriverStore = ReturnType<typeof createDriverComponent>['Driver']
