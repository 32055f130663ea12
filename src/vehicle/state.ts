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

/** Builds the CarState of car `eid`. */
export function carState(C: CarStore, d: ResolvedCar, eid: number, groundZ: number): CarState {
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
  return {
    position: [C.x[eid], C.y[eid], groundZ + d.h + C.heave[eid]],
    heading: C.heading[eid],
    roll: C.roll[eid],
    pitch: C.pitch[eid],
    velocity: [vx * c - vy * s, vx * s + vy * c, C.heaveRate[eid]],
    speed: C.speed[eid],
    yawRate: C.yawRate[eid],
    grounded: [g[o] === 1, g[o + 1] === 1, g[o + 2] === 1, g[o + 3] === 1],
    wheelSpeeds: [w[o], w[o + 1], w[o + 2], w[o + 3]],
    engineRpm: (C.engineSpeed[eid] * 30) / Math.PI,
    gear,
    clutch,
    time: C.time[eid],
    model: MODELS[C.model[eid]],
    level: LEVELS[C.level[eid]],
  }
}
