/**
 * The driver's step for every driven car, car by car: where the car is (projected onto its path
 * near its last projection; distance and laps advanced), the pedals from the speed profile (an
 * open path's end is a full stop, then finished: the brake held, the steering left alone), and
 * the steering: the pure-pursuit curvature towards a goal `lookahead` seconds down the path, the
 * arc leaving along the car's course, turned into a steer input (atan, lock) with a curvature loop
 * on what the car actually drives. test/driver/drive-cars.test.ts checks it against the reference
 * pieces in test/driver/reference step by step.
 */
import type { DriveArrays, DriverPath } from './drive'
import {
  BRAKE_DECEL, CURVE_I_MAX, CURVE_KI, CURVE_KP, CURVE_MIN_SPEED, FINAL_BRAKE, FINISH_RADIUS, LOST_DISTANCE, MIN_LOOKAHEAD, SLIP_START,
  SPEED_I_MAX, SPEED_KI, SPEED_KP, STOPPED_SPEED, THROTTLE_ACCEL, WINDOW_MARGIN,
} from './drive'
import { SEG_ACCEL, SEG_LEN, SEG_S, SEG_STRIDE, SEG_TX, SEG_TY, SEG_V2, SEG_X, SEG_Y } from './polyline'
import { projectAll, projectWindow, PROJ_DIST, PROJ_LAT, PROJ_S, QUERY_REACH, QUERY_X, QUERY_Y } from './projection'
import {
  DRIVER_CURVE_I, DRIVER_DISTANCE, DRIVER_FINISHED, DRIVER_GOAL_SEG, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_S, DRIVER_SEG, DRIVER_SPEED_I,
  DRIVER_START, DRIVER_STRIDE, DRIVER_TARGET,
} from '../../components/driver'
import { manualGear, SHIFT_STRIDE } from './gearing'
import { atan } from './atan'
import { sinCos } from './sin-cos'

/** The profile's rise (m/s²) that counts as leaving a bend, for a kick-down (a flat profile rounds to ±1e-11). */
const KICK_MIN_ACCEL = 0.1

// Scratch of driveCars: a projection's query (QUERY_*) and result (PROJ_*), the heading's sin and cos.
const query = new Float64Array(3)
const projection = new Float64Array(3)
const headingSinCos = new Float64Array(2)

/**
 * Runs the driver of every car of `cars` that has a path, for a host step of `dt` s; writes steer,
 * throttle, brake and the Driver state, and (options.shift) the gear: drive engaged, a manual box
 * shifted by the car's shift table in `shiftTables` (undefined for an automatic). Rare cases
 * compute every candidate each step and choose by a compare, so the first lap end, stop or slide
 * does not send the running driver back to unoptimised code mid-race: test/perf/perf.test.ts
 * "race frames" (run with PITLANE_PERF_STRICT=1 while it is on that file's known-failing list).
 */
