/** step-vehicles (phase 'vehicle'): each running car takes the substeps its own accumulator owes at its own rate. */
import { commitRemovals, type World } from 'bitecs'
import type { System } from './schedule'
import type { SimClock } from '../src/clock'
import { createSubstep } from '../src/vehicle/substep'
import { FROZEN_LEVEL } from '../src/vehicle/level'
import type { VehicleState } from '../src/vehicle/install'
import { createGroundContact, FLAT_HEAVE, levelGround, prepareGround } from '../src/vehicle/ground-contact'
import { fourWheelSubstep } from '../src/vehicle/four-wheel'
import { singleTrackSubsteps } from '../src/vehicle/single-track'
import { stepOnGround } from '../src/vehicle/step-on-ground'

const step = createSubstep()
const ground = createGroundContact()

// substeps within this fraction of a whole one are taken now (dt·hz rounding), the rest carried
const EPS = 1e-6
/** Longest host step a car simulates, s: a longer dt is cut to this for the cars (bounded work). */
export const MAX_HOST_STEP = 10

/**
 * The system over the vehicle domain `vs` and the sim `clock`: steps every car that is not frozen
 * by the host dt, four-wheel or single-track per its model.
 */
export function stepVehicles(vs: VehicleState, clock: SimClock): System {
  return function stepCars(world: World): World {
    const dt = clock.dt
    const C = vs.Car
    const defs = vs.defs
    const surfaces = vs.surfaces
    const g = vs.gravity
    const cs = vs.collision
    const span = dt < MAX_HOST_STEP ? dt : MAX_HOST_STEP
    commitRemovals(world)
    ground.groundZ = vs.groundZ
    ground.span = span
    levelGround(cs, ground)
    const plainWorld = cs.groundBodies === 0 && ground.levelOnly
    const groupOfGround = plainWorld ? cs.Collider.group[cs.ground] : 0
    const masks = C.groundMask, heaves = C.heave, heaveRates = C.heaveRate, pitches = C.pitch, rolls = C.roll
    // the store's arrays are only replaced when it grows (an add), which no model does: hoisted
    const hzs = C.hz, accs = C.acc, times = C.time, models = C.model, levels = C.level, vxs = C.vx, vys = C.vy, speeds = C.speed
    const cars = vs.stepped.dense
    for (let k = 0; k < cars.length; k++) {
      const eid = cars[k]
      const d = defs[eid]
      if (d === undefined || levels[eid] >= FROZEN_LEVEL) continue // frozen and path cars have no model to step
      const hz = hzs[eid]
      const h = 1 / hz
      step.h = h
      step.gravity = g
      let acc = accs[eid] + span * hz
      let t = times[eid]
      let n = 0
      while (acc >= 1 - EPS) { n++; acc -= 1; t += h }
      // a world of the level ground plane alone (the common case) decided here, without a call
      if (plainWorld && (groupOfGround & masks[eid]) !== 0 && (models[eid] === 0 ? heaves[eid] < FLAT_HEAVE : heaves[eid] === 0 && heaveRates[eid] === 0 && pitches[eid] === 0 && rolls[eid] === 0)) {
        if (models[eid] === 0) for (let i = 0; i < n; i++) fourWheelSubstep(C, d, eid, surfaces, step)
        else if (n > 0) singleTrackSubsteps(C, d, eid, surfaces, step, n)
      } else {
        prepareGround(cs, C, d, eid, ground)
        stepOnGround(cs, C, d, eid, ground, surfaces, step, n)
      }
      accs[eid] = acc
      times[eid] = t
      const vx = vxs[eid]
      const vy = vys[eid]
      const v = Math.sqrt(vx * vx + vy * vy)
      speeds[eid] = (vx < 0 ? -1 : 1) * v
    }
    return world
  }
}
