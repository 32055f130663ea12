/**
 * The `path` level of detail: a driven car moves along its driver's line (the offset path) at the
 * speed its driver's profile gives, with no dynamics. It accelerates at most at the profile's
 * driveAccel and at what the car's engine, gearing, grip, drag and rolling resistance allow at its
 * speed (a table per definition, accelerationTable), brakes at brakeDecel, heads along the line
 * (turning smoothly through its vertices),
 * and yaws at speed × the line's curvature; distance, laps and the driver's status advance as at
 * the other levels. On a slope (the pitch the vehicle domain gives it from the ground under its
 * axles) gravity's part along it adds to what the car can do. Entering snaps the car onto the line (keeping speed and clock); leaving gives
 * the model what a car in that motion has: wheels rolling at its speed, the steering at the line's
 * curvature, the gear and engine speed the gearbox would hold.
 */
import type { CarStore } from '../../components/car'
import type { DriverStore } from '../../components/driver'
import type { ResolvedCar } from '../vehicle/definition'
import { GEOMETRY_LINE, GEOMETRY_STRIDE, SPEEDS_STRIDE, LINE_HEADING, LINE_KAPPA, LINE_KAPPA_RATE, LINE_STRIDE, LINE_TURN_RATE, type DriverPath } from './drive'
import { PATH_RECORD, RECORD_ACCEL, RECORD_BRAKE_DECEL, RECORD_CLOSED, RECORD_DRIVE_ACCEL, RECORD_HEADING, RECORD_KAPPA, RECORD_KAPPA_RATE, RECORD_LEN, RECORD_LENGTH, RECORD_S, RECORD_SEG, RECORD_TURN_RATE, RECORD_TX, RECORD_TY, RECORD_V2, RECORD_WRAP, RECORD_X, RECORD_Y, WRAP_CHECK } from './path-record'
import { DRIVER_CAP, DRIVER_DISTANCE, DRIVER_FINISHED, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_S, DRIVER_SEG, DRIVER_SHIFT, DRIVER_START, DRIVER_STRIDE, DRIVER_TARGET } from '../../components/driver'
import { SEG_LEN, SEG_S, SEG_STRIDE, SEG_TX, SEG_TY, SEG_X, SEG_Y } from './polyline'
import { gearForSpeed, shiftTable, SHIFT_STRIDE, SHIFT_UP_V, torqueAt } from './gearing'

/** Speed step of an acceleration table, m/s. */
export const TABLE_STEP = 1
/** Entries of an acceleration table (0 … 120 m/s; beyond, the last entry). */
export const TABLE_SIZE = 121
/** Rolling resistance coefficient a path car meets (tarmac's). */
export const PATH_ROLLING_RESISTANCE = 0.012
/** accelerationTable's `gear` for a manual box its driver shifts (setAi's `shift`). */
export const DRIVER_SHIFTS = -1

/**
 * The most a car of definition `d` accelerates on a level road at each speed k·TABLE_STEP, m/s²,
 * with the gear `gear` (a manual box), the gear its driver's shift table picks (a manual box,
 * `gear` DRIVER_SHIFTS), or (automatic) the lowest gear whose engine
 * speed is below the upshift point: engine torque at full throttle through the gearing, limited by
 * the driven axles' grip (their load × mu, with the load moved rearwards by accelerating), less drag and rolling resistance, over the mass with
 * the wheels' and engine's inertia; shifting interrupts the drive for shiftTime per gear change,
 * spread over the time the car spends in the gear below.
 */
