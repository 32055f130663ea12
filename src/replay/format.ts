/** The replay data format: a car's input record, the JSON-safe replay layout, and its validating loader. */
import type { CarStore } from '../../components/car'
import { describe } from '../validate'
import { decodeF64, decodeI32 } from './codec'
import { canonicalJson, hash53 } from './checksum'
import { checkWorldSnapshot, type WorldSnapshot } from './world-snapshot'

/** The `format` tag of replay data. */
export const REPLAY_FORMAT = 'pitlane-replay'
/** The replay format version this build writes and reads. */
export const REPLAY_VERSION = 1
/** Fields of a car's input record, in record order. */
export const RECORD_FIELD_NAMES = ['steer', 'throttle', 'brake', 'handbrake', 'clutch', 'gear', 'level', 'hz'] as const
/** Numbers per input record. */
export const RECORD_FIELDS = RECORD_FIELD_NAMES.length
/** Field index of the gear in a record. */
export const FIELD_GEAR = 5
/** Field index of the LOD level code in a record. */
export const FIELD_LEVEL = 6
/** Field index of the LOD substep rate in a record. */
export const FIELD_HZ = 7

/** Loader limits: anything larger is refused as oversized. */
export const REPLAY_LIMITS = { steps: 1 << 26, cars: 1 << 16, keyframes: 1 << 16, events: 1 << 27 }

/** Replay data as saved by a recorder: JSON-safe; typed arrays are base64 (exact bits). */
export interface ReplayData {
  format: typeof REPLAY_FORMAT
  version: number
  /** The sim's step counter when recording started. */
  startStep: number
  /** Steps recorded. */
  steps: number
  /** The recorded cars' entity ids, in query order; events refer to them by index. */
  cars: number[]
  /** Host dt of every step (base64 Float64Array, `steps` numbers). */
  dt: string
  /** Whole-world snapshots at the start of some steps, ascending, the first at step 0. */
  keyframes: { step: number; world: WorldSnapshot }[]
  /** Record changes applied before a step: parallel base64 arrays of `count` entries, by step. */
  events: { count: number; step: string; car: string; field: string; value: string }
  /** hash53 of the canonical JSON of everything above (see replayChecksum): catches edits and corruption. */
  checksum: number
}

/** The checksum of replay data: hash53 of the canonical JSON of every field but `checksum`. */
export function replayChecksum(data: object): number {
  const copy: Record<string, unknown> = {}
  for (const k of Object.keys(data)) if (k !== 'checksum') copy[k] = (data as Record<string, unknown>)[k]
  return hash53(canonicalJson(copy))
}

/** A loaded, validated replay with decoded arrays. */
export interface Replay {
  startStep: number
  steps: number
  cars: Int32Array
  dt: Float64Array
  keyframes: { step: number; world: WorldSnapshot }[]
  evStep: Int32Array
  evCar: Int32Array
  evField: Int32Array
  evValue: Float64Array
  /** Index of the first event of each step (steps + 1 entries). */
  evStart: Int32Array
}

/** Writes car's current input record into out[base .. base + RECORD_FIELDS). */
export function readRecord(Car: CarStore, car: number, out: Float64Array, base: number): void {
  out[base] = Car.steer[car]
  out[base + 1] = Car.throttle[car]
  out[base + 2] = Car.brake[car]
  out[base + 3] = Car.handbrake[car]
  out[base + 4] = Car.clutch[car]
  out[base + 5] = Car.gear[car]
  out[base + 6] = Car.level[car]
  out[base + 7] = Car.hz[car]
}

