/**
 * One driver step for one car: project the car onto its path, advance distance and laps, then
 * pedals from the speed profile and steering by pure pursuit (with a slow curvature loop that
 * takes out the car's understeer). Reads the car's pose and writes only steer, throttle, brake.
 */
import type { CarStore } from '../../components/car'
import type { DriverStore } from '../../components/driver'
import type { Polyline } from './polyline'
import type { ResolvedAiOptions } from './options'
import { projectAll, projectNear, PROJ_DIST, PROJ_LAT, PROJ_S } from './projection'
import { profileSpeedAt } from './profile'
import { sampleNear } from './polyline'
import { lookaheadDistance, pursuitCurvature, steerForCurvature } from './pursuit'
import { brakeFor, speedDemand, throttleFor } from './speed-control'
import { sinCos } from './sin-cos'

/** A car's path as the driver uses it: the offset polyline, its curvature and speed profile. */
export interface DriverPath {
  readonly poly: Polyline
  readonly kappa: Float64Array
  readonly profile: Float64Array
  readonly options: ResolvedAiOptions
}

/** The projection searches this far (m) beyond twice a step's travel either side of the last one. */
export const WINDOW_MARGIN = 1.5
/** Farther than this (m) from the path near the last projection, the car is lost: search it all. */
export const LOST_DISTANCE = 12
/** An open path is finished once the car has stopped within this distance (m) of its end. */
export const FINISH_RADIUS = 2
/** Speed (m/s) under which a car counts as stopped. */
export const STOPPED_SPEED = 0.2
/** Within this distance (m) of an open path's end the driver brakes fully. */
export const FINAL_BRAKE = 1
/** Rear axle slip angle (rad) beyond which the pedals are eased off, all off at twice it (road
 * tyres peak at ≈ 0.12–0.15 rad; normal cornering stays well below). */
export const SLIP_START = 0.06
/** Curvature loop: proportional gain on the curvature shortfall (yaw damping). */
export const CURVE_KP = 0.6
/** Curvature loop: rate (1/s) at which curvature is added per 1/m of curvature shortfall. */
export const CURVE_KI = 1.5
/** Curvature loop: bound of its correction, 1/m. */
export const CURVE_I_MAX = 0.02
/** Below this speed (m/s) steering uses the heading alone; from twice it, the course and the curvature loop in full. */
export const CURVE_MIN_SPEED = 2

/**
 * The Car and Driver arrays the driver uses, hoisted once per system run into one object of
 * fixed shape (a store with many fields can be a slow dictionary-mode object in V8).
 */
export interface DriveArrays {
  x: Float64Array; y: Float64Array; heading: Float64Array; speed: Float64Array
  vx: Float64Array; vy: Float64Array; yawRate: Float64Array; wheelbase: Float64Array; maxSteer: Float64Array
  steer: Float64Array; throttle: Float64Array; brake: Float64Array
  seg: Int32Array; goalSeg: Int32Array; s: Float64Array; distance: Float64Array; start: Float64Array; laps: Int32Array
  lateralError: Float64Array; targetSpeed: Float64Array; finished: Uint8Array; speedI: Float64Array; curveI: Float64Array
}

/** The DriveArrays of a sim's stores (one per sim, made once; named stores keep it a fast object). */
export function createDriveArrays(Car: CarStore, D: DriverStore): DriveArrays {
  const V = {} as DriveArrays
  hoistDriveArrays(V, Car, D)
  return V
}

/** Refreshes `V` from the stores (they are replaced when they grow). */
export function hoistDriveArrays(V: DriveArrays, Car: CarStore, D: DriverStore): void {
  V.x = Car.x; V.y = Car.y; V.heading = Car.heading; V.speed = Car.speed
  V.vx = Car.vx; V.vy = Car.vy; V.yawRate = Car.yawRate; V.wheelbase = Car.wheelbase; V.maxSteer = Car.maxSteer
  V.steer = Car.steer; V.throttle = Car.throttle; V.brake = Car.brake
  V.seg = D.seg; V.goalSeg = D.goalSeg; V.s = D.s; V.distance = D.distance; V.start = D.start; V.laps = D.laps
  V.lateralError = D.lateralError; V.targetSpeed = D.targetSpeed; V.finished = D.finished; V.speedI = D.speedI; V.curveI = D.curveI
}

// Scratch for one car at a time (single-threaded, so shared by every sim).
const proj = new Float64Array(3)
const goal = new Float64Array(4)
const accel = new Float64Array(1)
const trig = new Float64Array(2)

/** Projects car `eid` onto `path` from its last projection and resets distance, laps and status. */
export function startDriver(Car: CarStore, D: DriverStore, path: DriverPath, eid: number): void {
  const seg = projectAll(path.poly, Car.x[eid], Car.y[eid], proj)
  const s = proj[PROJ_S]
  D.seg[eid] = seg
  D.goalSeg[eid] = seg
  D.s[eid] = s
  D.distance[eid] = s
  D.start[eid] = s
  D.laps[eid] = 0
  D.lateralError[eid] = proj[PROJ_LAT]
  D.targetSpeed[eid] = profileSpeedAt(path.poly, path.profile, seg, s, accel)
  D.finished[eid] = 0
  D.speedI[eid] = 0
  D.curveI[eid] = 0
}