export function accelerationTable(d: ResolvedCar, gravity: number, gear: number): Float64Array {
  const out = new Float64Array(TABLE_SIZE)
  const m = d.mass, R = d.R
  // the driven axles' grip with the load that accelerating at about drive / mass moves rearwards
  // (h / L of it): front drive F ≤ μ(W_f − F·h/L), rear drive F ≤ μ(W_r + F·h/L); both axles: μW
  const front = d.axleShare[0] > 0, rear = d.axleShare[2] > 0, transfer = (d.mu * d.h) / d.L
  const grip = front && rear ? d.mu * 2 * (d.fzF + d.fzR) : front ? (d.mu * 2 * d.fzF) / (1 + transfer) : rear ? (d.mu * 2 * d.fzR) / (1 - (transfer < 0.5 ? transfer : 0.5)) : 0
  const rolling = PATH_ROLLING_RESISTANCE * m * gravity
  const shifts = !d.automatic && gear === DRIVER_SHIFTS ? shiftTable(d) : null
  const gearAt = (v: number): number => {
    if (shifts) return gearForSpeed(shifts, d.gears, v)
    if (!d.automatic) return gear < 1 ? 0 : gear > d.gears ? d.gears : gear
    let g = 1
    while (g < d.gears && (v / R) * d.overall[g] > d.upW) g++
    return g
  }
  const accelIn = (g: number, v: number): number => {
    if (g < 1) return -(d.dragK * v * v + rolling) / m
    const ratio = d.overall[g]
    let we = (v / R) * ratio
    if (we < d.engageW) we = d.engageW // the clutch slips up to its engagement speed
    const torque = we > d.maxW ? 0 : torqueAt(d, we)
    let drive = (torque * ratio * d.efficiency) / R
    if (drive > grip) drive = grip
    const inertia = m + (4 * d.iw) / (R * R) + (d.engineInertia * ratio * ratio) / (R * R)
    return (drive - d.dragK * v * v - rolling) / inertia
  }
  for (let k = 0; k < TABLE_SIZE; k++) {
    const v = k * TABLE_STEP, g = gearAt(v)
    let a = accelIn(g, v)
    if (d.automatic && g < d.gears && a > 0) {
      // the time in this gear (from its downshift-side start to the upshift speed) and the
      // shift at its end: the drive is off for shiftTime of every (time in gear + shiftTime)
      const vUp = (d.upW * R) / d.overall[g], vIn = g > 1 ? (d.upW * R) / d.overall[g - 1] : 0
      const inGear = (vUp - vIn) / a
      a *= inGear / (inGear + d.shiftTime)
    } else if (shifts && g < d.gears && a > 0) {
      // the same for the driver's shifts
      const vUp = shifts[g * SHIFT_STRIDE + SHIFT_UP_V], vIn = g > 1 ? shifts[(g - 1) * SHIFT_STRIDE + SHIFT_UP_V] : 0
      const inGear = (vUp - vIn) / a
      a *= inGear / (inGear + d.shiftTime)
    }
    out[k] = a
  }
  return out
}

/** What the path level works on: the stores, each driven car's path, definition and acceleration table. */
export interface PathLevelState {
  Car: CarStore
  Driver: DriverStore
  paths: readonly (DriverPath | undefined)[]
  defs: readonly (ResolvedCar | undefined)[]
  /** Each path car's acceleration table, by entity id (set when it enters the level). */
  tables: (Float64Array | undefined)[]
  /**
   * Each path car's record (path-record.ts, PATH_RECORD numbers by entity id): a step reads them
   * in car order instead of one record far along a long path per car, and copies again only when
   * the car reaches another segment. A new path (setAi) or entering the level clears it (assignTable).
   */
  here: Float64Array
  gravity: number
  /** Tables by definition and gear (0: automatic), made once each. */
  cache: WeakMap<ResolvedCar, Map<number, Float64Array>>
}

/** Creates the path level's state over the stores and tables it reads. */
export function createPathLevel(Car: CarStore, Driver: DriverStore, paths: readonly (DriverPath | undefined)[], defs: readonly (ResolvedCar | undefined)[], gravity: number): PathLevelState {
  return { Car, Driver, paths, defs, tables: [], here: new Float64Array(64 * PATH_RECORD), gravity, cache: new WeakMap() }
}

/** Gives car `eid` (taking the path level, or a new driver there) the acceleration table of its definition and gear, and room for its segment copy. */
export function assignTable(ps: PathLevelState, eid: number): void {
  const tables = ps.tables
  while (tables.length < eid) tables.push(undefined) // (dense: a step's load from it stays a plain one)
  tables[eid] = tableFor(ps, ps.defs[eid]!, ps.paths[eid]?.shift ? DRIVER_SHIFTS : ps.Car.gearActual[eid])
  if ((eid + 1) * PATH_RECORD > ps.here.length) {
    let n = ps.here.length / PATH_RECORD
    while (n <= eid) n *= 2
    const here = new Float64Array(n * PATH_RECORD)
    here.set(ps.here)
    ps.here = here
  }
  ps.here[eid * PATH_RECORD + RECORD_SEG] = -1
}

