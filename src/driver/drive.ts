/**
 * The driver's shared pieces: its tuning constants, the hoisted arrays, and the start of a drive
 * (setAi). A step (drive-cars.ts, one pass over the driven cars) projects each car onto its path
 * and advances distance and laps, then sets the pedals from the speed profile, then steers by pure
 * pursuit (with a slow curvature loop that takes out the car's understeer). Reads the car's pose
 * and writes only steer, throttle, brake.
 */
import type { CarStore } from '../../components/car'
import {
  DRIVER_CURVE_I, DRIVER_DISTANCE, DRIVER_FINISHED, DRIVER_GOAL_SEG, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_S, DRIVER_SEG, DRIVER_SPEED_I,
  DRIVER_START, DRIVER_STRIDE, DRIVER_TARGET, DRIVER_AHEAD, DRIVER_GAP, DRIVER_PASSING, DRIVER_SHIFT, DRIVER_SHIFT_GOAL, DRIVER_CAP, DRIVER_RECHECK, type DriverStore,
} from '../../components/driver'
import { SEG_ACCEL, SEG_LEN, SEG_STRIDE, SEG_V2, type Polyline } from './polyline'
import type { ResolvedAiOptions } from './options'
import { projectAll, PROJ_LAT, PROJ_S, QUERY_X, QUERY_Y } from './projection'
import { profileSpeedAt } from './profile'

/** A car's path as the driver uses it: the offset polyline, its curvature and speed profile. */
export interface DriverPath {
  readonly poly: Polyline
  readonly kappa: Float64Array
  readonly profile: Float64Array
  readonly options: ResolvedAiOptions
  /** Direction of each segment, rad (atan2 of its tangent). */
  readonly headings: Float64Array
  /** Turn from each segment to the next, rad in (−π, π] (after the last of an open path: 0). */
  readonly turns: Float64Array
  /**
   * The line along each segment for the path level, LINE_STRIDE numbers per segment: the
   * direction at its start (rad, the mean of the two segments meeting there) and its rate along
   * the segment (rad/m), the curvature at its start (1/m) and its rate (1/m²), so both are linear
   * in the distance along the segment.
   */
  readonly line: Float64Array
  /**
   * Each segment's geometry for the path level, GEOMETRY_STRIDE numbers per segment: the packed
   * record's start, tangent, arc length and length (SEG_X … SEG_LEN), then the line record at
   * GEOMETRY_LINE. Paths on the same line (the same points, offset and closure; other options
   * differ) share one array, so a field of cars on a few lines reads little memory.
   */
  readonly level: Float64Array
  /** Each segment's profile for the path level, SPEEDS_STRIDE numbers: v² at its start and its rate (the packed record's SEG_V2, SEG_ACCEL). */
  readonly speeds: Float64Array
  /** Copied from poly and options: what a step reads first. */
  readonly packed: Float64Array
  readonly segments: number
  readonly closed: boolean
  readonly length: number
  readonly lookahead: number
  /** The driver works the gearbox (options.shift). */
  readonly shift: boolean
  readonly endX: number
  readonly endY: number
  /**
   * Where the line runs along the path it was offset from (its base line: the points given to
   * setAi), STATIONS_STRIDE numbers per segment (one record: a car reaching a segment reads one
   * cache line): the segment's own arc length at its start, the base line's arc length there and
   * its rate per metre along the segment. Cars on one base line (any offsets) are ordered by it for
   * traffic (traffic.ts); null: the line is its base line (the station is the arc length).
   */
  readonly station: Float64Array | null
  /** options.traffic is 'avoid'. */
  readonly avoid: boolean
  /** poly.narrowGap and poly.turnTan2, for the step's window search. */
  readonly narrowGap: number
  readonly turnTan2: number
}

