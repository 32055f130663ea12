/**
 * Type-feedback warm-up of the single-track model. V8 optimises singleTrackSubsteps once it is hot,
 * and a branch it has never run (the first brake with ABS, the first slide, traction control's
 * first cut, a crawl below DYNAMIC_ABOVE, rolling backwards) deoptimises it when first taken; it is
 * then re-optimised. Each re-optimisation is a chance for V8 to install an on-stack-replacement copy
 * of the substep loop just as the new code deoptimises, after which every call enters through
 * baseline code and allocates (~5 kB per car per host step) for thousands of steps. So, the first
 * time a flag combination of definition (ABS, TCS, driven axles) goes single-track, its car runs a
 * few substeps through each such branch while the function is still unoptimised, and its state is
 * put back bit for bit: no result changes, and the optimised code has seen every branch.
 * Cost: ~5 ms of unoptimised substeps, once per combination per process (first addCar or setLod).
 * The four-wheel model is not warmed this way: tried, the scenes' call counts (many without clutch
 * torque) got stepDriveline and prepareDriveline optimised early with tcsTorque and
 * engineSpeedAfter left uninlined, boxing their doubles (47 kB a host step in full20, every run).
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { SurfaceMap } from './surfaces'
import { singleTrackSubsteps } from './single-track'
import { substep } from './substep'

const warmed = new Set<string>()

// the fields singleTrackSubsteps and prepareDriveline read or write, saved and put back
const SCALARS = ['x', 'y', 'heading', 'vx', 'vy', 'yawRate', 'ax', 'steerAngle', 'engineSpeed', 'gearActual', 'shiftTimer', 'steer', 'throttle', 'brake', 'handbrake', 'clutch', 'gear'] as const
const saved = new Float64Array(SCALARS.length + 4)

/**
 * One situation: speed (m/s), wheel spin over ground spin, yaw rate (per unit of the substep rate),
 * longitudinal acceleration (m/s²), inputs, and the engine speed as a fraction of the limiter
 * (0: idle) with the gear engaged (traction control acts only on a clutch carrying torque).
 */
interface Scene { v: number, spin: number, yaw: number, ax: number, steer: number, throttle: number, brake: number, handbrake: number, gear: number, engine?: number, engaged?: number }
const SCENES: Scene[] = [
  { v: 20, spin: 1, yaw: 0, ax: 0, steer: 0.1, throttle: 0.3, brake: 0, handbrake: 0, gear: 1 }, // cruising
  { v: 0.5, spin: 1, yaw: 0, ax: 0, steer: 0, throttle: 1, brake: 0, handbrake: 0, gear: 1 }, // launch: wheelspin, TCS
  { v: 2, spin: 1, yaw: 0, ax: 0, steer: 0, throttle: 1, brake: 0, handbrake: 0, gear: 1, engine: 0.8, engaged: 1 }, // clutch dump: TCS cuts
  { v: 4, spin: 1, yaw: 0, ax: 0, steer: 0, throttle: 0, brake: 0, handbrake: 0, gear: 1, engine: 0.25, engaged: 1 }, // engine braking: TCS lets the wheel turn
  { v: 4, spin: 0.8, yaw: 0, ax: 0, steer: 0, throttle: 0, brake: 0, handbrake: 0, gear: 1, engine: 0.25, engaged: 1 }, // the same on a slowed wheel
  { v: 3, spin: 1, yaw: 0, ax: 0, steer: 0, throttle: 0.2, brake: 0, handbrake: 0, gear: 1, engine: 0.2, engaged: 3 }, // a downshift
  { v: 5, spin: 40, yaw: 0, ax: 0, steer: 0, throttle: 1, brake: 0, handbrake: 0, gear: 1 }, // deep wheelspin
  { v: 25, spin: 1, yaw: 0, ax: 0, steer: 0.3, throttle: 0, brake: 1, handbrake: 0, gear: 1 }, // hard braking: ABS or locking
  { v: 20, spin: 1, yaw: 0, ax: 0, steer: 1, throttle: 0, brake: 0, handbrake: 1, gear: 1 }, // handbrake turn
  { v: -5, spin: 1, yaw: 0, ax: 0, steer: -0.5, throttle: 0.5, brake: 0, handbrake: 0, gear: -1 }, // reversing
  { v: -5, spin: 1, yaw: 0, ax: 0, steer: 0.5, throttle: 0, brake: 1, handbrake: 0, gear: 1 }, // braking while rolling back
  { v: 2, spin: 1, yaw: 0, ax: 0, steer: 0.3, throttle: 0.2, brake: 0, handbrake: 0, gear: 1 }, // slow: kinematic blending
  { v: 0.5, spin: 1, yaw: 0, ax: 0, steer: 0.5, throttle: 0, brake: 1, handbrake: 0, gear: 0 }, // crawl to a halt, neutral
  { v: 0, spin: 0, yaw: 0, ax: 0, steer: 0, throttle: 0, brake: 0, handbrake: 1, gear: 1 }, // parked
  { v: 10, spin: 1, yaw: 0.05, ax: 0, steer: 0, throttle: 0.5, brake: 0, handbrake: 0, gear: 1 }, // spinning (heading recomputed)
  { v: 15, spin: 1, yaw: 0, ax: 100, steer: 0, throttle: 0, brake: 0, handbrake: 0, gear: 1 }, // an unloaded axle
]

/** Runs car `eid` (single-track at C.hz, definition `d`, the sim's surfaces and gravity, m/s²) through SCENES once per flag combination, then restores it exactly. */
export function warmSingleTrack(C: CarStore, d: ResolvedCar, eid: number, surfaces: SurfaceMap | null, gravity: number): void {
  const key = `${d.abs} ${d.tcs} ${d.axleShare[0] !== 0} ${d.axleShare[2] !== 0} ${surfaces !== null}`
  if (warmed.has(key)) return
  warmed.add(key)
  const ws = C.wheelSpeed
  const w0 = eid * 4
  for (let i = 0; i < SCALARS.length; i++) saved[i] = C[SCALARS[i]][eid]
  for (let i = 0; i < 4; i++) saved[SCALARS.length + i] = ws[w0 + i]
  const h0 = substep[0]
  const g0 = substep[1]
  const hz = C.hz[eid]
  substep[0] = 1 / hz
  substep[1] = gravity
  for (let round = 0; round < 2; round++) {
    for (const s of SCENES) {
      C.x[eid] = 0; C.y[eid] = 0; C.heading[eid] = 0
      C.vx[eid] = s.v; C.vy[eid] = 0; C.yawRate[eid] = s.yaw * hz; C.ax[eid] = s.ax; C.steerAngle[eid] = 0
      C.engineSpeed[eid] = s.engine ? s.engine * d.maxW : d.idleW; C.gearActual[eid] = s.engaged ?? 0; C.shiftTimer[eid] = 0
      C.steer[eid] = s.steer; C.throttle[eid] = s.throttle; C.brake[eid] = s.brake; C.handbrake[eid] = s.handbrake
      C.clutch[eid] = 0; C.gear[eid] = s.gear
      ws.fill((s.v * s.spin) / d.R, w0, w0 + 4)
      for (let k = 0; k < 3; k++) singleTrackSubsteps(C, d, eid, surfaces, 4)
    }
  }
  for (let i = 0; i < SCALARS.length; i++) C[SCALARS[i]][eid] = saved[i]
  for (let i = 0; i < 4; i++) ws[w0 + i] = saved[SCALARS.length + i]
  substep[0] = h0
  substep[1] = g0
}