// Copies segment `seg` of `path` and the path's own numbers into car `eid`'s record in ps.here.
function copyRecord(ps: PathLevelState, eid: number, path: DriverPath, seg: number): void {
  const here = ps.here, h = eid * PATH_RECORD, level = path.level, r = seg * GEOMETRY_STRIDE, speeds = path.speeds, options = path.options
  // (number by number: as loops, each number cost a loop's checks again)
  here[h + RECORD_X] = level[r + SEG_X]; here[h + RECORD_Y] = level[r + SEG_Y]
  here[h + RECORD_TX] = level[r + SEG_TX]; here[h + RECORD_TY] = level[r + SEG_TY]
  here[h + RECORD_S] = level[r + SEG_S]; here[h + RECORD_LEN] = level[r + SEG_LEN]
  here[h + RECORD_HEADING] = level[r + GEOMETRY_LINE + LINE_HEADING]; here[h + RECORD_TURN_RATE] = level[r + GEOMETRY_LINE + LINE_TURN_RATE]
  here[h + RECORD_KAPPA] = level[r + GEOMETRY_LINE + LINE_KAPPA]; here[h + RECORD_KAPPA_RATE] = level[r + GEOMETRY_LINE + LINE_KAPPA_RATE]
  here[h + RECORD_V2] = speeds[seg * SPEEDS_STRIDE]
  here[h + RECORD_ACCEL] = speeds[seg * SPEEDS_STRIDE + 1]
  here[h + RECORD_SEG] = seg
  here[h + RECORD_DRIVE_ACCEL] = options.driveAccel
  here[h + RECORD_BRAKE_DECEL] = options.brakeDecel
  here[h + RECORD_LENGTH] = path.length
  here[h + RECORD_CLOSED] = path.closed ? 1 : 0
}

function tableFor(ps: PathLevelState, d: ResolvedCar, gear: number): Float64Array {
  const key = d.automatic ? 0 : gear
  let byGear = ps.cache.get(d)
  if (!byGear) { byGear = new Map(); ps.cache.set(d, byGear) }
  let t = byGear.get(key)
  if (!t) { t = accelerationTable(d, ps.gravity, key); byGear.set(key, t) }
  return t
}

/**
 * Puts car `eid` (which has a driver) on its line at its last projection: position on the line,
 * heading its direction (the same turn count as the car's heading), speed kept (forward, ≥ 0),
 * no side slip, yaw rate from the curvature; the body level.
 */
export function enterPath(ps: PathLevelState, eid: number): void {
  const C = ps.Car, R = ps.Driver.state, path = ps.paths[eid]!
  const o = eid * DRIVER_STRIDE
  const seg = R[o + DRIVER_SEG] | 0, p = path.packed, r = seg * SEG_STRIDE
  let t = R[o + DRIVER_S] - p[r + SEG_S]
  t = t < 0 ? 0 : t > p[r + SEG_LEN] ? p[r + SEG_LEN] : t
  const shift = R[o + DRIVER_SHIFT] // (traffic: it keeps its place beside the line)
  C.x[eid] = p[r + SEG_X] + p[r + SEG_TX] * t - p[r + SEG_TY] * shift
  C.y[eid] = p[r + SEG_Y] + p[r + SEG_TY] * t + p[r + SEG_TX] * shift
  C.heading[eid] = lineHeading(path, seg, t, C.heading[eid])
  const v = C.speed[eid] > 0 ? C.speed[eid] : 0
  C.speed[eid] = v
  C.vx[eid] = v
  C.vy[eid] = 0
  C.yawRate[eid] = v * curvatureAt(path, seg, t)
  R[o + DRIVER_LATERAL] = shift
}

/**
 * Gives car `eid`, leaving the path level, the state of a car in its motion on the line: the
 * body slip of steady cornering (the rear axle's slip angle for the lateral acceleration v²·κ at
 * the tyres' initial cornering stiffness; the heading turned so the centre of mass still travels
 * along the line), every wheel rolling at its speed, the road wheels at the line's curvature
 * (input and angle), and the gear the shift map (automatic) or the shifting driver (manual) would
 * hold at the present throttle with the engine at the wheels' speed through it. The driver's integrators carry on as they were.
 */