/** Numbers per segment in DriverPath.line. */
export const LINE_STRIDE = 4
/** Numbers per segment in DriverPath.level: the packed record up to SEG_LEN, then the line record at GEOMETRY_LINE (LINE_*). */
export const GEOMETRY_STRIDE = SEG_LEN + 1 + LINE_STRIDE
/** Where the line record starts in a DriverPath.level record. */
export const GEOMETRY_LINE = SEG_LEN + 1
/** Numbers per segment in DriverPath.speeds. */
export const SPEEDS_STRIDE = 2
/** Numbers of a segment's whole path-level record (a path car's copy): the packed record (SEG_*), then the line record at LEVEL_LINE (LINE_*). */
export const LEVEL_STRIDE = SEG_STRIDE + LINE_STRIDE
/** Where the line record starts in a whole path-level record. */
export const LEVEL_LINE = SEG_STRIDE
/** Offsets in a DriverPath.line record: direction at the segment's start and its rate, curvature at the start and its rate. */
export const LINE_HEADING = 0, LINE_TURN_RATE = 1, LINE_KAPPA = 2, LINE_KAPPA_RATE = 3

/** Numbers per segment in a station table (DriverPath.station): the segment's own arc length at its start, the base line's station there, its rate. */
export const STATIONS_STRIDE = 3

/** The DriverPath of `poly` with its curvature, profile and options; `level`: the geometry of a path on the same line, to share (it is the same bit for bit). */
export function driverPath(poly: Polyline, kappa: Float64Array, profile: Float64Array, options: ResolvedAiOptions, level?: Float64Array, station?: Float64Array): DriverPath {
  const headings = new Float64Array(poly.segments), turns = new Float64Array(poly.segments)
  for (let i = 0; i < poly.segments; i++) headings[i] = Math.atan2(poly.ty[i], poly.tx[i])
  for (let i = 0; i < poly.segments; i++) {
    const j = i + 1
    if (j === poly.segments && !poly.closed) break
    let turn = headings[j === poly.segments ? 0 : j] - headings[i]
    if (turn > Math.PI) turn -= 2 * Math.PI
    else if (turn <= -Math.PI) turn += 2 * Math.PI
    turns[i] = turn
  }
  const line = new Float64Array(poly.segments * LINE_STRIDE)
  for (let i = 0; i < poly.segments; i++) {
    const prev = i > 0 ? turns[i - 1] : poly.closed ? turns[poly.segments - 1] : 0
    const len = poly.s[i + 1] - poly.s[i], next = i + 1 === poly.n ? 0 : i + 1
    line[i * LINE_STRIDE + LINE_HEADING] = headings[i] - 0.5 * prev
    line[i * LINE_STRIDE + LINE_TURN_RATE] = (0.5 * (prev + turns[i])) / len
    line[i * LINE_STRIDE + LINE_KAPPA] = kappa[i]
    line[i * LINE_STRIDE + LINE_KAPPA_RATE] = (kappa[next] - kappa[i]) / len
  }
  if (level === undefined) {
    level = new Float64Array(poly.segments * GEOMETRY_STRIDE)
    for (let i = 0; i < poly.segments; i++) {
      level.set(poly.packed.subarray(i * SEG_STRIDE, i * SEG_STRIDE + GEOMETRY_LINE), i * GEOMETRY_STRIDE)
      level.set(line.subarray(i * LINE_STRIDE, (i + 1) * LINE_STRIDE), i * GEOMETRY_STRIDE + GEOMETRY_LINE)
    }
  }
  const speeds = new Float64Array(poly.segments * SPEEDS_STRIDE)
  for (let i = 0; i < poly.segments; i++) {
    speeds[i * SPEEDS_STRIDE] = poly.packed[i * SEG_STRIDE + SEG_V2]
    speeds[i * SPEEDS_STRIDE + 1] = poly.packed[i * SEG_STRIDE + SEG_ACCEL]
  }
  return {
    poly, kappa, profile, options, headings, turns, line, level, speeds,
    packed: poly.packed, segments: poly.segments, closed: poly.closed, length: poly.length,
    lookahead: options.lookahead, shift: options.shift, endX: poly.x[poly.n - 1], endY: poly.y[poly.n - 1],
    narrowGap: poly.narrowGap, turnTan2: poly.turnTan2, station: station ?? null, avoid: options.traffic === 'avoid',
  }
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
/** Look-ahead distance never goes below this (m), so steering stays calm at low speed. */
export const MIN_LOOKAHEAD = 4

// The speed controller: PI on the speed error plus the profile's acceleration as feed-forward
// gives an acceleration demand that becomes throttle or brake, never both. The pedal scales are
// rough road-car figures; the integrator absorbs the rest (drag, gear, load).
/** Acceleration (m/s²) one unit of throttle is taken to give. */
export const THROTTLE_ACCEL = 3
/** Deceleration (m/s²) one unit of brake is taken to give. */
export const BRAKE_DECEL = 9
/** Speed loop: proportional gain, (m/s²) per (m/s) of speed error. */
export const SPEED_KP = 1.2
/** Speed loop: integral gain, (m/s²) per (m/s · s). */
export const SPEED_KI = 0.6
/** Speed loop: bound of the integral term, m/s². */
export const SPEED_I_MAX = 3

/** The Car and Driver arrays the driver uses, hoisted once per system run. */
export interface DriveArrays {
  x: Float64Array; y: Float64Array; heading: Float64Array; speed: Float64Array
  vx: Float64Array; vy: Float64Array; yawRate: Float64Array; wheelbase: Float64Array; maxSteer: Float64Array
  steer: Float64Array; throttle: Float64Array; brake: Float64Array
  gear: Int32Array; engineSpeed: Float64Array; shiftTimer: Float64Array; level: Uint8Array
  /** Driver.state: each car's driver record (DRIVER_STRIDE doubles). */
  state: Float64Array
}

/** The DriveArrays of a sim's stores (one per sim, made once). */
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
  V.gear = Car.gear; V.engineSpeed = Car.engineSpeed; V.shiftTimer = Car.shiftTimer; V.level = Car.level
  V.state = D.state
}

