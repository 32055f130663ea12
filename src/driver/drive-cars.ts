/**
 * The driver's step for every driven car, car by car, in one loop: where the car is (projected onto
 * its path from its last projection; distance and laps advanced), then the pedals from the speed
 * profile (an open path's end is a full stop, then finished: the brake held, the steering left
 * alone), then the pure-pursuit curvature towards a goal `lookahead` seconds down the path, along
 * the car's course, turned into steering (atan, lock) with the curvature loop on what the car
 * actually drives.
 *
 * Why one pass with the searches written out: each car's path records (Polyline.packed, one cache
 * line per segment, the profile in it), store entries and driver record are loaded once, where five
 * passes loaded them five times; and the loop makes no call. V8 inlines only so much into one
 * function (atan and the sin/cos pieces take that budget), a call it does not inline boxes its
 * number arguments (an allocation per car), and any call in the loop, even a rare one, makes it
 * reload every array's storage per car. The course (heading's sin/cos, the body slip) comes first:
 * it heads the steering's long chain of latency, and there its work overlaps the projection's loads.
 * (The steering had its own second loop over a scratch of jobs while the course came last, which
 * then paid ≈ 5%; with the course first it no longer did, and its scratch cost ≈ 25 instructions.)
 * The pieces are the reference maths of projection.ts (projectFrom's search, copied: V8 does not
 * inline it beside atan and sinCos, and calling it was ≈ 8% slower), polyline.ts (sampleNear),
 * profile.ts (profileSpeedAt), speed-control.ts, pursuit.ts and sin-cos.ts, written out here;
 * test/driver/drive-cars.test.ts checks this loop against them step by step. Cost: ≈ 0.09 µs per
 * car in the st200 lane scene (≈ 0.08 µs with every record in cache; was 0.10–0.11 / 0.09). The
 * time is instructions: V8 re-checks each typed array (map, length, storage: ≈ 6 instructions) on
 * every iteration, since the loop's interrupt check ends what it knows, and an access costs ≈ 5
 * more (≈ 17 arrays and ≈ 55 accesses per car, most of its ≈ 600 instructions), so the loop keeps
 * indices masked (below) and skips the window's second segment when it provably cannot win.
 */
import type { DriveArrays, DriverPath } from './drive'
import {
  CURVE_I_MAX, CURVE_KI, CURVE_KP, CURVE_MIN_SPEED, FINAL_BRAKE, FINISH_RADIUS, LOST_DISTANCE, SLIP_START, STOPPED_SPEED, WINDOW_MARGIN,
} from './drive'
import { SEG_STRIDE } from './polyline'
import {
  DRIVER_CURVE_I, DRIVER_DISTANCE, DRIVER_FINISHED, DRIVER_GOAL_SEG, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_S, DRIVER_SEG, DRIVER_SPEED_I,
  DRIVER_START, DRIVER_STRIDE, DRIVER_TARGET,
} from '../../components/driver'
import { MIN_LOOKAHEAD } from './pursuit'
import { atan } from './atan'
import { cosReduced, quarterTurns, reduceQuarter, sinReduced } from './sin-cos'
import { BRAKE_DECEL, SPEED_I_MAX, SPEED_KI, SPEED_KP, THROTTLE_ACCEL } from './speed-control'

// Index masks, written as literals (the bundle leaves a module constant a module variable, and V8's
// range analysis needs the number): `q & 0xfffffff` (a segment) and `eid & 0x7ffffff` (an entity id)
// change no index the loop uses, since segments are below 2^28 (driverPath refuses more:
// MAX_DRIVER_SEGMENTS) and entity ids below 2^27 (driveCars refuses a larger Driver store). They tell V8 that a record's base plus a
// field offset stays below 2^31, so each access is a plain add and a bounds check: without them
// every one also carried an overflow check and a sign extension (8 instructions where 5 do, ≈ 60
// accesses per car).