export function leavePath(ps: PathLevelState, eid: number): void {
  const C = ps.Car, R = ps.Driver.state, path = ps.paths[eid], d = ps.defs[eid]!
  const v = C.speed[eid], o = eid * DRIVER_STRIDE
  C.wheelSpeed.fill(v / d.R, eid * 4, eid * 4 + 4)
  if (path) {
    const seg = R[o + DRIVER_SEG] | 0
    const kappa = curvatureAt(path, seg, R[o + DRIVER_S] - path.packed[seg * SEG_STRIDE + SEG_S])
    const slipAngle = (v * v * kappa * d.peakSlipAngle) / (ps.gravity * d.mu * d.mfB * d.mfC)
    const vy = d.b * v * kappa - slipAngle * v
    if (Math.abs(vy) < 0.2 * Math.abs(v)) {
      C.vy[eid] = vy
      C.vx[eid] = Math.sqrt(v * v - vy * vy)
      C.heading[eid] -= Math.atan2(vy, C.vx[eid])
    }
    const angle = Math.atan(d.L * kappa)
    const steer = angle / d.maxSteer
    C.steer[eid] = steer > 1 ? 1 : steer < -1 ? -1 : steer
    C.steerAngle[eid] = Math.abs(angle) < d.maxSteer ? angle : Math.sign(angle) * d.maxSteer
  }
  let gear = C.gearActual[eid]
  if (!d.automatic && path?.shift) {
    gear = gearForSpeed(shiftTable(d), d.gears, v)
    C.gear[eid] = gear
    C.gearActual[eid] = gear
  } else if (d.automatic && C.gear[eid] > 0) {
    const wheelW = v / d.R, throttle = C.throttle[eid]
    const light = Math.min(d.upW, 2.1 * d.downW), up = light + (d.upW - light) * throttle
    if (gear < 1) gear = 1
    while (gear < d.gears && wheelW * d.overall[gear] > up) gear++
    while (gear > 1 && wheelW * d.overall[gear] < d.downW) gear--
    C.gearActual[eid] = gear
  }
  if (gear !== 0) {
    const we = (v / d.R) * d.overall[gear < 0 ? 0 : gear]
    C.engineSpeed[eid] = we > d.idleW ? we : d.idleW
  }
  C.shiftTimer[eid] = 0
}

/** The line's direction at `t` m along segment `seg`, rad, with as many whole turns as `near` (see DriverPath.line). */
function lineHeading(path: DriverPath, seg: number, t: number, near: number): number {
  const o = seg * LINE_STRIDE, h = path.line[o + LINE_HEADING] + path.line[o + LINE_TURN_RATE] * t
  return h + 2 * Math.PI * Math.round((near - h) * (1 / (2 * Math.PI)))
}

/** The line's curvature (1/m) at `t` m along segment `seg` (see DriverPath.line). */
function curvatureAt(path: DriverPath, seg: number, t: number): number {
  const o = seg * LINE_STRIDE
  return path.line[o + LINE_KAPPA] + path.line[o + LINE_KAPPA_RATE] * t
}

