/**
 * Drive phase 2: throttle and brake. Tracks the speed profile at the car's projection (phase 1);
 * an open path's end is a full stop, then finished (the brake held, the steering left alone).
 */
import type { DriveArrays, DriverPath } from './drive'
import { CURVE_MIN_SPEED, FINAL_BRAKE, FINISH_RADIUS, SLIP_START, STOPPED_SPEED } from './drive'
import { profileSpeedAt } from './profile'
import { brakeFor, speedDemand, throttleFor } from './speed-control'

// The profile's acceleration at the car (single-threaded, so shared by every sim).
const accel = new Float64Array(1)

/** Sets the pedals of every car of `cars` that has a path, for a host step of `dt` s (after locateCars). */
export function pedalCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], cars: ArrayLike<number>, dt: number): void {
  // Its own loop, so profileSpeedAt inlines here: a call would box s and the speed it returns.
  const X = V.x, Y = V.y, speedA = V.speed, vxA = V.vx, vyA = V.vy, yawA = V.yawRate, wheelbaseA = V.wheelbase
  const throttleA = V.throttle, brakeA = V.brake, segA = V.seg, sA = V.s, targetA = V.targetSpeed, finishedA = V.finished, speedI = V.speedI
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined) continue
    const poly = path.poly
    const speed = speedA[eid], s = sA[eid]
    const L = poly.length
    if (!poly.closed) {
      const toEnd = L - s
      if (finishedA[eid] === 0 && toEnd <= FINISH_RADIUS && Math.abs(speed) < STOPPED_SPEED &&
          Math.hypot(poly.x[poly.n - 1] - X[eid], poly.y[poly.n - 1] - Y[eid]) <= FINISH_RADIUS) finishedA[eid] = 1
      if (finishedA[eid] === 1 || toEnd <= FINAL_BRAKE) {
        targetA[eid] = 0
        throttleA[eid] = 0
        brakeA[eid] = 1
        if (finishedA[eid] === 1) continue // hold the brake
      }
    }
    if (poly.closed || L - s > FINAL_BRAKE) {
      const target = profileSpeedAt(poly, path.profile, segA[eid], s, accel)
      targetA[eid] = target
      const demand = speedDemand(speedI, eid, target, accel[0], speed, dt)
      // A sliding car (rear axle slip angle past SLIP_START) gets the pedals eased, all off by twice
      // that, so braking or power at the grip limit does not turn a slide into a spin. The rear axle
      // (taken half a wheelbase behind the centre of mass) slips sideways only when its tyres do; the
      // body's own slip is also geometric in a tight turn at low speed, where easing would stall.
      const vx = vxA[eid]
      const slip = vx > CURVE_MIN_SPEED ? Math.abs(vyA[eid] - 0.5 * wheelbaseA[eid] * yawA[eid]) / vx : 0
      const ease = slip <= SLIP_START ? 1 : slip >= 2 * SLIP_START ? 0 : 2 - slip / SLIP_START
      throttleA[eid] = throttleFor(demand) * ease
      brakeA[eid] = brakeFor(demand) * ease
    }
  }
}
