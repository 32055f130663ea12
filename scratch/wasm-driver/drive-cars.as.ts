/**
 * A faithful AssemblyScript port of src/driver/drive-cars.ts (`driveCars`), for the go/no-go
 * measurement of a WebAssembly driver kernel: the same operations in the same order, so the same
 * bits (checked by bench.mjs against the JS loop over real runs). Everything lives in one imported
 * linear memory; addresses are byte offsets (layout: see layout.mjs):
 *  - Car SoA: 12 f64 arrays of `cap` entries each, back to back from `carBase`, in the order
 *    x, y, heading, speed, vx, vy, yawRate, wheelbase, maxSteer, steer, throttle, brake;
 *  - Driver records: DRIVER_STRIDE (11) f64 per entity id from `drvBase` (components/driver.ts);
 *  - `pathOf`: one i32 per entity id, the car's path index (−1: no driver);
 *  - `pathTab`: one 64-byte record per path: i32 packed (byte address of DriverPath.packed, SEG_STRIDE
 *    = 8 f64 per segment), i32 segments, i32 closed, i32 pad, then f64 length, narrowGap, turnTan2,
 *    lookahead, endX, endY;
 *  - `cars`: `count` i32 entity ids.
 * Differences from JS: `x | 0` is i32.trunc_sat (the same for every value in i32 range; the JS
 * wraps larger ones modulo 2^32: a stored segment is always in range). Math.round is written as
 * V8 lowers it (ceil, then −1 if that is more than ½ above), not f64.nearest (ties to even).
 * Math.sin/cos (|heading| ≥ 1e5) and Math.hypot (the finish check) are JS's, imported.
 */

@external("Math", "sin") declare function jsSin(x: f64): f64
@external("Math", "cos") declare function jsCos(x: f64): f64
@external("Math", "hypot") declare function jsHypot(x: f64, y: f64): f64

// drive.ts, pursuit.ts, speed-control.ts
const WINDOW_MARGIN: f64 = 1.5
const LOST_DISTANCE: f64 = 12.0
const FINISH_RADIUS: f64 = 2.0
const STOPPED_SPEED: f64 = 0.2
const FINAL_BRAKE: f64 = 1.0
const SLIP_START: f64 = 0.06
const CURVE_KP: f64 = 0.6
const CURVE_KI: f64 = 1.5
const CURVE_I_MAX: f64 = 0.02
const CURVE_MIN_SPEED: f64 = 2.0
const MIN_LOOKAHEAD: f64 = 4.0
const THROTTLE_ACCEL: f64 = 3.0
const BRAKE_DECEL: f64 = 9.0
const SPEED_KP: f64 = 1.2
const SPEED_KI: f64 = 0.6
const SPEED_I_MAX: f64 = 3.0

// Driver record field byte offsets (components/driver.ts × 8)
const R_SEG = 0, R_GOAL_SEG = 8, R_S = 16, R_DISTANCE = 24, R_START = 32, R_LAPS = 40, R_LATERAL = 48
const R_TARGET = 56, R_FINISHED = 64, R_SPEED_I = 72, R_CURVE_I = 80
const DRIVER_BYTES: usize = 88
// Segment record (polyline.ts, SEG_STRIDE = 8 f64): x, y, tx, ty, s, len, v², accel
const S_X = 0, S_Y = 8, S_TX = 16, S_TY = 24, S_S = 32, S_LEN = 40, S_V2 = 48, S_ACCEL = 56
const SEG_SHIFT: usize = 6
// Path record
const P_PACKED = 0, P_SEGMENTS = 4, P_CLOSED = 8, P_LENGTH = 16, P_NARROW = 24, P_TURN = 32, P_LOOKAHEAD = 40, P_END_X = 48, P_END_Y = 56
const PATH_SHIFT: usize = 6

