/**
 * Driver component: the path-following driver's per-car state, one record of DRIVER_STRIDE
 * doubles per entity id in `Driver.state`. Owned by driver/. The path itself (points, arc length,
 * curvature, speed profile) lives in the sim's driver table (`sim.internal.drivers.paths[eid]`);
 * these fields are what changes each step.
 *
 * Reading a field: car `eid`'s field is at `eid * DRIVER_STRIDE + DRIVER_<FIELD>`, e.g.
 * ```ts
 * const R = sim.components.Driver.state            // (re-read after adding entities: it grows)
 * const lateral = R[eid * DRIVER_STRIDE + DRIVER_LATERAL]
 * const laps = R[eid * DRIVER_STRIDE + DRIVER_LAPS] // (integer fields are stored as doubles too)
 * ```
 * `sim.aiStatus(car)` gives the public fields as an object; DRIVER_FIELDS lists every field by
 * name in record order. Write a field only as the driver would (the integer fields as integers).
 * One record, not one array per field: the step reads a car's state from one or two cache lines.
 */
import { createStore } from './store'

/** Segment of the last projection (the next search starts there); an integer. */
export const DRIVER_SEG = 0
/** Segment of the last look-ahead point; an integer. */
export const DRIVER_GOAL_SEG = 1
/** Arc length of the last projection on the (offset) path, m, in [0, length]. */
export const DRIVER_S = 2
/** Distance driven along the (offset) path since setAi, m (0 at the start), accumulating over laps on a closed path. */
export const DRIVER_DISTANCE = 3
/** The distance laps count from, m (0: setAi starts distance at 0; older snapshots may hold another). */
export const DRIVER_START = 4
/** Full laps since setAi; an integer in [0, 2³¹ − 1]. */
export const DRIVER_LAPS = 5
/** Signed distance from the offset path, m (+ = car left of it). */
export const DRIVER_LATERAL = 6
/** Profile speed the controller tracks now, m/s. */
export const DRIVER_TARGET = 7
/** 1 once an open path's car has stopped at its end, else 0. */
export const DRIVER_FINISHED = 8
/** Speed loop's integrator, m/s² of demand. */
export const DRIVER_SPEED_I = 9
/** Curvature loop's integrator, 1/m. */
export const DRIVER_CURVE_I = 10
/** Traffic: the car it is following or passing (an entity id), −1 none; an integer. */
export const DRIVER_AHEAD = 11
/** Traffic: bumper-to-bumper gap to DRIVER_AHEAD along the line, m; −1 none. */
export const DRIVER_GAP = 12
/** Traffic: the side it is passing on (+1 left, −1 right), 0 when it is on its own line; an integer. */
export const DRIVER_PASSING = 13
/** Traffic: how far it drives beside its own (offset) line now, m (+ = left). */
export const DRIVER_SHIFT = 14
/** Traffic: where beside its own line it is heading, m (+ = left); DRIVER_SHIFT moves towards it at a bounded rate. */
export const DRIVER_SHIFT_GOAL = 15
/** Traffic: the speed it may not exceed now (the car ahead), m/s; −1 none. */
export const DRIVER_CAP = 16
/** Traffic: the sim time from which it looks again for a side to pass on or a way back, s. */
export const DRIVER_RECHECK = 17
/** Doubles per car in `Driver.state`. */
export const DRIVER_STRIDE = 18

/**
 * The record's fields by name, in record (and world-snapshot) order, with the integer type each
 * field was stored in when the store had one array per field ('i32', 'u8'; '' = double): a value
 * written from outside (a snapshot) is converted as that array converted it.
 */
export const DRIVER_FIELDS: readonly { readonly name: string; readonly int: '' | 'i32' | 'u8' }[] = [
  { name: 'seg', int: 'i32' }, { name: 'goalSeg', int: 'i32' }, { name: 's', int: '' }, { name: 'distance', int: '' },
  { name: 'start', int: '' }, { name: 'laps', int: 'i32' }, { name: 'lateralError', int: '' }, { name: 'targetSpeed', int: '' },
  { name: 'finished', int: 'u8' }, { name: 'speedI', int: '' }, { name: 'curveI', int: '' },
  { name: 'ahead', int: 'i32' }, { name: 'gap', int: '' }, { name: 'passing', int: 'i32' }, { name: 'shift', int: '' },
  { name: 'shiftGoal', int: '' }, { name: 'cap', int: '' }, { name: 'recheck', int: '' },
]

/** The Driver store: the driver's per-car record (see the module comment for reading a field). */
export interface DriverStore {
  /** DRIVER_STRIDE doubles per car (at DRIVER_STRIDE·id), fields at the DRIVER_* offsets: m, m/s, counts. */
  state: Float64Array
}

/** Creates the Driver store of one sim. */
export function createDriverComponent(): { Driver: DriverStore } {
  const Driver: DriverStore = createStore({ state: [Float64Array, DRIVER_STRIDE] } as const)
  return { Driver }
}
