/**
 * Traffic's view of the road: every driven car on a base line (the points given to setAi, open or
 * closed; any lateral offset) in one list ordered by its station, the base line's arc length at
 * the car. A step re-sorts each list by insertion (cars overtake rarely, so it is nearly sorted
 * and the sort is linear); a driver then finds the cars round it by walking its neighbours in the
 * list, never by testing every pair. A car's lateral place on the base line is its lateral offset
 * plus its distance from its own line (DRIVER_LATERAL).
 */
import type { Polyline } from './polyline'
import { SEG_S, SEG_STRIDE } from './polyline'
import type { DriverPath } from './drive'
import { DRIVER_LATERAL, DRIVER_S, DRIVER_SEG, DRIVER_STRIDE } from '../../components/driver'

/** The driven cars on one base line, ordered by station. */
export interface TrafficLine {
  /** The base line (the validated points of setAi). */
  readonly base: Polyline
  /** Its length, m (a closed line's stations wrap at it). */
  readonly length: number
  readonly closed: boolean
  /** The cars in station order (the first `count` entries). */
  cars: Int32Array
  /** Each listed car's station this step, m, in list order. */
  station: Float64Array
  /** Each listed car's lateral place on the base line this step, m (+ left), in list order. */
  lateral: Float64Array
  count: number
}

/** The traffic lines of a sim and each driven car's line. */
export interface TrafficLines {
  readonly lines: TrafficLine[]
  /** Each driven car's line (an index into lines), −1 none; by entity id. */
  lineOf: Int32Array
}

/** No lines yet. */
export function createTrafficLines(): TrafficLines {
  return { lines: [], lineOf: new Int32Array(64).fill(-1) }
}

function sameLine(a: Polyline, b: Polyline): boolean {
  if (a === b) return true
  if (a.n !== b.n || a.closed !== b.closed) return false
  for (let i = 0; i < a.n; i++) if (a.x[i] !== b.x[i] || a.y[i] !== b.y[i]) return false
  return true
}

/** Puts car `eid` on the line of `base` (after leaveLine). */
export function joinLine(tl: TrafficLines, eid: number, base: Polyline): void {
  let index = tl.lines.findIndex((l) => sameLine(l.base, base))
  if (index < 0) {
    index = tl.lines.length
    tl.lines.push({ base, length: base.length, closed: base.closed, cars: new Int32Array(16), station: new Float64Array(16), lateral: new Float64Array(16), count: 0 })
  }
  const line = tl.lines[index]
  if (line.count === line.cars.length) {
    const cars = new Int32Array(2 * line.count)
    cars.set(line.cars)
    line.cars = cars
    line.station = new Float64Array(2 * line.count)
    line.lateral = new Float64Array(2 * line.count)
  }
  // at the end: the next step's sort puts it in place (its station is not known before)
  line.cars[line.count++] = eid
  if (eid >= tl.lineOf.length) {
    let n = tl.lineOf.length
    while (n <= eid) n *= 2
    const lineOf = new Int32Array(n).fill(-1)
    lineOf.set(tl.lineOf)
    tl.lineOf = lineOf
  }
  tl.lineOf[eid] = index
}

/** Takes car `eid` off its line (nothing when it has none). */
export function leaveLine(tl: TrafficLines, eid: number): void {
  if (eid >= tl.lineOf.length || tl.lineOf[eid] < 0) return
  const line = tl.lines[tl.lineOf[eid]]
  tl.lineOf[eid] = -1
  const cars = line.cars
  let k = 0
  while (k < line.count && cars[k] !== eid) k++
  if (k === line.count) return
  cars.copyWithin(k, k + 1, line.count)
  line.count--
}

/** The station of a car at arc length `s` on segment `seg` of its `path`, m. */
export function stationOf(path: DriverPath, seg: number, s: number): number {
  const table = path.station
  if (table === null) return s
  return table[2 * seg] + (s - path.packed[seg * SEG_STRIDE + SEG_S]) * table[2 * seg + 1]
}

/**
 * Reads every listed car's station and lateral place (from its driver record) and sorts the list
 * by station (insertion sort: the list is nearly sorted from the last step). Ties keep their order.
 */
export function orderLine(line: TrafficLine, paths: readonly (DriverPath | undefined)[], R: Float64Array): void {
  const cars = line.cars, station = line.station, lateral = line.lateral, n = line.count, L = line.length, closed = line.closed
  for (let k = 0; k < n; k++) {
    const eid = cars[k], path = paths[eid]!, o = eid * DRIVER_STRIDE
    let st = stationOf(path, R[o + DRIVER_SEG] | 0, R[o + DRIVER_S])
    if (closed) st = st < 0 ? st + L : st >= L ? st - L : st
    station[k] = st
    lateral[k] = path.options.lateralOffset + R[o + DRIVER_LATERAL]
  }
  for (let k = 1; k < n; k++) {
    const st = station[k]
    if (!(st < station[k - 1])) continue
    const eid = cars[k], lat = lateral[k]
    let j = k - 1
    while (j >= 0 && station[j] > st) { station[j + 1] = station[j]; cars[j + 1] = cars[j]; lateral[j + 1] = lateral[j]; j-- }
    station[j + 1] = st; cars[j + 1] = eid; lateral[j + 1] = lat
  }
}