function count(v: unknown, max: number, name: string, min = 0): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`)
  if (v > max) throw new RangeError(`${name} is oversized: ${v} > ${max}`)
  return v
}

function own(o: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined
}

function checkValue(field: number, v: number, name: string): void {
  if (field === FIELD_LEVEL) {
    if (v !== 0 && v !== 1 && v !== 2 && v !== 3) throw new RangeError(`${name} must be a level code 0, 1, 2 or 3, got ${v}`)
  } else if (field === FIELD_GEAR) {
    if (!Number.isInteger(v) || v < -1 || v > 64) throw new RangeError(`${name} must be a gear (integer >= -1), got ${v}`)
  } else if (!Number.isFinite(v)) throw new RangeError(`${name} must be finite, got ${v}`)
}

/** Validates replay data (from JSON or a recorder) and decodes it; refuses truncated, mutated or oversized data. */
export function loadReplay(data: unknown): Replay {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new TypeError(`replay must be an object, got ${describe(data)}`)
  const d = data as object
  if (own(d, 'format') !== REPLAY_FORMAT) throw new TypeError(`replay.format must be '${REPLAY_FORMAT}', got ${describe(own(d, 'format'))}`)
  if (own(d, 'version') !== REPLAY_VERSION) throw new RangeError(`replay.version ${describe(own(d, 'version'))} is not supported (this build reads ${REPLAY_VERSION})`)
  const startStep = count(own(d, 'startStep'), Number.MAX_SAFE_INTEGER, 'replay.startStep')
  const steps = count(own(d, 'steps'), REPLAY_LIMITS.steps, 'replay.steps')
  const carsRaw = own(d, 'cars')
  if (!Array.isArray(carsRaw)) throw new TypeError(`replay.cars must be an array of entity ids, got ${describe(carsRaw)}`)
  if (carsRaw.length > REPLAY_LIMITS.cars) throw new RangeError(`replay.cars is oversized: ${carsRaw.length} > ${REPLAY_LIMITS.cars}`)
  const kfRaw = own(d, 'keyframes')
  if (!Array.isArray(kfRaw)) throw new TypeError(`replay.keyframes must be an array, got ${describe(kfRaw)}`)
  if (kfRaw.length > REPLAY_LIMITS.keyframes) throw new RangeError(`replay.keyframes is oversized: ${kfRaw.length} > ${REPLAY_LIMITS.keyframes}`)
  // Sizes are checked first, so an oversized replay is refused before it is hashed.
  const sum = own(d, 'checksum')
  if (typeof sum !== 'number') throw new TypeError(`replay.checksum must be a number, got ${describe(sum)}`)
  if (sum !== replayChecksum(d)) throw new RangeError('replay.checksum does not match its content: the replay was truncated, edited or corrupted')
  const cars = new Int32Array(carsRaw.length)
  const seen = new Set<number>() // membership only, never iterated
  for (let i = 0; i < carsRaw.length; i++) {
    cars[i] = count(carsRaw[i], 0x7fffffff, `replay.cars[${i}]`)
    if (seen.has(cars[i])) throw new RangeError(`replay.cars[${i}] repeats car ${cars[i]}`)
    seen.add(cars[i])
  }
  const dt = decodeF64(own(d, 'dt'), 'replay.dt', steps)
  for (let i = 0; i < steps; i++) if (!(Number.isFinite(dt[i]) && dt[i] > 0)) throw new RangeError(`replay.dt[${i}] must be finite and > 0, got ${dt[i]}`)

  if (kfRaw.length === 0) throw new RangeError('replay.keyframes must hold at least the keyframe of step 0')
  const keyframes: Replay['keyframes'] = []
  for (let i = 0; i < kfRaw.length; i++) {
    const k = kfRaw[i]
    if (k === null || typeof k !== 'object') throw new TypeError(`replay.keyframes[${i}] must be { step, world }, got ${describe(k)}`)
    const step = count(own(k, 'step'), steps, `replay.keyframes[${i}].step`)
    if (i === 0 && step !== 0) throw new RangeError(`replay.keyframes[0].step must be 0, got ${step}`)
    if (i > 0 && step <= keyframes[i - 1].step) throw new RangeError(`replay.keyframes[${i}].step must be > the one before, got ${step}`)
    const world = checkWorldSnapshot(own(k, 'world'), `replay.keyframes[${i}].world`)
    const ids = world.cars.map((c) => c.id)
    if (ids.length !== cars.length || ids.some((id, j) => id !== cars[j])) throw new RangeError(`replay.keyframes[${i}].world does not hold the replay's cars`)
    keyframes.push({ step, world })
  }

  const ev = own(d, 'events')
  if (ev === null || typeof ev !== 'object') throw new TypeError(`replay.events must be an object, got ${describe(ev)}`)
  const n = count(own(ev, 'count'), REPLAY_LIMITS.events, 'replay.events.count')
  const evStep = decodeI32(own(ev, 'step'), 'replay.events.step', n)
  const evCar = decodeI32(own(ev, 'car'), 'replay.events.car', n)
  const evField = decodeI32(own(ev, 'field'), 'replay.events.field', n)
  const evValue = decodeF64(own(ev, 'value'), 'replay.events.value', n)
  const evStart = new Int32Array(steps + 1)
  let s = 0
  for (let i = 0; i < n; i++) {
    const st = evStep[i]
    if (st < 0 || st >= steps) throw new RangeError(`replay.events.step[${i}] = ${st} is outside [0, ${steps})`)
    if (st < s) throw new RangeError(`replay.events.step[${i}] = ${st} is out of order`)
    while (s < st) evStart[++s] = i
    if (evCar[i] < 0 || evCar[i] >= cars.length) throw new RangeError(`replay.events.car[${i}] = ${evCar[i]} is not a car index`)
    if (evField[i] < 0 || evField[i] >= RECORD_FIELDS) throw new RangeError(`replay.events.field[${i}] = ${evField[i]} is not a record field`)
    checkValue(evField[i], evValue[i], `replay.events.value[${i}] (${RECORD_FIELD_NAMES[evField[i]]})`)
  }
  while (s < steps) evStart[++s] = n
  return { startStep, steps, cars, dt, keyframes, evStep, evCar, evField, evValue, evStart }
}
