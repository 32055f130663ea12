/**
 * Runs both models through their rare branches on a private car before any user car steps, so the
 * first optimised code of each has seen every branch (an ABS stop, a slide, traction control's cut,
 * reversing, a crawl, a parked car, an unloaded axle, shifts; then each again on a slope, some
 * with a wheel or an axle in the air): otherwise the first time a user's
 * car takes one, the model's optimised code is thrown away mid-race and rebuilt.
 * Needed by test/perf/perf.test.ts "race hitches" (run with PITLANE_PERF_STRICT=1 while it is on
 * that file's known-failing list).
 * The private car lives in its own store (no user car is touched, no surface map is called); it
 * runs once per combination of the definition's model flags per process.
 */
import { createCarComponents } from '../../components/car'
import type { ResolvedCar } from './definition'
import { fourWheelSubstep } from './four-wheel'
import { singleTrackSubsteps, type AxleGround } from './single-track'
import { createSubstep } from './substep'
import { createGroundContact, type GroundContact } from './ground-contact'
import { warmGround } from './warm-ground'

const warmed = new Set<string>()
// a slope under the private car (every second scene: on terrain, a wheel or an axle in the air)
const ground: GroundContact = createGroundContact()
const axles: AxleGround = { gx: NaN, gy: NaN, onF: NaN, onR: NaN, cp: NaN, sp: NaN }

/** Puts gc's four wheels on a gentle cross slope, `off` of them (from the rear right) in the air, the body's axes level at heading 0.1. */
function slope(gc: GroundContact, d: ResolvedCar, off: number): void {
  gc.flat = false
  for (let i = 0; i < 4; i++) {
    gc.hit[i] = i < 4 - off ? 1 : 0
    gc.dist[i] = d.h + 0.0013 * (i + 1)
    gc.nx[i] = -0.0995; gc.ny[i] = 0.0101; gc.nz[i] = Math.sqrt(1 - 0.0995 * 0.0995 - 0.0101 * 0.0101)
    gc.grip[i] = 0.97; gc.rr[i] = 0.013
  }
  const c = Math.cos(0.1), s = Math.sin(0.1)
  gc.ex[0] = c; gc.ex[1] = s; gc.ex[2] = 0.0013
  gc.ey[0] = -s; gc.ey[1] = c; gc.ey[2] = 0.0011
  gc.ez[0] = 0.0012; gc.ez[1] = -0.0011; gc.ez[2] = 1
}
const step = createSubstep()
let store: ReturnType<typeof createCarComponents>['Car'] | null = null

/**
 * One situation: speed (m/s), wheel spin over ground spin, yaw rate (rad per substep),
 * longitudinal acceleration (m/s²), inputs, and the engine speed as a fraction of the limiter
 * (0: idle) with the gear engaged.
 */
interface Scene { v: number, spin: number, yaw: number, ax: number, steer: number, throttle: number, brake: number, handbrake: number, clutch: number, gear: number, engine: number, engaged: number }
const S = (v: number, spin: number, yaw: number, ax: number, steer: number, throttle: number, brake: number, handbrake: number, gear: number, engine = 0, engaged = 0, clutch = 0): Scene =>
  ({ v, spin, yaw, ax, steer, throttle, brake, handbrake, clutch, gear, engine, engaged })
// (fractional numbers throughout: an operation that has only seen integers is compiled for
// integers and thrown away at its first fraction)
const SCENES: Scene[] = [
  S(20.3, 1.01, 0, 0.2, 0.11, 0.33, 0, 0, 1), // cruising
  S(0.53, 1.02, 0, 0.1, 0.01, 0.97, 0, 0, 1), // launch: wheelspin, traction control
  S(2.1, 1.01, 0, 0.3, 0.01, 0.97, 0, 0, 1, 0.81, 1), // clutch dump: traction control cuts
  S(4.2, 1.01, 0, -0.3, 0.01, 0, 0, 0, 1, 0.27, 1), // engine braking
  S(4.2, 0.83, 0, -0.3, 0.01, 0, 0, 0, 1, 0.27, 1), // the same on a slowed wheel
  S(3.1, 1.01, 0, 0.1, 0.01, 0.21, 0, 0, 1, 0.21, 3), // a downshift
  S(30.2, 1.01, 0, 0.1, 0.01, 0.97, 0, 0, 1, 0.93, 2), // an upshift, then past the limiter
  S(16.3, 1.01, 0, 0.1, 0.01, 0.97, 0, 0, 1, 0.41, 4), // a kick-down
  S(5.1, 40.3, 0, 0.1, 0.01, 0.97, 0, 0, 1), // deep wheelspin
  S(25.3, 1.01, 0.002, -0.5, 0.31, 0, 0.97, 0, 1, 0.52, 3), // hard braking in a bend: ABS or locking
  S(20.3, 1.01, 0.003, -0.2, 0.97, 0, 0, 0.97, 1, 0.41, 2), // handbrake turn
  S(-5.1, 1.01, 0, -0.1, -0.51, 0.53, 0, 0, -1), // reversing
  S(-5.1, 1.01, 0, 0.1, 0.51, 0, 0.97, 0, 1), // braking while rolling back
  S(2.1, 1.01, 0, 0.1, 0.31, 0.21, 0, 0, 1), // slow: kinematic blending
  S(0.53, 1.01, 0, -0.1, 0.51, 0, 0.97, 0, 0), // crawl to a halt, neutral
  S(0.002, 0, 0, 0.01, 0.01, 0, 0, 0.97, 1), // parked
  S(0.002, 0, 0, 0.01, 0.01, 0, 0.97, 0, 1), // held on the brakes
  S(10.3, 1.01, 0.051, 0.1, 0.01, 0.53, 0, 0, 1), // spinning (the heading recomputed)
  S(15.3, 1.01, 0.001, 100.3, 0.01, 0, 0, 0, 1), // an unloaded axle
  S(8.1, 1.01, 0, 0.1, 0.01, 0.53, 0, 0, 2, 0.31, 1, 0.97), // a manual shift, clutch down
]

