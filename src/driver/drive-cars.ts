/**
 * The driver's step for every driven car, car by car: where the car is (projected onto its path
 * near its last projection; distance and laps advanced), the pedals from the speed profile (an
 * open path's end is a full stop, then finished: the brake held, the steering left alone), and
 * the steering: the pure-pursuit curvature towards a goal `lookahead` seconds down the path, the
 * arc leaving along the car's course, turned into a steer input (atan, lock) with a curvature loop
 * on what the car actually drives. test/driver/drive-cars.test.ts checks it against the reference
 * pieces in test/driver/reference step by step.
 *
 * A car's step (driveCar) makes no call on its common path: the window search is written into
 * it and the heading's sin and cos are kept in locals (bench/ab.mjs driver200: the search as a
 * function and sinCos through scratch arrays cost about a quarter more per car), and the course
 * comes first, so its arithmetic overlaps the projection's loads (about a tenth less per car).
 */
import type { DriveArrays, DriverPath } from './drive'
import {
  BRAKE_DECEL, CURVE_I_MAX, CURVE_KI, CURVE_KP, CURVE_MIN_SPEED, FINAL_BRAKE, FINISH_RADIUS, LOST_DISTANCE, MIN_LOOKAHEAD, SLIP_START,
  SPEED_I_MAX, SPEED_KI, SPEED_KP, STOPPED_SPEED, THROTTLE_ACCEL, WINDOW_MARGIN,
} from './drive'
import { SEG_ACCEL, SEG_LEN, SEG_S, SEG_STRIDE, SEG_TX, SEG_TY, SEG_V2, SEG_X, SEG_Y } from './polyline'
import {
  DRIVER_CURVE_I, DRIVER_DISTANCE, DRIVER_FINISHED, DRIVER_GOAL_SEG, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_S, DRIVER_SEG, DRIVER_SPEED_I,
  DRIVER_START, DRIVER_STRIDE, DRIVER_TARGET, DRIVER_CAP, DRIVER_SHIFT,
} from '../../components/driver'
import { manualGear, SHIFT_STRIDE } from './gearing'
import { atan } from './atan'
import { FROZEN_LEVEL } from '../vehicle/level'
import { cosReduced, quarterTurns, reduceQuarter, SIN_COS_RANGE, sinReduced } from './sin-cos'

/**
 * 1, read from a Float64Array so `UNIT[0] - wgt` is compiled as a double subtraction: as `1 - wgt`,
 * with wgt 0 or 1 for every car while the step was compiled, it was an integer one, and a car first
 * met between 2 and 4 m/s late in a race (queued in traffic) threw the step out of optimised code
 * (test/perf/perf.test.ts 'race frames').
 */
const UNIT = new Float64Array([1])

/** The profile's rise (m/s²) that counts as leaving a bend, for a kick-down (a flat profile rounds to ±1e-11). */
const KICK_MIN_ACCEL = 0.1

/**
 * Runs the driver of every car of `cars` that has a path and a model (not frozen, not at the path
 * level), for a host step of `dt` s; writes steer,
 * throttle, brake and the Driver state, and (options.shift) the gear: drive engaged, a manual box
 * shifted by the car's shift table in `shiftTables` (undefined for an automatic).
 */
export function driveCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], shiftTables: readonly (Float64Array | undefined)[], cars: ArrayLike<number>, dt: number): void {
  const level = V.level
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path !== undefined && level[eid] < FROZEN_LEVEL) driveCar(V, path, shiftTables, eid, dt)
  }
}

/**
 * One car's driver step (see driveCars), a function of its own rather than the loop's body: with the
 * body in the loop, test/perf/perf.test.ts 'mixed100 steady' failed in some processes (driveCars
 * left running as on-stack-replacement code after a mid-step deopt, allocating every call).
 */