/** atan.ts `atan`, operation for operation. */
// @ts-ignore: decorator
@inline function atan(x: f64): f64 {
  if (x != x) return x + x // NaN
  const ax = Math.abs(x)
  if (ax >= 7.378697629483821e19) return x > 0 ? 1.57079632679489655800e+00 + 6.12323399573676603587e-17 : -1.57079632679489655800e+00 - 6.12323399573676603587e-17
  let r = x, hi: f64 = 0.0, lo: f64 = 0.0, reduced = true
  if (ax < 0.4375) {
    if (ax < 7.450580596923828125e-9) return x
    reduced = false
  } else if (ax < 1.1875) {
    if (ax < 0.6875) { hi = 4.63647609000806093515e-01; lo = 2.26987774529616870924e-17; r = (2.0 * ax - 1.0) / (2.0 + ax) } else { hi = 7.85398163397448278999e-01; lo = 3.06161699786838301793e-17; r = (ax - 1.0) / (ax + 1.0) }
  } else if (ax < 2.4375) { hi = 9.82793723247329054082e-01; lo = 1.39033110312309984516e-17; r = (ax - 1.5) / (1.0 + 1.5 * ax) } else { hi = 1.57079632679489655800e+00; lo = 6.12323399573676603587e-17; r = -1.0 / ax }
  const z = r * r, z2 = z * z, z4 = z2 * z2
  const poly = z * (((3.33333333333329318027e-01 + z * -1.99999999998764832476e-01) + z2 * (1.42857142725034663711e-01 + z * -1.11111104054623557880e-01)) +
    z4 * (((9.09088713343650656196e-02 + z * -7.69187620504482999495e-02) + z2 * (6.66107313738753120669e-02 + z * -5.83357013379057348645e-02)) +
    z4 * ((4.97687799461593236017e-02 + z * -3.65315727442169155270e-02) + z2 * 1.62858201153657823623e-02)))
  if (!reduced) return r - r * poly
  const v = hi - ((r * poly - lo) - r)
  return v * (1.0 - 2.0 * <f64>(x < 0))
}

/** JS Math.round as V8 computes it: round up, then down by one if that went more than ½ up. */
// @ts-ignore: decorator
@inline function jsRound(x: f64): f64 {
  let c = Math.ceil(x)
  if (!(c - 0.5 <= x)) c -= 1.0
  return c
}

// @ts-ignore: decorator
@inline function sinReduced(r: f64): f64 {
  const r2 = r * r, r4 = r2 * r2, r12 = r4 * r4 * r4
  return r + r * r2 * ((-1.0 / 6.0 + r2 * (1.0 / 120.0)) + r4 * ((-1.0 / 5040.0 + r2 * (1.0 / 362880.0)) + r4 * (-1.0 / 39916800.0 + r2 * (1.0 / 6227020800.0))) + r12 * (-1.0 / 1307674368000.0))
}

// @ts-ignore: decorator
@inline function cosReduced(r: f64): f64 {
  const r2 = r * r, r4 = r2 * r2, r12 = r4 * r4 * r4
  return 1.0 + r2 * ((-0.5 + r2 * (1.0 / 24.0)) + r4 * ((-1.0 / 720.0 + r2 * (1.0 / 40320.0)) + r4 * (-1.0 / 3628800.0 + r2 * (1.0 / 479001600.0))) + r12 * (-1.0 / 87178291200.0 + r2 * (1.0 / 20922789888000.0)))
}

