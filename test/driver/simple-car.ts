/**
 * A simple stand-in car for testing the driver's logic on a model whose behaviour is known in
 * closed form: a kinematic bicycle with an understeer gradient (δ = (L + K·v²)·κ), a steering
 * rate limit, a first-order pedal lag, drag and rolling resistance. Not pitlane's vehicle model.
 */
import type { Sim } from '../../src/sim'

/** Understeer gradient of the stand-in, rad per m/s² of lateral acceleration. */
export const UNDERSTEER = 0.0035

/** Adds a stand-in car at (x, y) with `heading` and `speed` and schedules its model (once per sim). */
export function addSimpleCar(sim: Sim, x: number, y: number, heading: number, speed = 0): number {
  // A real car whose definition is dropped: the vehicle step skips it, this model moves it.
  const eid = sim.addCar()
  sim.internal.vehicles.defs[eid] = undefined
  const C = sim.components.Car
  C.x[eid] = x; C.y[eid] = y; C.heading[eid] = heading; C.speed[eid] = speed; C.vx[eid] = speed; C.vy[eid] = 0
  C.wheelbase[eid] = 2.6; C.maxSteer[eid] = 0.6; C.steerAngle[eid] = 0; C.ax[eid] = 0
  C.steer[eid] = 0; C.throttle[eid] = 0; C.brake[eid] = 0; C.yawRate[eid] = 0
  if (!sim.schedule.has('simple-cars')) sim.schedule.add((w) => { stepSimpleCars(sim); return w }, { name: 'simple-cars', phase: 'vehicle' })
  simple.set(sim, [...(simple.get(sim) ?? []), eid])
  return eid
}

const simple = new Map<Sim, number[]>()

function stepSimpleCars(sim: Sim): void {
  const C = sim.components.Car
  const dt = sim.dt / 4
  for (const eid of simple.get(sim) ?? []) {
    for (let k = 0; k < 4; k++) {
      const want = C.steer[eid] * C.maxSteer[eid]
      const rate = 1.5 * dt
      C.steerAngle[eid] += Math.max(-rate, Math.min(rate, want - C.steerAngle[eid]))
      const v = C.speed[eid]
      const kappa = Math.tan(C.steerAngle[eid]) / (C.wheelbase[eid] + UNDERSTEER * v * v)
      const drive = C.throttle[eid] * 3.5 * Math.max(0, 1 - v / 50)
      const brake = v > 0.05 ? C.brake[eid] * 9.5 : 0
      const resist = v > 0.05 ? 0.0004 * v * v + 0.12 : 0
      const target = drive - brake - resist
      C.ax[eid] += (target - C.ax[eid]) * Math.min(1, dt / 0.15)
      let nv = v + C.ax[eid] * dt
      if (nv < 0) { nv = 0; if (C.ax[eid] < 0) C.ax[eid] = 0 }
      C.speed[eid] = nv; C.vx[eid] = nv
      C.yawRate[eid] = nv * kappa
      C.heading[eid] += nv * kappa * dt
      C.x[eid] += nv * Math.cos(C.heading[eid]) * dt
      C.y[eid] += nv * Math.sin(C.heading[eid]) * dt
    }
  }
}