function driveCar(V: DriveArrays, path: DriverPath, shiftTables: readonly (Float64Array | undefined)[], eid: number, dt: number): void {
  const X = V.x, Y = V.y, headingA = V.heading, speedA = V.speed, vxA = V.vx, vyA = V.vy, yawA = V.yawRate
  const wheelbaseA = V.wheelbase, maxSteerA = V.maxSteer, steerA = V.steer, throttleA = V.throttle, brakeA = V.brake
  const R = V.state // each car's driver record (components/driver.ts)
  const p = path.packed, segments = path.segments, closed = path.closed, L = path.length
  const d = eid * DRIVER_STRIDE
  const px = X[eid], py = Y[eid], speed = speedA[eid]
  const absSpeed = Math.abs(speed)
  const vx = vxA[eid], vy = vyA[eid], yawRate = yawA[eid], wheelbase = wheelbaseA[eid]

  // --- Course: the arc leaves along the car's velocity, not its nose (at speed the body slips);
  // weighted in from CURVE_MIN_SPEED (0) to twice it (1), as is the curvature loop.
  const wgt = Math.min(Math.max(absSpeed / CURVE_MIN_SPEED - 1, 0), 1)
  const heading = headingA[eid]
  let sh: number, ch: number
  if (heading > -SIN_COS_RANGE && heading < SIN_COS_RANGE) { // (sinCos, the pair in locals)
    const q = quarterTurns(heading), r = reduceQuarter(heading, q), sr = sinReduced(r), cr = cosReduced(r), k = q & 3
    sh = k === 0 ? sr : k === 1 ? cr : k === 2 ? -sr : -cr
    ch = k === 0 ? cr : k === 1 ? -sr : k === 2 ? -cr : sr
  } else { sh = Math.sin(heading); ch = Math.cos(heading) }
  // (ux, uy) = the course times its length m: the nose's direction turned by the body slip
  // vy / vx (bounded, |β| ≤ 84°, so an inconsistent state cannot overflow); the pursuit below
  // divides m back out.
  let ux = ch, uy = sh, m = 1
  // (the weight's tests made on the speed, the same conditions: a weight that is 0 or 1 for every
  // car while the step is compiled is taken for an integer, and a car first met between 2 and 4 m/s
  // late in a race, queued in traffic, threw the step out of optimised code: test/perf/perf.test.ts 'race frames')
  const weighted = absSpeed > CURVE_MIN_SPEED
  if (weighted && vx > CURVE_MIN_SPEED) {
    const cap = 10 * vx
    let side = wgt * vy
    side = side > cap ? cap : side < -cap ? -cap : side
    ux = ch * vx - sh * side
    uy = sh * vx + ch * side
    m = Math.sqrt(vx * vx + side * side)
  }

  // --- Where the car is: the closest point over the segments it can have reached since the
  // last step (twice a step's travel and a margin either way); all of them when it is lost.
  const hint = R[d + DRIVER_SEG] | 0, near = WINDOW_MARGIN + 2 * absSpeed * dt
  let seg = 0, s = 0, lat = 0
  // Pass 0 searches the window: the segments whose start lies within `near` of arc of the hint's
  // start (back) or of its end (on); below the path's narrowGap that is the hint and the next,
  // and the next is skipped when it provably cannot be the closer. Pass 1 searches every segment
  // (the window is the whole loop, the hint is no segment, or the car is lost: farther than
  // LOST_DISTANCE from the window's best point).
  for (let pass = (closed && near * 2 >= L) || !(hint >= 0 && hint < segments) ? 1 : 0; pass < 2; pass++) {
    let first = 0, count = segments, hintLen = 0, to = 0
    const narrow = pass === 0 && near < path.narrowGap
    if (pass === 0) {
      const from = p[hint * SEG_STRIDE + SEG_S]
      hintLen = p[hint * SEG_STRIDE + SEG_LEN]
      to = from + hintLen
      first = hint
      count = narrow && segments > 1 && (hint + 1 < segments || closed) ? 2 : 1
      // back from the hint while a segment's start lies within reach of the hint's start
      let back = 0
      while (!narrow && back < segments - 1) {
        let q = first - 1
        if (q < 0) { if (!closed) break; q += segments }
        let gap = from - p[q * SEG_STRIDE + SEG_S]
        if (gap < 0) gap += L
        if (gap > near) break
        first = q; back++
      }
      // on through the hint, then while a segment starts within reach of the hint's end
      for (let q = first; !narrow && count < segments; count++) {
        if (++q >= segments) { if (!closed) break; q -= segments }
        if (count > back) {
          let gap = p[q * SEG_STRIDE + SEG_S] - to
          if (gap < 0) gap += L
          if (gap > near) break
        }
      }
    }
    let best = first, bestD2 = Infinity, bestT = 0, bestCross = 0 // (first stays if every d² overflows)
    for (let k = 0, q = first; k < count; k++) {
      if (narrow && k === 1) {
        // the hint's next cannot be the closer when the foot point on the hint lies more than
        // lateral distance × tan(the sharpest turn) before the hint's end: the next segment then
        // starts where the car is nearest to it, that much farther than the hint
        const rest = hintLen - bestT
        if (rest * rest > bestD2 * path.turnTan2 + 1e-10 * (1 + Math.abs(px) + Math.abs(py)) * (1 + rest + bestD2)) break
        let gap = p[q * SEG_STRIDE + SEG_S] - to
        if (gap < 0) gap += L
        if (gap > near) break
      }
      const o = q * SEG_STRIDE
      const tx = p[o + SEG_TX], ty = p[o + SEG_TY], len = p[o + SEG_LEN]
      const dx = px - p[o + SEG_X], dy = py - p[o + SEG_Y]
      let t = dx * tx + dy * ty
      t = t < 0 ? 0 : t > len ? len : t
      const ex = dx - tx * t, ey = dy - ty * t
      const d2 = ex * ex + ey * ey
      if (d2 < bestD2) { bestD2 = d2; best = q; bestT = t; bestCross = tx * dy - ty * dx }
      if (++q >= segments) q -= segments
    }
    const dist = Math.sqrt(bestD2)
    seg = best
    s = p[best * SEG_STRIDE + SEG_S] + bestT
    lat = bestCross < 0 ? -dist : dist
    if (!(dist > LOST_DISTANCE)) break
  }
  let ds = s - R[d + DRIVER_S]
  if (closed) ds = ds > L / 2 ? ds - L : ds < -L / 2 ? ds + L : ds // (across a closed path's start)
  R[d + DRIVER_SEG] = seg
  R[d + DRIVER_S] = s
  const distance = R[d + DRIVER_DISTANCE] + ds
  R[d + DRIVER_DISTANCE] = distance
  if (closed) {
    // Full laps since setAi, worked out every step rather than when the count changes: the
    // first lap ends then met untaken branches inside mixed100's window (ae8115e: test/perf
    // 'mixed100 steady').
    R[d + DRIVER_LAPS] = Math.min(Math.max(Math.floor((distance - R[d + DRIVER_START]) / L), 0), 0x7fffffff)
  }
  R[d + DRIVER_LATERAL] = lat

  // --- Pedals: an open path's end is a full stop (the brake from FINAL_BRAKE before it), then
  // finished; elsewhere the speed profile at the projection (v² linear along the segment), PI on
  // the speed error plus the profile's acceleration as feed-forward.
  if (!closed) {
    const toEnd = L - s, endDx = path.endX - px, endDy = path.endY - py
    let finished = R[d + DRIVER_FINISHED]
    if (finished === 0 && toEnd <= FINISH_RADIUS && absSpeed < STOPPED_SPEED && endDx * endDx + endDy * endDy <= FINISH_RADIUS * FINISH_RADIUS) {
      R[d + DRIVER_FINISHED] = finished = 1
    }
    if (finished === 1 || toEnd <= FINAL_BRAKE) {
      R[d + DRIVER_TARGET] = 0
      throttleA[eid] = 0
      brakeA[eid] = 1
      if (finished === 1) return // hold the brake, leave the steering
    }
  }
  const o = seg * SEG_STRIDE, accel = p[o + SEG_ACCEL]
  if (closed || L - s > FINAL_BRAKE) { // (not for a NaN position: nothing is written)
    const len = p[o + SEG_LEN]
    let t = s - p[o + SEG_S]
    t = t <= 0 ? 0 : t >= len ? len : t
    const v2 = p[o + SEG_V2] + 2 * accel * t
    let target = v2 > 0 ? Math.sqrt(v2) : 0 // (rounding at a stop could leave v² a hair below 0)
    R[d + DRIVER_TARGET] = target
    // traffic's cap (the car ahead; −1 none): tracked without the profile's feed-forward
    // (selected, both comparisons made every step: a cap first met late in a race had this step
    // run unoptimised, test/perf/perf.test.ts 'race frames')
    const cap = R[d + DRIVER_CAP], capped = (cap >= 0 ? 1 : 0) & (cap < target ? 1 : 0)
    const feed = capped !== 0 ? 0 : accel
    target = capped !== 0 ? cap : target
    // anti-windup: the integrator holds while the pedal the error asks for is already full
    const err = target - speed
    const integral = R[d + DRIVER_SPEED_I]
    const demand = feed + SPEED_KP * err + integral
    const held = (err > 0 && demand >= THROTTLE_ACCEL) || (err < 0 && demand <= -BRAKE_DECEL)
    const next = held ? integral : integral + SPEED_KI * err * dt
    R[d + DRIVER_SPEED_I] = next > SPEED_I_MAX ? SPEED_I_MAX : next < -SPEED_I_MAX ? -SPEED_I_MAX : next
    // A sliding car (rear axle slip angle past SLIP_START) gets the pedals eased, all off by twice
    // that, so braking or power at the grip limit does not turn a slide into a spin. The rear axle
    // (half a wheelbase behind the centre of mass) slips sideways only when its tyres do; the
    // body's own slip is also geometric in a tight turn at low speed, where easing would stall.
    const side = Math.abs(vy - 0.5 * wheelbase * yawRate), start = SLIP_START * vx // (slip angle = side / vx)
    const ease = vx > CURVE_MIN_SPEED ? Math.max(Math.min(2 - side / start, 1), 0) : 1
    throttleA[eid] = (demand > 0 ? (demand < THROTTLE_ACCEL ? demand * (1 / THROTTLE_ACCEL) : 1) : 0) * ease
    brakeA[eid] = (demand < 0 ? (demand > -BRAKE_DECEL ? demand * (-1 / BRAKE_DECEL) : 1) : 0) * ease
  }

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
  const shift = R[d + DRIVER_SHIFT] // (traffic: beside its line, + left)
  let gx: number, gy: number
  if (!closed && ahead > L) {
    const o = last * SEG_STRIDE, over = ahead - L
    gx = path.endX + p[o + SEG_TX] * over - p[o + SEG_TY] * shift
    gy = path.endY + p[o + SEG_TY] * over + p[o + SEG_TX] * shift
  } else {
    let w = ahead // wrapped into the loop (closed) or clamped (open)
    if (closed && !(w >= 0 && w < L)) {
      if (w >= L && w < 2 * L) w -= L // (past the start: a lap back)
      else { w = w - Math.floor(w / L) * L; if (w >= L || w < 0) w = 0 }
    } else if (!closed) w = w < 0 ? 0 : w > L ? L : w
    // walk from the last goal's segment, the shorter way
    let g = R[d + DRIVER_GOAL_SEG] | 0
    if (!(g >= 0 && g < segments)) g = seg // a stale or foreign start: walk from the car's segment
    let og = g * SEG_STRIDE, from = p[og + SEG_S]
    let gap = w - from
    if (closed && gap < 0) gap += L
    const forward = closed ? gap <= L / 2 : gap >= 0
    for (let k = 0; k < segments && (w < from || w > from + p[og + SEG_LEN]); k++) {
      if (forward) g = g === last ? 0 : g + 1
      else g = g === 0 ? last : g - 1
      og = g * SEG_STRIDE
      from = p[og + SEG_S]
    }
    R[d + DRIVER_GOAL_SEG] = g
    const t = w - from
    gx = p[og + SEG_X] + p[og + SEG_TX] * t - p[og + SEG_TY] * shift
    gy = p[og + SEG_Y] + p[og + SEG_TY] * t + p[og + SEG_TX] * shift
  }

  // --- Steer: the pure-pursuit arc's curvature 2·y/d² (y the goal's lateral offset along the
  // course, d its distance; a goal behind asks for a half circle to its side), plus the curvature
  // loop on yaw rate / speed: a proportional part damps the yaw, a slow integral takes out steady
  // understeer; steer = atan(L·κ)/lock. The integral holds at lock and fades out towards walking pace.
  const dx = gx - px, dy = gy - py
  const fx = ux * dx + uy * dy
  const ly = ux * dy - uy * dx
  const d2 = fx * fx + ly * ly // (m² times the goal's distance²)
  let kappa = 0
  if (d2 !== 0) {
    if (fx < 0) { const half = (2 * m) / Math.sqrt(d2); kappa = ly < 0 ? -half : half }
    else kappa = (2 * m * ly) / d2
  }
  let corr = R[d + DRIVER_CURVE_I]
  const shortfall = weighted ? kappa - yawRate / speed : 0
  let u = atan(wheelbase * (kappa + corr + wgt * CURVE_KP * shortfall)) / maxSteerA[eid]
  u = u === u ? Math.min(Math.max(u, -1), 1) : 0 // (NaN: straight ahead)
  steerA[eid] = u
  if (u < 1 && u > -1) corr += wgt * CURVE_KI * shortfall * dt
  // (made every step: at full weight it takes off nothing, so no low-speed branch is first met late,
  // when a queue in traffic first slows a car below 4 m/s: test/perf/perf.test.ts 'race frames')
  corr -= corr * (UNIT[0] - wgt) * 0.1
  R[d + DRIVER_CURVE_I] = corr > CURVE_I_MAX ? CURVE_I_MAX : corr < -CURVE_I_MAX ? -CURVE_I_MAX : corr
}