/** Puts the private car `eid` into scene `s` (mirrored by `side`) at substep rate `hz` under `gravity`. */
function place(C: NonNullable<typeof store>, d: ResolvedCar, eid: number, s: Scene, side: number, hz: number, gravity: number): void {
  const ws = C.wheelSpeed
  step.h = 1 / hz
  step.gravity = gravity
  C.x[eid] = 0.1; C.y[eid] = 0.1; C.heading[eid] = 0.1
  C.vx[eid] = s.v; C.vy[eid] = side * 0.011; C.yawRate[eid] = side * s.yaw * hz; C.ax[eid] = s.ax; C.steerAngle[eid] = 0
  C.heave[eid] = 0.001; C.heaveRate[eid] = 0.001; C.roll[eid] = side * 0.001; C.rollRate[eid] = side * 0.001; C.pitch[eid] = 0.001; C.pitchRate[eid] = 0.001
  C.engineSpeed[eid] = s.engine > 0 ? s.engine * d.maxW : d.idleW; C.gearActual[eid] = s.engaged; C.shiftTimer[eid] = 0
  C.steer[eid] = side * s.steer; C.throttle[eid] = s.throttle; C.brake[eid] = s.brake; C.handbrake[eid] = s.handbrake
  C.clutch[eid] = s.clutch; C.gear[eid] = s.gear
  ws.fill((s.v * s.spin) / d.R, 0, 4)
}

/** Runs a private car of definition `d` (gravity m/s²) through SCENES at both levels, once per flag combination. */
export function warmModels(d: ResolvedCar, gravity: number): void {
  const key = `${d.fourWheel} ${d.abs} ${d.tcs} ${d.lsd} ${d.automatic} ${d.axleShare[0] !== 0} ${d.axleShare[2] !== 0}`
  if (warmed.has(key)) return
  warmed.add(key)
  if (store === null) store = createCarComponents().Car
  const C = store
  const eid = 0
  for (let k = 0; k < 2 * SCENES.length; k++) {
    // each scene, then its mirror image (turning the other way)
    const s = SCENES[k >> 1]
    const side = k & 1 ? -1 : 1
    for (let model = d.fourWheel ? 0 : 1; model < 2; model++) {
      place(C, d, eid, s, side, model === 0 ? d.hz : 240, gravity)
      if (model === 0) for (let i = 0; i < 8; i++) fourWheelSubstep(C, d, eid, null, step)
      // 5 substeps at 240 Hz: the driveline is prepared for 4 (1/60 s), then for the remainder of 1
      else for (let i = 0; i < 2; i++) singleTrackSubsteps(C, d, eid, null, step, 5)
    }
  }
  // then every scene again on a slope (every second one with a wheel or an axle in the air)
  for (let k = 0; k < 2 * SCENES.length; k++) {
    const s = SCENES[k >> 1]
    const side = k & 1 ? -1 : 1
    const off = (k >> 1) % 2
    slope(ground, d, off)
    axles.gx = 0.97; axles.gy = -0.1 * side; axles.onF = 0.99; axles.onR = off ? 0 : 0.99
    for (let model = d.fourWheel ? 0 : 1; model < 2; model++) {
      place(C, d, eid, s, side, model === 0 ? d.hz : 240, gravity)
      if (model === 0) for (let i = 0; i < 8; i++) fourWheelSubstep(C, d, eid, null, step, ground)
      else for (let i = 0; i < 2; i++) { axles.cp = Math.cos(C.heading[eid]); axles.sp = Math.sin(C.heading[eid]); singleTrackSubsteps(C, d, eid, null, step, 5, axles) }
    }
  }
  // and the ground queries with them, over a private world
  warmGround(C, d, eid, step, gravity)
}
