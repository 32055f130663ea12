/**
 * Levels of detail of one car: the level tags, and the state transfer between the four-wheel and
 * single-track models. Planar state (position, heading, velocity, yaw rate), steering angle,
 * engine, gear, shift timer, clock and accumulator are shared fields and carry across untouched;
 * wheel speeds are averaged per axle going down and spread per wheel by each wheel's own ground
 * speed going up; the sprung mass starts level at ride height going up.
 */
import { addComponent, hasComponent, removeComponent, type World } from 'bitecs'
import type { Components } from '../../components/index'
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'

/** Level names by Car.level code. */
export const LEVELS = ['full', 'singleTrack', 'frozen', 'path'] as const
/** Car.level code of the frozen level. */
export const FROZEN_LEVEL = 2
/** Car.level code of the path level. */
export const PATH_LEVEL = 3

/** The path level's part in a level change (the driver domain provides it). */
export interface PathLevelHooks {
  /** Throws, naming the car, unless car `eid` may take the path level. */
  check(eid: number): void
  /** Puts car `eid` on its line (called before it is tagged 'path'). */
  enter(eid: number): void
  /** Gives car `eid` the state its new model needs (called before it leaves 'path'). */
  leave(eid: number): void
}
/** A level of detail. */
export type Level = (typeof LEVELS)[number]
/** Model names by Car.model code. */
export const MODELS = ['fourWheel', 'singleTrack'] as const
/** A vehicle model. */
export type Model = (typeof MODELS)[number]

/** Default single-track rate, Hz. */
export const SINGLE_TRACK_HZ = 500
/** Allowed substep rates, Hz. */
export const HZ_MIN = 60
/** Allowed substep rates, Hz. */
export const HZ_MAX = 20000

/** The tag component of level `level` (0 full … 3 path). */
function levelTag(comps: Components, level: number): object {
  return level === 0 ? comps.LodFull : level === 1 ? comps.LodSingleTrack : level === 2 ? comps.LodFrozen : comps.LodPath
}

/**
 * Sets car `eid`'s level tag (exactly one of the four). Only a tag the car has is removed: bitecs'
 * removeComponent allocates even for an absent one, and a LOD switch must stay within the
 * test/perf/perf.test.ts "race frames" bound.
 */
export function tagLevel(world: World, comps: Components, eid: number, level: number): void {
  for (let i = 0; i < 4; i++) {
    const tag = levelTag(comps, i)
    if (i !== level && hasComponent(world, eid, tag)) removeComponent(world, eid, tag)
  }
  addComponent(world, eid, levelTag(comps, level))
  comps.Car.level[eid] = level
}

/**
 * Rebuilds car `eid` as model `model` (0 four-wheel, 1 single-track) at rate `hz`, carrying its
 * state. `flat`: on the level ground plane alone the body starts level at ride height; elsewhere
 * it keeps its height, vertical speed and pose against the world (calmBody), so a switch on a
 * slope carries the car's height across.
 */
export function transferModel(C: CarStore, d: ResolvedCar, eid: number, model: number, hz: number, flat = true): void {
  const settle = flat ? levelBody : calmBody
  const from = C.model[eid]
  const ws = C.wheelSpeed
  const o = eid * 4
  if (from === 0 && model === 1) {
    const f = 0.5 * (ws[o] + ws[o + 1])
    const r = 0.5 * (ws[o + 2] + ws[o + 3])
    ws[o] = ws[o + 1] = f
    ws[o + 2] = ws[o + 3] = r
    settle(C, eid)
  } else if (from === 1 && model === 0) {
    spreadWheels(C, d, eid)
    settle(C, eid)
  }
  C.model[eid] = model
  if (C.hz[eid] !== hz) {
    // the accumulator holds a fraction of a substep: keep the same time in the new unit
    C.acc[eid] = (C.acc[eid] / C.hz[eid]) * hz
    C.hz[eid] = hz
  }
}

/** Puts the sprung mass level at ride height, at rest. */
export function levelBody(C: CarStore, eid: number): void {
  C.heave[eid] = 0; C.heaveRate[eid] = 0
  C.roll[eid] = 0; C.rollRate[eid] = 0
  C.pitch[eid] = 0; C.pitchRate[eid] = 0
}

/** Stops the sprung mass's roll and pitch rates, keeping its height, vertical speed and pose. */
export function calmBody(C: CarStore, eid: number): void {
  C.rollRate[eid] = 0
  C.pitchRate[eid] = 0
}

// Each wheel of an axle gets the axle's speed scaled by its own ground speed over the axle
// centre's, so slip ratios (and so tyre forces) stay what the single-track axle had.
function spreadWheels(C: CarStore, d: ResolvedCar, eid: number): void {
  const ws = C.wheelSpeed
  const o = eid * 4
  const vx = C.vx[eid], vy = C.vy[eid], r = C.yawRate[eid]
  const delta = C.steerAngle[eid]
  const c = Math.cos(delta), s = Math.sin(delta)
  const uf = vx * c + (vy + r * d.a) * s
  const ur = vx
  const wf = ws[o]
  const wr = ws[o + 2]
  const hf = 0.5 * d.tf
  const hr = 0.5 * d.tr
  if (Math.abs(uf) > 0.5) {
    ws[o] = (wf * ((vx - r * hf) * c + (vy + r * d.a) * s)) / uf
    ws[o + 1] = (wf * ((vx + r * hf) * c + (vy + r * d.a) * s)) / uf
  }
  if (Math.abs(ur) > 0.5) {
    ws[o + 2] = (wr * (vx - r * hr)) / ur
    ws[o + 3] = (wr * (vx + r * hr)) / ur
  }
}