/** Moves every car of `cars` (at the path level, each with a driver) along its line for a host step of `dt` s. */
export function stepPathCars(ps: PathLevelState, cars: ArrayLike<number>, dt: number): void {
  const C = ps.Car, R = ps.Driver.state, paths = ps.paths, tables = ps.tables, here = ps.here
  const X = C.x, Y = C.y, headingA = C.heading, speedA = C.speed, vxA = C.vx, yawA = C.yawRate, times = C.time, brakeA = C.brake, throttleA = C.throttle
  const pitchA = C.pitch, gravity = ps.gravity
  const halfDt = 0.5 * dt
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined) continue
    const o = eid * DRIVER_STRIDE, h = eid * PATH_RECORD
    times[eid] += dt
    if (R[o + DRIVER_FINISHED] === 1) continue
    let seg = R[o + DRIVER_SEG] | 0
    if (here[h + RECORD_SEG] !== seg) copyRecord(ps, eid, path, seg)
    let s = R[o + DRIVER_S], start = here[h + RECORD_S], len = here[h + RECORD_LEN]
    // the profile's speed here (v² linear along the segment)
    let t = s - start
    t = t < 0 ? 0 : t > len ? len : t
    const v2 = here[h + RECORD_V2] + 2 * here[h + RECORD_ACCEL] * t
    const profile = v2 > 0 ? Math.sqrt(v2) : 0, cap = R[o + DRIVER_CAP]
    // (traffic's cap: the car ahead; both comparisons made every step, see drive-cars.ts)
    const target = ((cap >= 0 ? 1 : 0) & (cap < profile ? 1 : 0)) !== 0 ? cap : profile
    // Down to the profile at brakeDecel, worked out for every car: a field of cars that first
    // brakes long after the step was compiled would otherwise run that step unoptimised (bench
    // race10k's worst step: a 10,000-car step in unoptimised code allocates megabytes).
    const v0 = speedA[eid]
    let v = Math.max(v0 - here[h + RECORD_BRAKE_DECEL] * dt, target)
    if (v0 < target) {
      // up to it at most at driveAccel and what the car can do at this speed (its table, linear between entries)
      let a = here[h + RECORD_DRIVE_ACCEL]
      const table = tables[eid]!, k = v0 * (1 / TABLE_STEP)
      const ki = k < TABLE_SIZE - 1 ? (k > 0 ? k | 0 : 0) : TABLE_SIZE - 2 // (k | 0: the floor of a small positive k)
      const f = k - ki
      let carA = table[ki] + (table[ki + 1] - table[ki]) * (f < 1 ? f : 1)
      // on a slope (the pitch the ground gave it last step: + nose down) gravity helps or holds it back
      const slope = pitchA[eid]
      if (slope !== 0) carA += gravity * Math.sin(slope)
      if (carA < a) a = carA
      v = Math.min(v0 + (a > 0 ? a : 0) * dt, target)
    }
    // along the line, segment by segment (the heading turning with each), wrapping a closed loop
    const L = here[h + RECORD_LENGTH], closed = here[h + RECORD_CLOSED] === 1
    let ds = (v0 + v) * halfDt
    if (!closed && s + ds >= L) { ds = L - s; v = 0; s = L } else s += ds
    if (s > start + len && (closed || seg < path.segments - 1)) {
      // onto the next segments (their bounds read from the path), then the record copied once
      const geometry = path.level, segments = path.segments
      do {
        // past the last segment of a closed path: round to the first, a lap back (without a branch, as above)
        seg = seg + 1 === segments ? 0 : seg + 1
        s -= seg === 0 ? L : 0
        start = geometry[seg * GEOMETRY_STRIDE + SEG_S]; len = geometry[seg * GEOMETRY_STRIDE + SEG_LEN]
      } while (s > start + len && (closed || seg < segments - 1))
      copyRecord(ps, eid, path, seg)
    }
    t = s - start
    const shift = R[o + DRIVER_SHIFT] // (traffic: beside its line, + left)
    X[eid] = here[h + RECORD_X] + here[h + RECORD_TX] * t - here[h + RECORD_TY] * shift
    Y[eid] = here[h + RECORD_Y] + here[h + RECORD_TY] * t + here[h + RECORD_TX] * shift
    R[o + DRIVER_LATERAL] = shift
    // the line's direction with as many whole turns as the car's heading (the last step's turns
    // while they still fit: the same number the rounding would give)
    const heading = here[h + RECORD_HEADING] + here[h + RECORD_TURN_RATE] * t, near = headingA[eid]
    let wrap = here[h + RECORD_WRAP]
    const off = near - heading - wrap
    if (!(off < WRAP_CHECK && off > -WRAP_CHECK)) { wrap = 2 * Math.PI * Math.round((near - heading) * (1 / (2 * Math.PI))); here[h + RECORD_WRAP] = wrap }
    headingA[eid] = heading + wrap
    speedA[eid] = v
    vxA[eid] = v
    yawA[eid] = v * (here[h + RECORD_KAPPA] + here[h + RECORD_KAPPA_RATE] * t)
    R[o + DRIVER_SEG] = seg
    R[o + DRIVER_S] = s
    const distance = R[o + DRIVER_DISTANCE] + ds
    R[o + DRIVER_DISTANCE] = distance
    R[o + DRIVER_TARGET] = profile
    if (closed) {
      const run = distance - R[o + DRIVER_START], laps = R[o + DRIVER_LAPS]
      if (run >= (laps + 1) * L || (laps > 0 && run < laps * L)) {
        const n = Math.floor(run / L)
        R[o + DRIVER_LAPS] = n > 0 ? (n < 0x7fffffff ? n : 0x7fffffff) : 0
      }
    } else if (v === 0 && s === L) {
      // at the end of an open path: stopped there, finished, the brake held (as the driver does)
      R[o + DRIVER_FINISHED] = 1
      R[o + DRIVER_TARGET] = 0
      throttleA[eid] = 0
      brakeA[eid] = 1
    }
  }
}
