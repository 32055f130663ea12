/**
 * Drive phases 3 to 5: steering. Aim picks the pure-pursuit goal `lookahead` seconds down the
 * path (past an open end: straight on); course is the direction the arc leaves along; steer turns
 * the arc into a steer input, with the curvature loop on what the car actually drives. Finished
 * cars keep their steering.
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
  const speedA = V.speed, sA = V.s, finishedA = V.finished, goalSegA = V.goalSeg, goalX = V.goalX, goalY = V.goalY
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined) continue
    const poly = path.poly
    if (!poly.closed && finishedA[eid] === 1) continue
    const L = poly.length
    const reach = lookaheadDistance(path.options.lookahead, speedA[eid])
    const ahead = sA[eid] + (reach < L ? reach : L) // never more than a lap (an absurd speed stays finite)
    if (!poly.closed && ahead > L) {
      const last = poly.segments - 1
      const over = ahead - L
      goalX[eid] = poly.x[poly.n - 1] + poly.tx[last] * over
      goalY[eid] = poly.y[poly.n - 1] + poly.ty[last] * over
    } else {
      goalSegA[eid] = sampleNear(poly, goalSegA[eid], ahead, goal)
      goalX[eid] = goal[0]
      goalY[eid] = goal[1]
    }
  }
}

/** Writes every unfinished car's course (unit direction its arc leaves along) into V.courseX/courseY. */
export function courseCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], cars: ArrayLike<number>): void {
  // Its own loop, as sinCos and atan (steerCars) together are more than V8 inlines into one.
  const speedA = V.speed, headingA = V.heading, vxA = V.vx, vyA = V.vy, finishedA = V.finished, courseX = V.courseX, courseY = V.courseY
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined || (!path.poly.closed && finishedA[eid] === 1)) continue
    // The arc leaves along the car's velocity (its course), not its nose: at speed the body slips.
    sinCos(headingA[eid], trig)
    const ch = trig[1], sh = trig[0]
    let ux = ch, uy = sh
    const w = speedWeight(speedA[eid])
    const vx = vxA[eid]
    if (w > 0 && vx > CURVE_MIN_SPEED) {
      // vy / vx, bounded (|β| ≤ 84°) so an inconsistent or absurd state cannot overflow
      let slope = (w * vyA[eid]) / vx
      slope = slope > 10 ? 10 : slope < -10 ? -10 : slope
      const inv = 1 / Math.sqrt(1 + slope * slope)
      ux = (ch - slope * sh) * inv
      uy = (sh + slope * ch) * inv
    }
    courseX[eid] = ux
    courseY[eid] = uy
  }
}

/** Steers every unfinished car of `cars` towards its goal along its course (after aimCars, courseCars), for a host step of `dt` s. */
export function steerCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], cars: ArrayLike<number>, dt: number): void {
  const X = V.x, Y = V.y, speedA = V.speed, yawA = V.yawRate, wheelbaseA = V.wheelbase, maxSteerA = V.maxSteer, steerA = V.steer
  const finishedA = V.finished, goalX = V.goalX, goalY = V.goalY, courseX = V.courseX, courseY = V.courseY, curveI = V.curveI
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined || (!path.poly.closed && finishedA[eid] === 1)) continue
    const speed = speedA[eid]
    const w = speedWeight(speed)
    const kappa = pursuitCurvature(X[eid], Y[eid], courseX[eid], courseY[eid], goalX[eid], goalY[eid])
    // Curvature loop on what the car actually drives (yaw rate / speed): a proportional part damps
    // the yaw (counter-steers oversteer at once), a slow integral takes out steady understeer; it
    // integrates for the next step, and holds while the steering is at lock.
    let corr = curveI[eid]
    const shortfall = w > 0 ? kappa - yawA[eid] / speed : 0
    const u = steerForCurvature(kappa + corr + w * CURVE_KP * shortfall, wheelbaseA[eid], maxSteerA[eid])
    steerA[eid] = u
    if (u < 1 && u > -1) corr += w * CURVE_KI * shortfall * dt
    if (w < 1) corr -= corr * (1 - w) * 0.1 // fade out towards walking pace, where yaw rate says little
    curveI[eid] = corr > CURVE_I_MAX ? CURVE_I_MAX : corr < -CURVE_I_MAX ? -CURVE_I_MAX : corr
  }
}

/**
 * Speed weight of the velocity-based steering terms (course, curvature loop): 0 up to
 * CURVE_MIN_SPEED, 1 from twice it, linear between, so nothing in the steering jumps at a threshold.
 */
function speedWeight(speed: number): number {
  const absSpeed = Math.abs(speed)
  return absSpeed <= CURVE_MIN_SPEED ? 0 : absSpeed >= 2 * CURVE_MIN_SPEED ? 1 : absSpeed / CURVE_MIN_SPEED - 1
}
