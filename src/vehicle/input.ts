/** The car input record: validation and clamping for setInput, and getInput. */
import type { CarStore } from '../../components/car'
import { describe } from '../validate'
import type { ResolvedCar } from './definition'

/** A car's input record: steer [-1, 1] (+ left), throttle, brake, handbrake and clutch [0, 1], gear (-1, 0, ≥ 1). */
export interface CarInput {
  /** Steering, [-1, 1], + = left (clamped). */
  steer: number
  /** Throttle pedal, [0, 1] (clamped). */
  throttle: number
  /** Brake pedal, [0, 1] (clamped). */
  brake: number
  /** Handbrake (rear axle), [0, 1] (clamped). */
  handbrake: number
  /** Clutch pedal, [0, 1], 1 = pedal down (disengaged) (clamped). */
  clutch: number
  /** Gear: -1 reverse, 0 neutral, >= 1 a forward gear (automatic: drive); an integer, clamped to [-1, gears]. */
  gear: number
}

const RANGES: Record<keyof CarInput, [number, number]> = {
  steer: [-1, 1], throttle: [0, 1], brake: [0, 1], handbrake: [0, 1], clutch: [0, 1], gear: [-1, 0],
}
const KEYS = Object.keys(RANGES) as (keyof CarInput)[]

const pending = new Float64Array(6)
const present = new Uint8Array(6)

/**
 * Validates every field of `input` first (TypeError for a non-number, RangeError for a non-finite
 * value or a non-integer gear, naming the field), then writes the clamped values into car `eid`.
 */
export function setCarInput(C: CarStore, d: ResolvedCar, eid: number, input: unknown): void {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new TypeError(`input must be an object like { steer, throttle, brake, handbrake, clutch, gear }, got ${describe(input)}`)
  const o = input as Record<string, unknown>
  for (const k of Object.keys(o)) {
    if (!(k in RANGES) || k === '__proto__') throw new RangeError(`input.${k} is not an input field (${KEYS.join(', ')})`)
  }
  for (let i = 0; i < KEYS.length; i++) {
    const k = KEYS[i]
    present[i] = 0
    if (!Object.prototype.hasOwnProperty.call(o, k) || o[k] === undefined) continue
    const v = o[k]
    if (typeof v !== 'number') throw new TypeError(`input.${k} must be a number, got ${describe(v)}`)
    if (!Number.isFinite(v)) throw new RangeError(`input.${k} must be finite, got ${v}`)
    if (k === 'gear' && !Number.isInteger(v)) throw new RangeError(`input.gear must be an integer, got ${v}`)
    const [lo, hi0] = RANGES[k]
    const hi = k === 'gear' ? d.gears : hi0
    pending[i] = v < lo ? lo : v > hi ? hi : v
    present[i] = 1
  }
  if (present[0]) C.steer[eid] = pending[0]
  if (present[1]) C.throttle[eid] = pending[1]
  if (present[2]) C.brake[eid] = pending[2]
  if (present[3]) C.handbrake[eid] = pending[3]
  if (present[4]) C.clutch[eid] = pending[4]
  if (present[5]) C.gear[eid] = pending[5]
}

/** The input record of car `eid` as a new plain object. */
export function getCarInput(C: CarStore, eid: number): CarInput {
  return { steer: C.steer[eid], throttle: C.throttle[eid], brake: C.brake[eid], handbrake: C.handbrake[eid], clutch: C.clutch[eid], gear: C.gear[eid] }
}

/** Clears car `eid`'s input: neutral, no pedals, straight ahead. */
export function clearCarInput(C: CarStore, eid: number): void {
  C.steer[eid] = 0; C.throttle[eid] = 0; C.brake[eid] = 0; C.handbrake[eid] = 0; C.clutch[eid] = 0; C.gear[eid] = 0
}