/** drive-cars.ts `driveCars` over `count` entity ids at `cars`, for a host step of `dt` s; layout above. */
export function driveCars(cars: usize, carCount: i32, dt: f64, cap: i32, carBase: usize, drvBase: usize, pathOf: usize, pathTab: usize): void {
  const cb = <usize>cap << 3
  const X = carBase, Y = X + cb, HEADING = Y + cb, SPEED = HEADING + cb, VX = SPEED + cb, VY = VX + cb, YAW = VY + cb
  const WHEELBASE = YAW + cb, MAX_STEER = WHEELBASE + cb, STEER = MAX_STEER + cb, THROTTLE = STEER + cb, BRAKE = THROTTLE + cb
  const stepDt = dt, curveIMin = -CURVE_I_MAX
  for (let i = 0; i < carCount; i++) {
    const eid = load<i32>(cars + (<usize>i << 2))
    const pathIndex = load<i32>(pathOf + (<usize>eid << 2))
    if (pathIndex < 0) continue
    const pr = pathTab + (<usize>pathIndex << PATH_SHIFT)
    const p = <usize>load<u32>(pr, P_PACKED), segments = load<i32>(pr, P_SEGMENTS), closed = load<i32>(pr, P_CLOSED) != 0, L = load<f64>(pr, P_LENGTH)
    const e8 = <usize>eid << 3
    const d = drvBase + <usize>eid * DRIVER_BYTES
    const px = load<f64>(X + e8), py = load<f64>(Y + e8), speed = load<f64>(SPEED + e8)
    const absSpeed = Math.abs(speed)
    const vx = load<f64>(VX + e8), vy = load<f64>(VY + e8), yawRate = load<f64>(YAW + e8), wheelbase = load<f64>(WHEELBASE + e8)
    // --- Course
    const wgt: f64 = absSpeed <= CURVE_MIN_SPEED ? 0.0 : absSpeed >= 2.0 * CURVE_MIN_SPEED ? 1.0 : absSpeed / CURVE_MIN_SPEED - 1.0
    const heading = load<f64>(HEADING + e8)
    let sh: f64, ch: f64
    if (heading > -1e5 && heading < 1e5) {
      const q = jsRound(heading * 0.6366197723675814)
      const r = (heading - q * 1.5707963267341256) - q * 6.077100506506192e-11
      const sr = sinReduced(r), cr = cosReduced(r), k = <i32>q & 3
      sh = k == 0 ? sr : k == 1 ? cr : k == 2 ? -sr : -cr
      ch = k == 0 ? cr : k == 1 ? -sr : k == 2 ? -cr : sr
    } else { sh = jsSin(heading); ch = jsCos(heading) }
    let ux = ch, uy = sh, m: f64 = 1.0
    if (wgt > 0 && vx > CURVE_MIN_SPEED) {
      const sideCap = 10.0 * vx
      let side = wgt * vy
      side = side > sideCap ? sideCap : side < -sideCap ? -sideCap : side
      ux = ch * vx - sh * side
      uy = sh * vx + ch * side
      m = Math.sqrt(vx * vx + side * side)
    }

    // --- Where the car is
    const hint = <i32>load<f64>(d, R_SEG), near = WINDOW_MARGIN + 2.0 * absSpeed * stepDt
    let seg: i32 = 0, s: f64 = 0.0, lat: f64 = 0.0, segFrom: f64 = 0.0
    for (let pass: i32 = !(closed && near * 2.0 >= L) && hint >= 0 && hint < segments ? 0 : 1; pass < 2; pass++) {
      let first: i32 = 0, back: i32 = segments - 1, to: f64 = 0.0, hintLen: f64 = 0.0
      const narrow = pass == 0 && near < load<f64>(pr, P_NARROW), turnTan2 = load<f64>(pr, P_TURN)
      if (pass == 0) {
        const oh = p + (<usize>hint << SEG_SHIFT), from = load<f64>(oh, S_S)
        hintLen = load<f64>(oh, S_LEN)
        to = from + hintLen
        first = hint; back = 0
        while (!narrow && back < segments - 1) {
          let q = first - 1
          if (q < 0) { if (!closed) break; q += segments }
          let gap = from - load<f64>(p + (<usize>q << SEG_SHIFT), S_S)
          if (gap < 0) gap += L
          if (gap > near) break
          first = q; back++
        }
      }
      let count: i32 = 1
      if (pass == 1) count = segments
      else if (narrow) count = segments > 1 && (hint + 1 < segments || closed) ? 2 : 1
      else {
        for (let q = first; count < segments; count++) {
          if (++q >= segments) { if (!closed) break; q -= segments }
          if (count > back) {
            let gap = load<f64>(p + (<usize>q << SEG_SHIFT), S_S) - to
            if (gap < 0) gap += L
            if (gap > near) break
          }
        }
      }
      let best = first, bestD2 = Infinity, bestT: f64 = 0.0, bestCross: f64 = 0.0
      for (let k: i32 = 0, q = first; k < count; k++) {
        if (narrow && k == 1) {
          const rest = hintLen - bestT
          if (rest * rest > bestD2 * turnTan2 + 1e-10 * (1.0 + Math.abs(px) + Math.abs(py)) * (1.0 + rest + bestD2)) break
          let gap = load<f64>(p + (<usize>q << SEG_SHIFT), S_S) - to
          if (gap < 0) gap += L
          if (gap > near) break
        }
        const o = p + (<usize>q << SEG_SHIFT)
        const tx = load<f64>(o, S_TX), ty = load<f64>(o, S_TY), len = load<f64>(o, S_LEN)
        const dx = px - load<f64>(o, S_X), dy = py - load<f64>(o, S_Y)
        let t = dx * tx + dy * ty
        t = t < 0 ? 0.0 : t > len ? len : t
        const ex = dx - tx * t, ey = dy - ty * t
        const d2 = ex * ex + ey * ey
        if (d2 < bestD2) { bestD2 = d2; best = q; bestT = t; bestCross = tx * dy - ty * dx }
        if (++q >= segments) q -= segments
      }
      const dist = Math.sqrt(bestD2)
      seg = best
      segFrom = load<f64>(p + (<usize>best << SEG_SHIFT), S_S)
      s = segFrom + bestT
      lat = dist * (1.0 - 2.0 * <f64>(bestCross < 0))
      if (!(dist > LOST_DISTANCE)) break
    }
    let ds = s - load<f64>(d, R_S)
    if (closed) ds = ds > L / 2.0 ? ds - L : ds < -L / 2.0 ? ds + L : ds
    store<f64>(d, <f64>seg, R_SEG)
    store<f64>(d, s, R_S)
    const distance = load<f64>(d, R_DISTANCE) + ds
    store<f64>(d, distance, R_DISTANCE)
    if (closed) {
      const run = distance - load<f64>(d, R_START)
      const laps = load<f64>(d, R_LAPS)
      if (run >= (laps + 1.0) * L || (laps > 0 && run < laps * L)) {
        const n = Math.floor(run / L)
        store<f64>(d, n > 0 ? (n < 2147483647.0 ? n : 2147483647.0) : 0.0, R_LAPS)
      }
    }
    store<f64>(d, lat, R_LATERAL)

    // --- Pedals
    if (!closed) {
      const toEnd = L - s
      let finished = load<f64>(d, R_FINISHED)
      if (finished == 0 && toEnd <= FINISH_RADIUS && absSpeed < STOPPED_SPEED &&
          jsHypot(load<f64>(pr, P_END_X) - px, load<f64>(pr, P_END_Y) - py) <= FINISH_RADIUS) { finished = 1.0; store<f64>(d, finished, R_FINISHED) }
      if (finished == 1 || toEnd <= FINAL_BRAKE) {
        store<f64>(d, 0.0, R_TARGET)
        store<f64>(THROTTLE + e8, 0.0)
        store<f64>(BRAKE + e8, 1.0)
        if (finished == 1) continue
      }
    }
    if (closed || L - s > FINAL_BRAKE) {
      const o = p + (<usize>seg << SEG_SHIFT), len = load<f64>(o, S_LEN), accel = load<f64>(o, S_ACCEL)
      let t = s - segFrom
      t = t <= 0 ? 0.0 : t >= len ? len : t
      const v2 = load<f64>(o, S_V2) + 2.0 * accel * t
      const target = v2 > 0 ? Math.sqrt(v2) : 0.0
      store<f64>(d, target, R_TARGET)
      const err = target - speed
      const integral = load<f64>(d, R_SPEED_I)
      const demand = accel + SPEED_KP * err + integral
      const saturated = ((<i32>(err > 0) & <i32>(demand >= THROTTLE_ACCEL)) | (<i32>(err < 0) & <i32>(demand <= -BRAKE_DECEL))) != 0
      const next = saturated ? integral : integral + SPEED_KI * err * stepDt
      store<f64>(d, next > SPEED_I_MAX ? SPEED_I_MAX : next < -SPEED_I_MAX ? -SPEED_I_MAX : next, R_SPEED_I)
      const side = Math.abs(vy - 0.5 * wheelbase * yawRate), start = SLIP_START * vx
      const ease: f64 = !(vx > CURVE_MIN_SPEED) || side <= start ? 1.0 : side >= 2.0 * start ? 0.0 : 2.0 - side / start
      store<f64>(THROTTLE + e8, (demand > 0 ? (demand < THROTTLE_ACCEL ? demand * (1.0 / THROTTLE_ACCEL) : 1.0) : 0.0) * ease)
      store<f64>(BRAKE + e8, (demand < 0 ? (demand > -BRAKE_DECEL ? demand * (-1.0 / BRAKE_DECEL) : 1.0) : 0.0) * ease)
    }

    // --- Aim
    let reach = load<f64>(pr, P_LOOKAHEAD) * absSpeed
    if (!(reach > MIN_LOOKAHEAD)) reach = MIN_LOOKAHEAD
    const ahead = s + (reach < L ? reach : L)
    let gx: f64, gy: f64
    if (!closed && ahead > L) {
      const o = p + (<usize>(segments - 1) << SEG_SHIFT), over = ahead - L
      gx = load<f64>(pr, P_END_X) + load<f64>(o, S_TX) * over
      gy = load<f64>(pr, P_END_Y) + load<f64>(o, S_TY) * over
    } else {
      let w = ahead
      if (closed && !(w >= 0 && w < L)) {
        if (w >= L && w < 2.0 * L) w -= L
        else { w = w - Math.floor(w / L) * L; if (w >= L || w < 0) w = 0.0 }
      } else if (!closed) w = w < 0 ? 0.0 : w > L ? L : w
      let g = <i32>load<f64>(d, R_GOAL_SEG)
      if (!(g >= 0 && g < segments)) g = seg
      let o = p + (<usize>g << SEG_SHIFT), from = load<f64>(o, S_S)
      let gap = w - from
      if (closed && gap < 0) gap += L
      const forward = closed ? gap <= L / 2.0 : gap >= 0
      for (let k: i32 = 0; k < segments && (w < from || w > from + load<f64>(o, S_LEN)); k++) {
        if (forward) g = g + 1 == segments ? 0 : g + 1
        else g = g == 0 ? segments - 1 : g - 1
        o = p + (<usize>g << SEG_SHIFT)
        from = load<f64>(o, S_S)
      }
      store<f64>(d, <f64>g, R_GOAL_SEG)
      const t = w - from
      gx = load<f64>(o, S_X) + load<f64>(o, S_TX) * t
      gy = load<f64>(o, S_Y) + load<f64>(o, S_TY) * t
    }

    // --- Steer
    let kappa: f64 = 0.0
    {
      const dx = gx - px, dy = gy - py
      const fx = ux * dx + uy * dy
      const ly = ux * dy - uy * dx
      const d2 = fx * fx + ly * ly
      if (d2 != 0) {
        if (fx < 0) { const k = (2.0 * m) / Math.sqrt(d2); kappa = ly < 0 ? -k : k }
        else kappa = (2.0 * m * ly) / d2
      }
    }
    let corr = load<f64>(d, R_CURVE_I)
    const shortfall: f64 = wgt > 0 ? kappa - yawRate / speed : 0.0
    let u = atan(wheelbase * (kappa + corr + wgt * CURVE_KP * shortfall)) / load<f64>(MAX_STEER + e8)
    u = u < 1 ? (u > -1 ? u : -1.0) : u >= 1 ? 1.0 : 0.0
    store<f64>(STEER + e8, u)
    if (u < 1 && u > -1) corr += wgt * CURVE_KI * shortfall * stepDt
    if (wgt < 1) corr -= corr * (1.0 - wgt) * 0.1
    store<f64>(d, corr > CURVE_I_MAX ? CURVE_I_MAX : corr < curveIMin ? curveIMin : corr, R_CURVE_I)
  }
}