export function driveCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], shiftTables: readonly (Float64Array | undefined)[], cars: ArrayLike<number>, dt: number): void {
  const X = V.x, Y = V.y, headingA = V.heading, speedA = V.speed, vxA = V.vx, vyA = V.vy, yawA = V.yawRate
  const wheelbaseA = V.wheelbase, maxSteerA = V.maxSteer, steerA = V.steer, throttleA = V.throttle, brakeA = V.brake
  const R = V.state // each car's driver record (components/driver.ts)
  for (let i = 0; i < cars.length; i++) {
      const eid = cars[i]
      const path = paths[eid]
      if (path === undefined) continue
      const poly = path.poly, p = path.packed, segments = path.segments, closed = path.closed, L = path.length
      const d = eid * DRIVER_STRIDE
      const px = X[eid], py = Y[eid], speed = speedA[eid]
      const absSpeed = Math.abs(speed)

      // --- Where the car is: the closest point over the segments it can have reached since the
      // last step (twice a step's travel and a margin either way); all of them when it is lost.
      query[QUERY_X] = px
      query[QUERY_Y] = py
      query[QUERY_REACH] = WINDOW_MARGIN + 2 * absSpeed * dt
      let seg = projectWindow(poly, query, R[d + DRIVER_SEG] | 0, projection)
      if (projection[PROJ_DIST] > LOST_DISTANCE) seg = projectAll(poly, query, projection)
      const s = projection[PROJ_S], segFrom = p[seg * SEG_STRIDE + SEG_S]
      let ds = s - R[d + DRIVER_S]
      const dsBack = ds - L, dsOn = ds + L // (across a closed path's start)
      if (closed) ds = ds > L / 2 ? dsBack : ds < -L / 2 ? dsOn : ds
      R[d + DRIVER_SEG] = seg
      R[d + DRIVER_S] = s
      const distance = R[d + DRIVER_DISTANCE] + ds
      R[d + DRIVER_DISTANCE] = distance
      if (closed) {
        // Full laps since setAi.
        R[d + DRIVER_LAPS] = Math.min(Math.max(Math.floor((distance - R[d + DRIVER_START]) / L), 0), 0x7fffffff)
      }
      R[d + DRIVER_LATERAL] = projection[PROJ_LAT]

      // --- Pedals: the speed profile at the projection (v² linear along the segment), PI on the
      // speed error plus the profile's acceleration as feed-forward; an open path's end is a full
      // stop (the brake from FINAL_BRAKE before it), then finished.
      const vx = vxA[eid], vy = vyA[eid], yawRate = yawA[eid], wheelbase = wheelbaseA[eid]
      const toEnd = L - s
      const endDx = path.endX - px, endDy = path.endY - py
      const atEnd = toEnd <= FINISH_RADIUS, stopped = absSpeed < STOPPED_SPEED, onEnd = endDx * endDx + endDy * endDy <= FINISH_RADIUS * FINISH_RADIUS
      let finished = R[d + DRIVER_FINISHED]
      if (!closed && finished === 0 && atEnd && stopped && onEnd) finished = 1
      R[d + DRIVER_FINISHED] = finished
      const done = finished === 1
      const stopping = !closed && (done || toEnd <= FINAL_BRAKE)
      const profiled = closed || toEnd > FINAL_BRAKE // (neither for a NaN position: nothing is written)
      const o = seg * SEG_STRIDE, len = p[o + SEG_LEN], accel = p[o + SEG_ACCEL]
      let t = s - segFrom
      t = t <= 0 ? 0 : t >= len ? len : t
      const v2 = p[o + SEG_V2] + 2 * accel * t
      const target = v2 > 0 ? Math.sqrt(v2) : 0 // (rounding at a stop could leave v² a hair below 0)
      // anti-windup: the integrator holds while the pedal the error asks for is already full
      const err = target - speed
      const integral = R[d + DRIVER_SPEED_I]
      const demand = accel + SPEED_KP * err + integral
      const pushing = err > 0, braking = err < 0, throttleFull = demand >= THROTTLE_ACCEL, brakeFull = demand <= -BRAKE_DECEL
      const held = (pushing && throttleFull) || (braking && brakeFull)
      const next = held ? integral : integral + SPEED_KI * err * dt
      const nextI = next > SPEED_I_MAX ? SPEED_I_MAX : next < -SPEED_I_MAX ? -SPEED_I_MAX : next
      // A sliding car (rear axle slip angle past SLIP_START) gets the pedals eased, all off by twice
      // that, so braking or power at the grip limit does not turn a slide into a spin. The rear axle
      // (half a wheelbase behind the centre of mass) slips sideways only when its tyres do; the
      // body's own slip is also geometric in a tight turn at low speed, where easing would stall.
      const side = Math.abs(vy - 0.5 * wheelbase * yawRate), start = SLIP_START * vx // (slip angle = side / vx)
      const ease = vx > CURVE_MIN_SPEED ? Math.max(Math.min(2 - side / start, 1), 0) : 1
      const throttleShare = Math.min(Math.max(demand * (1 / THROTTLE_ACCEL), 0), 1)
      const brakeShare = Math.min(Math.max(demand * (-1 / BRAKE_DECEL), 0), 1)
      if (stopping || profiled) {
        R[d + DRIVER_TARGET] = stopping ? 0 : target
        R[d + DRIVER_SPEED_I] = stopping ? integral : nextI
        throttleA[eid] = stopping ? 0 : (demand > 0 ? throttleShare : 0) * ease
        brakeA[eid] = stopping ? 1 : (demand < 0 ? brakeShare : 0) * ease
      }
      if (stopping && done) continue // hold the brake, leave the steering

      // --- Gear (options.shift): drive engaged; a manual box shifted by the car's table, kicking
      // down only where the profile rises (out of a bend, not in it: there a shift's jolt in drive
      // torque upsets a car at its limit).
      if (path.shift) {
        const table = shiftTables[eid], gear = V.gear[eid]
        if (table === undefined) V.gear[eid] = gear >= 1 ? gear : 1
        else {
          const kick = accel > KICK_MIN_ACCEL ? throttleA[eid] : 0
          V.gear[eid] = manualGear(table, table.length / SHIFT_STRIDE - 1, gear, absSpeed, V.engineSpeed[eid], kick, V.shiftTimer[eid] > 0)
        }
      }

      // --- Aim: the goal `lookahead` seconds of travel down the path (at least MIN_LOOKAHEAD m,
      // never more than a lap); past an open end, straight on along the last segment.
      let reach = path.lookahead * absSpeed
      if (!(reach > MIN_LOOKAHEAD)) reach = MIN_LOOKAHEAD
      const ahead = s + (reach < L ? reach : L)
      const last = segments - 1
      let gx: number, gy: number
      if (!closed && ahead > L) {
        const o = last * SEG_STRIDE, over = ahead - L
        gx = path.endX + p[o + SEG_TX] * over
        gy = path.endY + p[o + SEG_TY] * over
      } else {
        let w = ahead // wrapped into the loop (closed) or clamped (open)
        const wBack = w - L // (past a closed path's start)
        if (closed && !(w >= 0 && w < L)) {
          if (w >= L && w < 2 * L) w = wBack
          else { w = w - Math.floor(w / L) * L; if (w >= L || w < 0) w = 0 }
        } else if (!closed) w = w < 0 ? 0 : w > L ? L : w
        // walk from the last goal's segment, the shorter way
        let g = R[d + DRIVER_GOAL_SEG] | 0
        if (!(g >= 0 && g < segments)) g = seg // a stale or foreign start: walk from the car's segment
        let og = g * SEG_STRIDE, from = p[og + SEG_S]
        let gap = w - from
        const gapOn = gap + L
        if (closed && gap < 0) gap = gapOn
        const forward = closed ? gap <= L / 2 : gap >= 0
        const dir = forward ? 1 : -1
        for (let k = 0; k < segments && (w < from || w > from + p[og + SEG_LEN]); k++) {
          g += dir
          g = g === segments ? 0 : g < 0 ? last : g
          og = g * SEG_STRIDE
          from = p[og + SEG_S]
        }
        R[d + DRIVER_GOAL_SEG] = g
        const t = w - from
        gx = p[og + SEG_X] + p[og + SEG_TX] * t
        gy = p[og + SEG_Y] + p[og + SEG_TY] * t
      }

      // --- Course: the arc leaves along the car's velocity, not its nose (at speed the body slips);
      // weighted in from CURVE_MIN_SPEED (0) to twice it (1), as is the curvature loop.
      const wgt = Math.min(Math.max(absSpeed / CURVE_MIN_SPEED - 1, 0), 1)
      sinCos(headingA[eid], headingSinCos)
      const sh = headingSinCos[0], ch = headingSinCos[1]
      // (ux, uy) = the course times its length m: the nose's direction turned by the body slip
      // vy / vx (bounded, |β| ≤ 84°, so an inconsistent state cannot overflow); the pursuit below
      // divides m back out.
      let ux = ch, uy = sh, m = 1
      if (wgt > 0 && vx > CURVE_MIN_SPEED) {
        const cap = 10 * vx
        let side = wgt * vy
        side = side > cap ? cap : side < -cap ? -cap : side
        ux = ch * vx - sh * side
        uy = sh * vx + ch * side
        m = Math.sqrt(vx * vx + side * side)
      }

      // --- Steer: the pure-pursuit arc's curvature 2·y/d² (y the goal's lateral offset along the
      // course, d its distance; a goal behind asks for a half circle to its side), plus the curvature
      // loop on yaw rate / speed: a proportional part damps the yaw, a slow integral takes out steady
      // understeer; steer = atan(L·κ)/lock. The integral holds at lock and fades out towards walking pace.
      const dx = gx - px, dy = gy - py
      const fx = ux * dx + uy * dy
      const ly = ux * dy - uy * dx
      const d2 = fx * fx + ly * ly // (m² times the goal's distance²)
      const halfCircle = (2 * m) / Math.sqrt(d2), arc = (2 * m * ly) / d2
      const kappa = d2 === 0 ? 0 : fx < 0 ? (ly < 0 ? -halfCircle : halfCircle) : arc
      let corr = R[d + DRIVER_CURVE_I]
      const shortfall = wgt > 0 ? kappa - yawRate / speed : 0
      let u = atan(wheelbase * (kappa + corr + wgt * CURVE_KP * shortfall)) / maxSteerA[eid]
      u = u === u ? Math.min(Math.max(u, -1), 1) : 0 // (NaN: straight ahead)
      steerA[eid] = u
      const integrated = corr + wgt * CURVE_KI * shortfall * dt
      if (u < 1 && u > -1) corr = integrated
      const faded = corr - corr * (1 - wgt) * 0.1
      if (wgt < 1) corr = faded
      R[d + DRIVER_CURVE_I] = corr > CURVE_I_MAX ? CURVE_I_MAX : corr < -CURVE_I_MAX ? -CURVE_I_MAX : corr
  }
}
