/**
 * Type-feedback warm-up of the driver's step for a lap's end. V8 optimises driveCars once it is
 * hot, and a branch it has never run deoptimises it when first taken. On a closed path that comes
 * late, at the first completed lap (the lap count, the look-ahead past the lap's end, arc length
 * and segment indices wrapping over the start), long after optimisation; until driveCars is
 * re-optimised it runs unoptimised and allocates (≈ 130–240 KB per step for mixed100's 70 driven
 * cars, for about a second). So, once per process (the first sim's install), driveCars runs over
 * scratch cars set at a loop's end, on scratch stores and a path of its own: no sim's state is
 * read or written.
 * Only these branches: warming every rare one (hard braking, slides, a lost car, an open path's
 * end, …) made the optimised loop 5–8 % slower on the st200 lane scene (its code then holds them
 * all); the lap's end costs ≈ 2 % (within the measurement's noise). The others, when first
 * taken, still deoptimise driveCars once.
 * Cost: ≈ 10–15 ms at the first createSim of a process, partly compiling code that the first
 * setAi and steps would compile anyway (createSim, setAi and 60 steps of one car: 0–15 ms more).
 */
import { createCarComponents, type CarStore } from '../../components/car'
import { createDriverComponent, DRIVER_DISTANCE, DRIVER_S, DRIVER_SEG, DRIVER_START, DRIVER_STRIDE } from '../../components/driver'
import { createDriveArrays, startDriver } from './drive'
import { driveCars } from './drive-cars'
import { assignPath, createPathTable, preparePath } from './path-table'
import { stadiumPath } from './path'

let warmed = false
/** Rounds of the warm-up (each: every situation set, then 2 host steps). */
const ROUNDS = 3

/** A car of the warm-up on a 60 m / 20 m stadium loop: where (a fraction of its points), how far left of it (m), its motion, and its driver record. */
export interface Situation {
  name: string
  at: number
  left?: number
  speed: number
  yawRate?: number
  /** Start the lap count more than a lap back: the next step counts a lap. */
  lapDone?: true
  /** The last projection on the loop's last segment (with `at: 0`: at its end, the loop's start). */
  hintLast?: true
  /** The last projection's arc length, as a fraction of the loop's length. */
  sFrom?: number
}

/** The situations, one scratch car each (exported for the test that checks each does what it says). */
export const SITUATIONS: readonly Situation[] = [
  { name: 'cruising', at: 0.3, speed: 15 },
  { name: 'left', at: 0.3, left: 1.5, speed: 15, yawRate: 0.4 }, // left of the line, turning
  { name: 'right', at: 0.3, left: -1.5, speed: 15, yawRate: -0.4 },
  { name: 'lap', at: 0.999, speed: 15, lapDone: true }, // a lap completes, the goal wraps past the lap's end
  { name: 'wideAtStart', at: 0, speed: 120 }, // a wide window (fast car) across the loop's start
  { name: 'wideFromLast', at: 0, speed: 120, hintLast: true }, // the same from its last segment
  { name: 'secondAcross', at: 0, speed: 5, hintLast: true }, // the narrow window's second segment across the start
  { name: 'crossForward', at: 0, speed: 15, sFrom: 0.9995 }, // over the start, forwards
  { name: 'crossBackward', at: 0.999, speed: -3, sFrom: 0.0005 }, // over it backwards
]

/** Runs driveCars over SITUATIONS once per process; touches no sim. */
export function warmDriveCars(): void {
  if (warmed) return
  warmed = true
  runDriverWarmUp()
}

/** The warm-up's run itself: its scratch Car and Driver stores after the last round (car i = SITUATIONS[i], 2 host steps in). */
export function runDriverWarmUp(): { Car: CarStore, state: Float64Array } {
  const { Car } = createCarComponents()
  const { Driver } = createDriverComponent()
  const table = createPathTable()
  const loop = preparePath(table, stadiumPath(60, 20, 2), { closed: true })
  const path = loop.path, R = Driver.state
  const cars = SITUATIONS.map((_, eid) => { assignPath(table, eid, loop); return eid })
  const V = createDriveArrays(Car, Driver)
  // Situations set anew each round, so every round takes each branch (V8 records feedback only
  // once a function has run a while: the first call's first cars may leave none).
  for (let round = 0; round < ROUNDS; round++) {
    SITUATIONS.forEach((sit, eid) => {
      place(Car, path.poly.x, path.poly.y, eid, sit)
      startDriver(Car, Driver, path, eid)
      const o = eid * DRIVER_STRIDE
      if (sit.lapDone) R[o + DRIVER_START] = R[o + DRIVER_DISTANCE] - path.length - 0.05
      if (sit.hintLast) R[o + DRIVER_SEG] = path.segments - 1
      if (sit.sFrom !== undefined) R[o + DRIVER_S] = sit.sFrom * path.length
    })
    for (let step = 0; step < 2; step++) driveCars(V, table.byCar, cars, 1 / 60)
  }
  return { Car, state: R }
}

/** Puts car `eid` at fraction `sit.at` of the polyline's points, `sit.left` m to its left, heading along it, with the situation's motion. */
function place(C: CarStore, xs: Float64Array, ys: Float64Array, eid: number, sit: Situation): void {
  const i = Math.min(xs.length - 2, Math.floor(sit.at * (xs.length - 1)))
  const dx = xs[i + 1] - xs[i], dy = ys[i + 1] - ys[i], len = Math.hypot(dx, dy), left = sit.left ?? 0
  C.x[eid] = xs[i] - (dy / len) * left
  C.y[eid] = ys[i] + (dx / len) * left
  C.heading[eid] = Math.atan2(dy, dx)
  C.speed[eid] = sit.speed
  C.vx[eid] = sit.speed
  C.vy[eid] = 0
  C.yawRate[eid] = sit.yawRate ?? 0
  C.wheelbase[eid] = 2.6
  C.maxSteer[eid] = 0.6
}
