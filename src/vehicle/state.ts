/** carState: a car's observable state as a plain object. */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import { LEVELS, MODELS, type Level, type Model } from './level'

/** A car's state, as sim.carState returns it. */
export interface CarState {
  /** Centre of mass, world [x, y, z]. */
  position: [number, number, number]
  /** Heading, rad from +x towards +y (not wrapped: it counts whole turns). */
  heading: number
  /** Body roll against the world, rad (+ = left side up; single-track and path: the ground's cross slope). */
  roll: number
  /** Body pitch against the world, rad (+ = nose down; single-track and path: the ground's slope between the axles). */
  pitch: number
  /** Velocity of the centre of mass, world frame, m/s ([2]: vertical). */
  velocity: [number, number, number]
  /** Ground speed, m/s, negative when moving backwards. */
  speed: number
  /** Yaw rate, rad/s (+ = turning left). */
  yawRate: number
  /** Which wheels carried load in the last substep, FL, FR, RL, RR (single-track and path: their axles as pairs). */
  grounded: [boolean, boolean, boolean, boolean]
  /** Wheel spin rates FL, FR, RL, RR, rad/s. */
  wheelSpeeds: [number, number, number, number]
  /** Road-wheel steering angle at the centre of the front axle, rad (+ = left; each front wheel adds the definition's Ackermann). */
  steerAngle: number
  /** Suspension compression of each corner FL, FR, RL, RR from its static ride position, m (+ = compressed, − = extended). */
  suspension: [number, number, number, number]
  /** Engine speed, rpm. */
  engineRpm: number
  /** The gear engaged: -1 reverse, 0 neutral, >= 1. */
  gear: number
  /** Clutch engagement, 0 open .. 1 closed (pedal, launch aid and shifts combined). */
  clutch: number
  /** The car's own clock, s (simulated time it has been stepped). */
  time: number
  /** The model it runs. */
  model: Model
  /** Its level of detail. */
  level: Level
}

/** A new CarState filled with zeros (carState's out-parameter before its first use). */
export function emptyCarState(): CarState {
  return {
    position: [0, 0, 0], heading: 0, roll: 0, pitch: 0, velocity: [0, 0, 0], speed: 0, yawRate: 0, grounded: [false, false, false, false], wheelSpeeds: [0, 0, 0, 0],
    steerAngle: 0, suspension: [0, 0, 0, 0], engineRpm: 0, gear: 0, clutch: 0, time: 0, model: MODELS[0], level: LEVELS[0],
  }
}

/** True when `v` has the arrays of a CarState, so carState can fill it in place. */
export function isCarState(v: unknown): v is CarState {
  if (v === null || typeof v !== 'object') return false
  const s = v as Record<string, unknown>
  return listOf(s.position, 3) && listOf(s.velocity, 3) && listOf(s.grounded, 4) && listOf(s.wheelSpeeds, 4) && listOf(s.suspension, 4)
}

function listOf(a: unknown, n: number): boolean {
  return Array.isArray(a) && a.length === n
}

/** Builds the CarState of car `eid` into `out` (every field written, arrays filled in place; no allocation) and returns it. */
export function carState(C: CarStore, d: ResolvedCar, eid: number, groundZ: number, out: CarState = emptyCarState()): CarState {
  const vx = C.vx[eid]
  const vy = C.vy[eid]
  const c = Math.cos(C.heading[eid])
  const s = Math.sin(C.heading[eid])
  const o = eid * 4
  const w = C.wheelSpeed
  const g = C.grounded
  const gear = C.gearActual[eid]
  let engage = (C.engineSpeed[eid] - d.idleW) / (d.engageW - d.idleW)
  engage = engage < 0 ? 0 : engage > 1 ? 1 : engage
  const clutch = gear === 0 || C.shiftTimer[eid] > 0 ? 0 : engage * (1 - C.clutch[eid])
  const pos = out.position, vel = out.velocity, ws = out.wheelSpeeds, susp = out.suspension
  pos[0] = C.x[eid]; pos[1] = C.y[eid]; pos[2] = groundZ + d.h + C.heave[eid]
  out.heading = C.heading[eid]
  out.roll = C.roll[eid]
  out.pitch = C.pitch[eid]
  vel[0] = vx * c - vy * s; vel[1] = vx * s + vy * c; vel[2] = C.heaveRate[eid]
  out.speed = C.speed[eid]
  out.yawRate = C.yawRate[eid]
  ws[0] = w[o]; ws[1] = w[o + 1]; ws[2] = w[o + 2]; ws[3] = w[o + 3]
  const gr = out.grounded
  gr[0] = g[o] === 1; gr[1] = g[o + 1] === 1; gr[2] = g[o + 2] === 1; gr[3] = g[o + 3] === 1
  out.steerAngle = C.steerAngle[eid]
  // each corner's rise over its static height on the flat ground is heave + y·roll − x·pitch (on
  // terrain the vehicle domain overwrites these from the wheels' rays)
  const heave = C.heave[eid], roll = C.roll[eid], pitch = C.pitch[eid]
  const yF = 0.5 * d.tf, yR = 0.5 * d.tr
  susp[0] = -(heave + yF * roll - d.a * pitch); susp[1] = -(heave - yF * roll - d.a * pitch)
  susp[2] = -(heave + yR * roll + d.b * pitch); susp[3] = -(heave - yR * roll + d.b * pitch)
  out.engineRpm = (C.engineSpeed[eid] * 30) / Math.PI
  out.gear = gear
  out.clutch = clutch
  out.time = C.time[eid]
  out.model = MODELS[C.model[eid]]
  out.level = LEVELS[C.level[eid]]
  return out
}
