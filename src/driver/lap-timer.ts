/**
 * addLapTimer: a lap-timing system in the `vehicle` phase, after the cars have moved this step
 * ('step-path-cars', so path-level cars count too). It times each forward crossing of a
 * start/finish line by each car's centre of mass, interpolated within the step; a backward crossing
 * must be undone before a lap counts again. Any car counts, driven or not.
 */
import { commitRemovals, observe, onAdd, query, registerQuery, type World } from 'bitecs'
import type { Sim } from '../types'
import { describe, finiteVector, optionKeys, optionsObject } from '../validate'

/** Options of addLapTimer. */
export interface LapTimerOptions {
  /** The line, m, world frame: from its left end to its right end seen in the driving direction ([[x, y], [x, y]]). */
  line: readonly [ArrayLike<number>, ArrayLike<number>]
  /** The system's name in the schedule (default 'time-laps'; two timers need two names). */
  name?: string
  /** The system it runs after, in the `vehicle` phase (default 'step-path-cars', the last of pitlane's vehicle systems). */
  after?: string
}

/** Lap times of every car, kept by the lap-timing system (times in s of sim time). */
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
  /** Every completed lap time of `car`, s, in order (a copy). */
  lapTimes(car: number): number[]
  /** Sim time of the latest forward crossing of `car`, s (NaN before one). */
  lastCrossing(car: number): number
  /** Takes the system out of the schedule and stops listening to new cars. */
  remove(): void
}

const LAP_TIMER_KEYS = optionKeys<LapTimerOptions>({ line: true, name: true, after: true })

/** Reads options.line: two distinct finite points; returns [ax, ay, bx, by]. */
function lineArgument(line: unknown): [number, number, number, number] {
  if (line === null || typeof line !== 'object' || (line as ArrayLike<unknown>).length !== 2) {
    throw new TypeError(`options.line must be [[x, y], [x, y]], got ${describe(line)}`)
  }
  const ends = line as ArrayLike<unknown>
  const a = finiteVector(ends[0], 2, 'options.line[0]'), b = finiteVector(ends[1], 2, 'options.line[1]')
  if (a[0] === b[0] && a[1] === b[1]) throw new RangeError('options.line must have two distinct points')
  return [a[0], a[1], b[0], b[1]]
}

/**
 * Adds a lap-timing system to `sim` (phase 'vehicle', after 'step-path-cars' unless told
 * otherwise) and returns its records. Refuses a bad line, an unknown key or a taken name, changing nothing.
 */
export function addLapTimer(sim: Sim, options: LapTimerOptions): LapTimer {
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be { line, name?, after? }, got ${describe(options)}`)
  const o = optionsObject<LapTimerOptions>(options, 'options', LAP_TIMER_KEYS)
  const [ax, ay, bx, by] = lineArgument(o.line)
  const lx = bx - ax, ly = by - ay, len2 = lx * lx + ly * ly
  const name = o.name ?? 'time-laps'
  if (typeof name !== 'string' || name === '') throw new TypeError(`options.name must be a non-empty string, got ${describe(name)}`)
  const after = o.after ?? 'step-path-cars'
  if (typeof after !== 'string') throw new TypeError(`options.after must be a system name, got ${describe(after)}`)

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
  // Registered once: query() would build and hash its terms (and allocate) every step.
  const allCars = registerQuery(sim.world, [Car])

  const system = (world: World) => {
    const x = Car.x, y = Car.y
    const dt = sim.dt
    const t1 = sim.time + dt // the sim clock after this step (time advances after the schedule runs)
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
  sim.schedule.add(system, { name, phase: 'vehicle', after }) // refuses a taken name or an unknown `after`: nothing changed yet
  for (const eid of query(sim.world, [Car])) reset(eid)
  const unobserve = observe(sim.world, onAdd(Car), reset)

  const check = (car: number) => {
    if (!Number.isInteger(car) || car < 0 || car >= cap || !times[car]) throw new RangeError(`car ${describe(car)} is not a car this lap timer knows`)
    return car
  }
  return {
    name,
    laps: (car) => laps[check(car)],
    lastLap: (car) => last[check(car)],
    bestLap: (car) => best[check(car)],
    currentLap: (car) => sim.time - crossed[check(car)],
    lapTimes: (car) => times[check(car)].slice(),
    lastCrossing: (car) => crossed[check(car)],
    remove: () => { sim.schedule.remove(name); unobserve() },
  }
}