// Scratch of startDriver (single-threaded, so shared by every sim).
const proj = new Float64Array(3)
const point = new Float64Array(3)
const accel = new Float64Array(1)

/**
 * Projects car `eid` onto `path` and starts its drive there: distance 0 (measured along the line
 * from this point, so a car set just past a closed path's join is not a lap ahead), no laps, status reset.
 */
export function startDriver(Car: CarStore, D: DriverStore, path: DriverPath, eid: number): void {
  point[QUERY_X] = Car.x[eid]
  point[QUERY_Y] = Car.y[eid]
  const seg = projectAll(path.poly, point, proj)
  const s = proj[PROJ_S]
  const R = D.state, o = eid * DRIVER_STRIDE
  R[o + DRIVER_SEG] = seg
  R[o + DRIVER_GOAL_SEG] = seg
  R[o + DRIVER_S] = s
  R[o + DRIVER_DISTANCE] = 0
  R[o + DRIVER_START] = 0
  R[o + DRIVER_LAPS] = 0
  R[o + DRIVER_LATERAL] = proj[PROJ_LAT]
  R[o + DRIVER_TARGET] = profileSpeedAt(path.poly, path.profile, seg, s, accel)
  R[o + DRIVER_FINISHED] = 0
  R[o + DRIVER_SPEED_I] = 0
  R[o + DRIVER_CURVE_I] = 0
  R[o + DRIVER_AHEAD] = -1
  R[o + DRIVER_GAP] = -1
  R[o + DRIVER_PASSING] = 0
  R[o + DRIVER_SHIFT] = 0
  R[o + DRIVER_SHIFT_GOAL] = 0
  R[o + DRIVER_CAP] = -1
  R[o + DRIVER_RECHECK] = 0
}
