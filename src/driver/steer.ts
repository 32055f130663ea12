/**
 * Drive phases 3 and 4: steering. Aim picks the pure-pursuit goal `lookahead` seconds down the
 * path (past an open end: straight on); steer turns the arc to it into a steer input, with the
 * curvature loop on what the car actually drives. Finished cars keep their steering.
 */
import type { DriveArrays, DriverPath } from './drive'
import { CURVE_I_MAX, CURVE_KI, CURVE_KP, CURVE_MIN_SPEED } from './drive'
import { sampleNear } from './polyline'
import { lookaheadDistance, pursuitCurvature, steerForCurvature } from './pursuit'
import { sinCos } from './sin-cos'

// Scratch of one car at a time (single-threaded, so shared by every sim).
const goal = new Float64Array(4)
const trig = new Float64Array(2)

/** Writes every unfinished car's look-ahead point into V.goalX/goalY (after locateCars). */
export function aimCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], cars: ArrayLike<number>): void {
  // Its own loop, so sampleNear inlines here (a call would box its arc length); the goal goes
  // to the steer phase through V, as steering has no inlining room left for this.
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined) continue
    const poly = path.poly
    if (!poly.closed && V.finished[eid] === 1) continue
    const L = poly.length
    const reach = lookaheadDistance(path.options.lookahead, V.speed[eid])
    const ahead = V.s[eid] + (reach < L ? reach : L) // never more than a lap (an absurd speed stays finite)
    if (!poly.closed && ahead > L) {
      const last = poly.segments - 1
      const over = ahead - L
      V.goalX[eid] = poly.x[poly.n - 1] + poly.tx[last] * over
      V.goalY[eid] = poly.y[poly.n - 1] + poly.ty[last] * over
    } else {
      V.goalSeg[eid] = sampleNear(poly, V.goalSeg[eid], ahead, goal)
      V.goalX[eid] = goal[0]
      V.goalY[eid] = goal[1]
    }
  }
}

/** Steers every unfinished car of `cars` towards its goal (after aimCars), for a host step of `dt` s. */
export function steerCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], cars: ArrayLike<number>, dt: number): void {
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined || (!path.poly.closed && V.finished[eid] === 1)) continue
    const px = V.x[eid], py = V.y[eid], speed = V.speed[eid]
    const wheelbase = V.wheelbase[eid], maxSteer = V.maxSteer[eid]
    // Speed weight of the velocity-based terms: 0 up to CURVE_MIN_SPEED, 1 from twice it, linear
    // between, so nothing in the steering jumps at a threshold.
    const absSpeed = Math.abs(speed)
    const w = absSpeed <= CURVE_MIN_SPEED ? 0 : absSpeed >= 2 * CURVE_MIN_SPEED ? 1 : absSpeed / CURVE_MIN_SPEED - 1
    // The arc leaves along the car's velocity (its course), not its nose: at speed the body slips.
    sinCos(V.heading[eid], trig)
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
    const kappa = pursuitCurvature(px, py, ux, uy, V.goalX[eid], V.goalY[eid])
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
}