/** Runs the driver of every car of `cars` that has a path, for a host step of `dt` s; writes steer, throttle, brake and the Driver state. */
export function driveCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], cars: ArrayLike<number>, dt: number): void {
  const X = V.x, Y = V.y, headingA = V.heading, speedA = V.speed, vxA = V.vx, vyA = V.vy, yawA = V.yawRate
  const wheelbaseA = V.wheelbase, maxSteerA = V.maxSteer, steerA = V.steer, throttleA = V.throttle, brakeA = V.brake
  const R = V.state // each car's driver record (components/driver.ts)
  if (R.length > 0x8000000 * DRIVER_STRIDE) throw new RangeError(`the driver handles entity ids below 2^27, the Driver store has room for ${R.length / DRIVER_STRIDE}`)
  // Fractional constants and dt as local doubles: the bundle keeps module constants as module
  // variables, loaded and type-checked on every use (integers it writes in as literals), and a
  // parameter stays boxed; `+ 0` unboxes each once per run.
  const margin = WINDOW_MARGIN + 0, stoppedSpeed = STOPPED_SPEED + 0, slipStart = SLIP_START + 0, speedKp = SPEED_KP + 0, speedKi = SPEED_KI + 0
  const curveKp = CURVE_KP + 0, curveKi = CURVE_KI + 0, curveIMax = CURVE_I_MAX + 0, curveIMin = -curveIMax
  const stepDt = dt + 0
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined) continue
    const p = path.packed, segments = path.segments, closed = path.closed, L = path.length
    const d = (eid & 0x7ffffff) * DRIVER_STRIDE
    const px = X[eid], py = Y[eid], speed = speedA[eid]
    const absSpeed = Math.abs(speed)
    // (the car's motion first: the course is the head of the steering's long chain of latency,
    // and written here its work overlaps the projection's loads instead of waiting behind them)
    const vx = vxA[eid], vy = vyA[eid], yawRate = yawA[eid], wheelbase = wheelbaseA[eid]
    // --- Course: the arc leaves along the car's velocity, not its nose (at speed the body slips);
    // weighted in from CURVE_MIN_SPEED (0) to twice it (1), as is the curvature loop.
    const wgt = absSpeed <= CURVE_MIN_SPEED ? 0 : absSpeed >= 2 * CURVE_MIN_SPEED ? 1 : absSpeed / CURVE_MIN_SPEED - 1
    // (sinCos's pieces, the pair kept in locals)
    const heading = headingA[eid]
    let sh: number, ch: number
    if (heading > -1e5 && heading < 1e5) { // (SIN_COS_RANGE)
      const q = quarterTurns(heading), r = reduceQuarter(heading, q), sr = sinReduced(r), cr = cosReduced(r), k = q & 3
      sh = k === 0 ? sr : k === 1 ? cr : k === 2 ? -sr : -cr
      ch = k === 0 ? cr : k === 1 ? -sr : k === 2 ? -cr : sr
    } else { sh = Math.sin(heading); ch = Math.cos(heading) }
    // (ux, uy) = the course times its length m: the nose's direction turned by the body slip
    // vy / vx (bounded, |β| ≤ 84°, so an inconsistent or absurd state cannot overflow), left
    // unnormalised: the pursuit below divides m back out, saving two divisions.
    let ux = ch, uy = sh, m = 1
    if (wgt > 0 && vx > CURVE_MIN_SPEED) {
      const cap = 10 * vx
      let side = wgt * vy
      side = side > cap ? cap : side < -cap ? -cap : side
      ux = ch * vx - sh * side
      uy = sh * vx + ch * side
      m = Math.sqrt(vx * vx + side * side)
    }

    // --- Where the car is: the closest point over the segments within a step's travel (and a
    // margin) of arc of the last projection's segment, either way; all of them when lost.
    const hint = R[d + DRIVER_SEG] | 0, near = margin + 2 * absSpeed * stepDt
    let seg = 0, s = 0, lat = 0, segFrom = 0 // (segFrom: the projection's segment's start, arc length)
    // Pass 0 searches the window (when it is not the whole loop and the hint is a segment), pass 1
    // every segment (a car lost: farther than LOST_DISTANCE from the window). Both in this loop:
    // a call here, even one rarely made, would make V8 reload every array's storage each car.
    for (let pass = !(closed && near * 2 >= L) && hint >= 0 && hint < segments ? 0 : 1; pass < 2; pass++) {
      let first = 0, back = segments - 1, to = 0, hintLen = 0
      // (a reach under narrowGap ends the window at the segment after the hint: its gap checks
      // would fail, so they are skipped, and with them the records of the segments beyond)
      const narrow = pass === 0 && near < path.narrowGap, turnTan2 = path.turnTan2
      if (pass === 0) {
        // segments back from the hint while their start lies within reach of its start
        const oh = (hint & 0xfffffff) * SEG_STRIDE, from = p[oh + 4]
        hintLen = p[oh + 5]
        to = from + hintLen
        first = hint; back = 0
        while (!narrow && back < segments - 1) {
          let q = first - 1
          if (q < 0) { if (!closed) break; q += segments }
          let gap = from - p[(q & 0xfffffff) * SEG_STRIDE + 4]
          if (gap < 0) gap += L
          if (gap > near) break
          first = q; back++
        }
      }
      // How many segments from `first`: on through the hint, then on while a segment starts within
      // reach of the hint's end (pass 1: all of them), each segment at most once. Counted before
      // any is measured, so the measuring loop below is the same short loop for every window.
      let count = 1
      if (pass === 1) count = segments
      else if (narrow) count = segments > 1 && (hint + 1 < segments || closed) ? 2 : 1 // (the second's gap: checked below, if it is needed)
      else {
        for (let q = first; count < segments; count++) {
          if (++q >= segments) { if (!closed) break; q -= segments }
          if (count > back) {
            let gap = p[(q & 0xfffffff) * SEG_STRIDE + 4] - to
            if (gap < 0) gap += L
            if (gap > near) break
          }
        }
      }
      let best = first, bestD2 = Infinity, bestT = 0, bestCross = 0 // (first stays if every d² overflows)
      for (let k = 0, q = first; k < count; k++) {
        if (narrow && k === 1) {
          // The narrow window's second segment (the hint's next) cannot be closer when the hint's
          // foot point lies more than lateral distance × tan(the path's sharpest turn) before the
          // hint's end (it then starts where the car is nearest to it, that much farther than the
          // hint), with a margin for rounding far beyond its size; otherwise, measured if in reach.
          const rest = hintLen - bestT
          if (rest * rest > bestD2 * turnTan2 + 1e-10 * (1 + Math.abs(px) + Math.abs(py)) * (1 + rest + bestD2)) break
          let gap = p[(q & 0xfffffff) * SEG_STRIDE + 4] - to
          if (gap < 0) gap += L
          if (gap > near) break
        }
        const o = (q & 0xfffffff) * SEG_STRIDE
        const tx = p[o + 2], ty = p[o + 3], len = p[o + 5]
        const dx = px - p[o], dy = py - p[o + 1]
        let t = dx * tx + dy * ty
        t = t < 0 ? 0 : t > len ? len : t
        const ex = dx - tx * t, ey = dy - ty * t
        const d2 = ex * ex + ey * ey
        if (d2 < bestD2) { bestD2 = d2; best = q; bestT = t; bestCross = tx * dy - ty * dx }
        if (++q >= segments) q -= segments
      }
      const dist = Math.sqrt(bestD2)
      seg = best
      segFrom = p[(best & 0xfffffff) * SEG_STRIDE + 4]
      s = segFrom + bestT
      lat = dist * (1 - 2 * +(bestCross < 0)) // (the side without a branch: it flips as cars weave; ±1 times is exact)
      if (!(dist > LOST_DISTANCE)) break
    }
    let ds = s - R[d + DRIVER_S]
    if (closed) ds = ds > L / 2 ? ds - L : ds < -L / 2 ? ds + L : ds
    R[d + DRIVER_SEG] = seg
    R[d + DRIVER_S] = s
    const distance = R[d + DRIVER_DISTANCE] + ds
    R[d + DRIVER_DISTANCE] = distance
    if (closed) {
      // Full laps since setAi: it rarely changes, so compare before dividing.
      const run = distance - R[d + DRIVER_START]
      const laps = R[d + DRIVER_LAPS]
      if (run >= (laps + 1) * L || (laps > 0 && run < laps * L)) {
        const n = Math.floor(run / L)
        R[d + DRIVER_LAPS] = n > 0 ? (n < 0x7fffffff ? n : 0x7fffffff) : 0
      }
    }
    R[d + DRIVER_LATERAL] = lat

    // --- Pedals: the speed profile at the projection (v² linear along the segment), PI on the
    // speed error plus the profile's acceleration as feed-forward (speed-control.ts).
    if (!closed) {
      const toEnd = L - s
      let finished = R[d + DRIVER_FINISHED]
      // (the distance to the end squared: Math.hypot is a call, which would make V8 reload every array each car)
      const endDx = path.endX - px, endDy = path.endY - py
      if (finished === 0 && toEnd <= FINISH_RADIUS && absSpeed < stoppedSpeed &&
          endDx * endDx + endDy * endDy <= FINISH_RADIUS * FINISH_RADIUS) R[d + DRIVER_FINISHED] = finished = 1
      if (finished === 1 || toEnd <= FINAL_BRAKE) {
        R[d + DRIVER_TARGET] = 0
        throttleA[eid] = 0
        brakeA[eid] = 1
        if (finished === 1) continue // hold the brake, leave the steering
      }
    }
    if (closed || L - s > FINAL_BRAKE) {
      // v² along the segment from its start at the profile's acceleration (one record, no division)
      const o = (seg & 0xfffffff) * SEG_STRIDE, len = p[o + 5], accel = p[o + 7]
      let t = s - segFrom
      t = t <= 0 ? 0 : t >= len ? len : t
      const v2 = p[o + 6] + 2 * accel * t
      const target = v2 > 0 ? Math.sqrt(v2) : 0 // (rounding at a stop could leave v² a hair below 0)
      R[d + DRIVER_TARGET] = target
      // (speedDemand, with anti-windup: the integrator holds while the pedal it asks for is full)
      const err = target - speed
      const integral = R[d + DRIVER_SPEED_I]
      const demand = accel + speedKp * err + integral
      const saturated = ((+(err > 0) & +(demand >= THROTTLE_ACCEL)) | (+(err < 0) & +(demand <= -BRAKE_DECEL))) !== 0 // (bitwise: err's sign is a coin toss at cruise, a branch on it mispredicts)
      const next = saturated ? integral : integral + speedKi * err * stepDt
      R[d + DRIVER_SPEED_I] = next > SPEED_I_MAX ? SPEED_I_MAX : next < -SPEED_I_MAX ? -SPEED_I_MAX : next
      // A sliding car (rear axle slip angle past SLIP_START) gets the pedals eased, all off by twice
      // that, so braking or power at the grip limit does not turn a slide into a spin. The rear axle
      // (taken half a wheelbase behind the centre of mass) slips sideways only when its tyres do; the
      // body's own slip is also geometric in a tight turn at low speed, where easing would stall.
      // (the slip angle is side / vx: compared as side against vx times the bounds, no division)
      const side = Math.abs(vy - 0.5 * wheelbase * yawRate), start = slipStart * vx
      const ease = !(vx > CURVE_MIN_SPEED) || side <= start ? 1 : side >= 2 * start ? 0 : 2 - side / start
      throttleA[eid] = (demand > 0 ? (demand < THROTTLE_ACCEL ? demand * (1 / THROTTLE_ACCEL) : 1) : 0) * ease
      brakeA[eid] = (demand < 0 ? (demand > -BRAKE_DECEL ? demand * (-1 / BRAKE_DECEL) : 1) : 0) * ease
    }

    // --- Aim: the goal `lookahead` seconds of travel down the path (at least MIN_LOOKAHEAD m,
    // never more than a lap); past an open end, straight on along the last segment.
    let reach = path.lookahead * absSpeed
    if (!(reach > MIN_LOOKAHEAD)) reach = MIN_LOOKAHEAD
    const ahead = s + (reach < L ? reach : L)
    let gx: number, gy: number
    if (!closed && ahead > L) {
      const o = ((segments - 1) & 0xfffffff) * SEG_STRIDE, over = ahead - L
      gx = path.endX + p[o + 2] * over
      gy = path.endY + p[o + 3] * over
    } else {
      // (sampleNear: walk from the last goal's segment, the way that is shorter)
      let w = ahead
      if (closed && !(w >= 0 && w < L)) {
        if (w >= L && w < 2 * L) w -= L
        else { w = w - Math.floor(w / L) * L; if (w >= L || w < 0) w = 0 }
      } else if (!closed) w = w < 0 ? 0 : w > L ? L : w
      let g = R[d + DRIVER_GOAL_SEG] | 0
      if (!(g >= 0 && g < segments)) g = seg // a stale or foreign start: walk from the car's segment
      let o = (g & 0xfffffff) * SEG_STRIDE, from = p[o + 4]
      let gap = w - from
      if (closed && gap < 0) gap += L
      const forward = closed ? gap <= L / 2 : gap >= 0
      for (let k = 0; k < segments && (w < from || w > from + p[o + 5]); k++) {
        if (forward) g = g + 1 === segments ? 0 : g + 1
        else g = g === 0 ? segments - 1 : g - 1
        o = (g & 0xfffffff) * SEG_STRIDE
        from = p[o + 4]
      }
      R[d + DRIVER_GOAL_SEG] = g
      const t = w - from
      gx = p[o] + p[o + 2] * t
      gy = p[o + 1] + p[o + 3] * t
    }


    // --- Steer: the pure-pursuit arc's curvature (pursuit.ts; here with the course scaled by m)
    // plus the curvature loop on yaw rate / speed: a proportional part damps the yaw, a slow
    // integral takes out steady understeer; it integrates for the next step, holds at lock, and
    // fades out towards walking pace.
    let kappa = 0
    {
      const dx = gx - px, dy = gy - py
      const fx = ux * dx + uy * dy
      const ly = ux * dy - uy * dx
      const d2 = fx * fx + ly * ly // (m² times the goal's distance²)
      if (d2 !== 0) {
        if (fx < 0) { const k = (2 * m) / Math.sqrt(d2); kappa = ly < 0 ? -k : k } // goal behind: a half circle to its side
        else kappa = (2 * m * ly) / d2
      }
    }
    let corr = R[d + DRIVER_CURVE_I]
    const shortfall = wgt > 0 ? kappa - yawRate / speed : 0
    // --- Steer: steer = atan(L·κ)/lock; the curvature loop integrates for the next step, holds
    // at lock, and fades out towards walking pace.
    let u = atan(wheelbase * (kappa + corr + wgt * curveKp * shortfall)) / maxSteerA[eid]
    u = u < 1 ? (u > -1 ? u : -1) : u >= 1 ? 1 : 0 // (NaN: straight ahead)
    steerA[eid] = u
    if (u < 1 && u > -1) corr += wgt * curveKi * shortfall * stepDt
    if (wgt < 1) corr -= corr * (1 - wgt) * 0.1
    R[d + DRIVER_CURVE_I] = corr > curveIMax ? curveIMax : corr < curveIMin ? curveIMin : corr
  }
}
