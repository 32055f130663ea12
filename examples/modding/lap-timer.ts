/**
 * Modding example: a lap-timing system that joins the schedule right after the vehicle step
 * ('step-vehicles'), so it sees every car's pose of this step. It times each forward crossing of a
 * start/finish line, interpolated within the step; crossing it backwards must be undone before a
 * lap counts again. Core-only: usable from node and from the browser.
 */
import { commitRemovals, observe, onAdd, query, registerQuery, type World } from 'bitecs'
import { getSim, type Sim } from '../../src/index'

/** Options of addLapTimer. */
export interface LapTimerOptions {
  /** The line, from its left end to its right end seen in the driving direction ([[x, y], [x, y]]). */
  line: readonly [ArrayLike<number>, ArrayLike<number>]
  /** The system's name in the schedule (default 'time-laps'). */
  name?: string
  /** The system it runs after (default 'step-vehicles'). */
  after?: string
}

/** Lap times of every car, kept by the lap-timing system. */
export interface LapTimer {
  /** The system's schedule name. */
  readonly name: string
  /** Completed laps of `car` (the first crossing starts lap 1; it does not complete one). */
  laps(car: number): number
  /** The last completed lap's time, s (NaN before one is done). */
  lastLap(car: number): number
  /** The best lap time, s (NaN before one is done). */
  bestLap(car: number): number
  /** Time into the current lap, s (NaN before the first crossing). */
  currentLap(car: number): number
  /** Every completed lap time of `car`, in order. */
  lapTimes(car: number): readonly number[]
  /** Sim time of the latest forward crossing of `car`, s (NaN before one). */
  lastCrossing(car: number): number
  /** Takes the system out of the schedule and stops listening to new cars. */
  remove(): void
}

/** Adds a lap-timing system to `sim` (after 'step-vehicles' unless told otherwise) and returns its records. */
export function addLapTimer(sim: Sim, options: LapTimerOptions): LapTimer {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object with a line')
  const line = options.line
  if (!Array.isArray(line) || line.length !== 2) throw new TypeError('options.line must be [[x, y], [x, y]]')
  for (const p of line) if (!p || !(Number.isFinite(p[0]) && Number.isFinite(p[1]))) throw new TypeError('options.line must be two finite [x, y] points')
  const ax = line[0][0], ay = line[0][1], bx = line[1][0], by = line[1][1]
  const lx = bx - ax, ly = by - ay, len2 = lx * lx + ly * ly
  if (!(len2 > 0)) throw new RangeError('options.line must have two distinct points')
  const name = options.name ?? 'time-laps'
  const after = options.after ?? 'step-vehicles'

  // Per-car state, SoA by entity id; grown on add, reset on add (ids are recycled at once).
  let cap = 0
  let prevX = new Float64Array(0), prevY = new Float64Array(0), crossed = new Float64Array(0)
  let best = new Float64Array(0), last = new Float64Array(0), laps = new Int32Array(0), debt = new Int32Array(0)
  const times: number[][] = []
  const { Car } = sim.components
  const grow = (eid: number) => {
    if (eid < cap) return
    let next = Math.max(64, cap)
    while (next <= eid) next *= 2
    const g64 = (a: Float64Array) => { const b = new Float64Array(next); b.set(a); return b }
    const g32 = (a: Int32Array) => { const b = new Int32Array(next); b.set(a); return b }
    prevX = g64(prevX); prevY = g64(prevY); crossed = g64(crossed); best = g64(best); last = g64(last)
    laps = g32(laps); debt = g32(debt)
    cap = next
  }
  const reset = (eid: number) => {
    grow(eid)
    prevX[eid] = NaN // unknown until the car's first step
    prevY[eid] = NaN
    crossed[eid] = NaN; best[eid] = NaN; last[eid] = NaN
    laps[eid] = 0; debt[eid] = 0
    times[eid] = []
  }
  for (const eid of query(sim.world, [Car])) reset(eid)
  const unobserve = observe(sim.world, onAdd(Car), reset)
  // Registered once: query() would build and hash its terms (and allocate) every step.
  const allCars = registerQuery(sim.world, [Car])

  const system = (world: World) => {
    const s = getSim(world)
    const x = Car.x, y = Car.y
    const dt = s.dt
    const t1 = s.time + dt // the sim clock after this step (time advances after the schedule runs)
    commitRemovals(world)
    const cars = allCars.dense
    for (let i = 0; i < cars.length; i++) {
      const eid = cars[i]
      const x1 = x[eid], y1 = y[eid], x0 = prevX[eid], y0 = prevY[eid]
      prevX[eid] = x1
      prevY[eid] = y1
      if (x0 !== x0) continue // first step seen
      // Side of the line: (line × point) > 0 ahead of it, since the line runs left → right.
      const s0 = lx * (y0 - ay) - ly * (x0 - ax)
      const s1 = lx * (y1 - ay) - ly * (x1 - ax)
      if ((s0 < 0) === (s1 < 0)) continue
      const f = s0 / (s0 - s1)
      const u = ((x0 + (x1 - x0) * f - ax) * lx + (y0 + (y1 - y0) * f - ay) * ly) / len2
      if (u < 0 || u > 1) continue // passed beside the line, not over it
      if (s0 < 0) {
        if (debt[eid] > 0) { debt[eid]--; continue }
        const tc = t1 - dt * (1 - f)
        if (crossed[eid] === crossed[eid]) {
          const lap = tc - crossed[eid]
          last[eid] = lap
          if (!(best[eid] <= lap)) best[eid] = lap
          laps[eid]++
          times[eid].push(lap)
        }
        crossed[eid] = tc
      } else {
        debt[eid]++
      }
    }
    return world
  }
  sim.schedule.add(system, { name, phase: 'vehicle', after })

  const check = (car: number) => {
    if (!Number.isInteger(car) || car < 0 || car >= cap || !times[car]) throw new RangeError(`car ${car} is not a car this lap timer knows`)
    return car
  }
  return {
    name,
    laps: (car) => laps[check(car)],
    lastLap: (car) => last[check(car)],
    bestLap: (car) => best[check(car)],
    currentLap: (car) => sim.time - crossed[check(car)],
    lapTimes: (car) => times[check(car)],
    lastCrossing: (car) => crossed[check(car)],
    remove: () => { sim.schedule.remove(name); unobserve() },
  }
}