/** Runs the driver of car `eid` for a host step of `dt` s. */
export function driveCar(V: DriveArrays, path: DriverPath, eid: number, dt: number): void {
  const poly = path.poly
  const px = V.x[eid], py = V.y[eid], heading = V.heading[eid], speed = V.speed[eid]
  const L = poly.length

  // Where the car is: a window around the last projection covers a step's travel.
  let seg = projectNear(poly, px, py, V.seg[eid], WINDOW_MARGIN + 2 * Math.abs(speed) * dt, proj)
  if (proj[PROJ_DIST] > LOST_DISTANCE) seg = projectAll(poly, px, py, proj)
  const s = proj[PROJ_S]
  let ds = s - V.s[eid]
  if (poly.closed) ds = ds > L / 2 ? ds - L : ds < -L / 2 ? ds + L : ds
  V.seg[eid] = seg
  V.s[eid] = s
  const distance = V.distance[eid] + ds
  V.distance[eid] = distance
  if (poly.closed) {
    // Full laps since setAi: it rarely changes, so compare before dividing.
    const run = distance - V.start[eid]
    const laps = V.laps[eid]
    if (run >= (laps + 1) * L || (laps > 0 && run < laps * L)) {
      const n = Math.floor(run / L)
      V.laps[eid] = n > 0 ? (n < 0x7fffffff ? n : 0x7fffffff) : 0
    }
  }
  V.lateralError[eid] = proj[PROJ_LAT]

  // Pedals: track the profile; an open path's end is a full stop, then finished.
  if (!poly.closed) {
    const toEnd = L - s
    if (V.finished[eid] === 0 && toEnd <= FINISH_RADIUS && Math.abs(speed) < STOPPED_SPEED &&
        Math.hypot(poly.x[poly.n - 1] - px, poly.y[poly.n - 1] - py) <= FINISH_RADIUS) V.finished[eid] = 1
    if (V.finished[eid] === 1 || toEnd <= FINAL_BRAKE) {
      V.targetSpeed[eid] = 0
      V.throttle[eid] = 0
      V.brake[eid] = 1
      if (V.finished[eid] === 1) return // hold the brake; steering stays where it was
    }
  }
  if (poly.closed || L - s > FINAL_BRAKE) {
    const target = profileSpeedAt(poly, path.profile, seg, s, accel)
    V.targetSpeed[eid] = target
    const demand = speedDemand(V.speedI, eid, target, accel[0], speed, dt)
    // A sliding car (rear axle slip angle past SLIP_START) gets the pedals eased, all off by twice
    // that, so braking or power at the grip limit does not turn a slide into a spin. The rear axle
    // (taken half a wheelbase behind the centre of mass) slips sideways only when its tyres do; the
    // body's own slip is also geometric in a tight turn at low speed, where easing would stall.
    const vx = V.vx[eid]
    const slip = vx > CURVE_MIN_SPEED ? Math.abs(V.vy[eid] - 0.5 * V.wheelbase[eid] * V.yawRate[eid]) / vx : 0
    const ease = slip <= SLIP_START ? 1 : slip >= 2 * SLIP_START ? 0 : 2 - slip / SLIP_START
    V.throttle[eid] = throttleFor(demand) * ease
    V.brake[eid] = brakeFor(demand) * ease
  }

  // Steering: pure pursuit on a point lookahead seconds ahead (past an open end: straight on).
  const reach = lookaheadDistance(path.options.lookahead, speed)
  const ahead = s + (reach < L ? reach : L) // never more than a lap (an absurd speed stays finite)
  if (!poly.closed && ahead > L) {
    const last = poly.segments - 1
    const over = ahead - L
    goal[0] = poly.x[poly.n - 1] + poly.tx[last] * over
    goal[1] = poly.y[poly.n - 1] + poly.ty[last] * over
  } else V.goalSeg[eid] = sampleNear(poly, V.goalSeg[eid], ahead, goal)
  const wheelbase = V.wheelbase[eid], maxSteer = V.maxSteer[eid]
  // Speed weight of the velocity-based terms: 0 up to CURVE_MIN_SPEED, 1 from twice it, linear
  // between, so nothing in the steering jumps at a threshold.
  const absSpeed = Math.abs(speed)
  const w = absSpeed <= CURVE_MIN_SPEED ? 0 : absSpeed >= 2 * CURVE_MIN_SPEED ? 1 : absSpeed / CURVE_MIN_SPEED - 1
  // The arc leaves along the car's velocity (its course), not its nose: at speed the body slips.
  sinCos(heading, trig)
  const ch = trig[1], sh = trig[0]
  let ux = ch, uy = sh
  const vx = V.vx[eid]
  if (w > 0 && vx > CURVE_MIN_SPEED) {
    // vy / vx, bounded (|β| ≤ 84°) so an inconsistent or absurd state cannot overflow
    let slope = (w * V.vy[eid]) / vx
    slope = slope > 10 ? 10 : slope < -10 ? -10 : slope
    const inv = 1 / Math.sqrt(1 + slope * slope)
    ux = (ch - slope * sh) * inv
    uy = (sh + slope * ch) * inv
  }
  const kappa = pursuitCurvature(px, py, ux, uy, goal[0], goal[1])
  // Curvature loop on what the car actually drives (yaw rate / speed): a proportional part damps
  // the yaw (counter-steers oversteer at once), a slow integral takes out steady understeer; it
  // integrates for the next step, and holds while the steering is at lock.
  let corr = V.curveI[eid]
  const shortfall = w > 0 ? kappa - V.yawRate[eid] / speed : 0
  const u = steerForCurvature(kappa + corr + w * CURVE_KP * shortfall, wheelbase, maxSteer)
  V.steer[eid] = u
  if (u < 1 && u > -1) corr += w * CURVE_KI * shortfall * dt
  if (w < 1) corr -= corr * (1 - w) * 0.1 // fade out towards walking pace, where yaw rate says little
  V.curveI[eid] = corr > CURVE_I_MAX ? CURVE_I_MAX : corr < -CURVE_I_MAX ? -CURVE_I_MAX : corr
}
