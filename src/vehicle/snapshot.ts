/**
 * Per-car snapshots: versioned, JSON-safe plain data of every state and input field, exact to the
 * bit. JSON has no -0, so a negative zero is written as the string "-0" (every other value is a
 * plain finite number). Restore validates the whole snapshot before writing anything.
 */
import type { CarStore } from '../../components/car'
import { describe } from '../validate'
import type { ResolvedCar } from './definition'
import { HZ_MAX, HZ_MIN, LEVELS, MODELS, type Level, type Model } from './level'

/** The snapshot format tag. */
export const SNAPSHOT_FORMAT = 'pitlane.car'
/** The snapshot version written (and the only one read). */
export const SNAPSHOT_VERSION = 1

/** A number in a snapshot: finite, or "-0" for negative zero. */
export type SnapNumber = number | '-0'

/** A car snapshot (plain data; JSON.stringify/parse keeps it exact). */
export interface CarSnapshot {
  format: typeof SNAPSHOT_FORMAT
  version: typeof SNAPSHOT_VERSION
  model: Model
  level: Level
  hz: SnapNumber
  state: Record<string, SnapNumber | SnapNumber[]>
  input: Record<string, SnapNumber>
}

// Float state fields (scalars), and the per-wheel field.
const FLOATS = ['x', 'y', 'heading', 'vx', 'vy', 'yawRate', 'speed', 'heave', 'heaveRate', 'roll', 'rollRate', 'pitch', 'pitchRate',
  'steerAngle', 'engineSpeed', 'shiftTimer', 'ax', 'time', 'acc'] as const
// Plausibility bounds of each float (a hostile snapshot must not put a car where the model
// cannot stay finite): |value| ≤ bound, and ≥ 0 where marked.
const BOUNDS: Record<(typeof FLOATS)[number], [number, boolean]> = {
  x: [1e9, false], y: [1e9, false], heading: [1e9, false], vx: [200, false], vy: [200, false], yawRate: [50, false],
  speed: [300, false], heave: [1e9, false], heaveRate: [1e4, false], roll: [1.5, false], rollRate: [100, false],
  pitch: [1.5, false], pitchRate: [100, false], steerAngle: [1.5, false], engineSpeed: [5000, true],
  shiftTimer: [5, true], ax: [1000, false], time: [1e12, true], acc: [1.001, false],
}
/** Largest wheel spin rate a snapshot may hold, rad/s. */
const MAX_WHEEL = 5000
const INPUT_FLOATS = [['steer', -1, 1], ['throttle', 0, 1], ['brake', 0, 1], ['handbrake', 0, 1], ['clutch', 0, 1]] as const

function enc(v: number): SnapNumber {
  return v === 0 && 1 / v < 0 ? '-0' : v
}

function dec(v: unknown, name: string): number {
  if (v === '-0') return -0
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number (or "-0"), got ${describe(v)}`)
  if (!Number.isFinite(v)) throw new RangeError(`${name} must be finite, got ${v}`)
  return v
}

function own(o: Record<string, unknown>, k: string, name: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(o, k)) throw new TypeError(`${name}.${k} is missing`)
  return o[k]
}

function plain(v: unknown, name: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${name} must be an object, got ${describe(v)}`)
  return v as Record<string, unknown>
}

function integer(v: unknown, lo: number, hi: number, name: string): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be an integer, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`${name} must be an integer in [${lo}, ${hi}], got ${v}`)
  return v
}

/** Writes car `eid`'s snapshot. */
export function snapshotCar(C: CarStore, eid: number): CarSnapshot {
  const state: Record<string, SnapNumber | SnapNumber[]> = {}
  for (const k of FLOATS) state[k] = enc(C[k][eid])
  const o = eid * 4
  state.wheelSpeed = [enc(C.wheelSpeed[o]), enc(C.wheelSpeed[o + 1]), enc(C.wheelSpeed[o + 2]), enc(C.wheelSpeed[o + 3])]
  state.gearActual = C.gearActual[eid]
  state.grounded = [C.grounded[o], C.grounded[o + 1], C.grounded[o + 2], C.grounded[o + 3]]
  const input: Record<string, SnapNumber> = {}
  for (const [k] of INPUT_FLOATS) input[k] = enc(C[k][eid])
  input.gear = C.gear[eid]
  return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, model: MODELS[C.model[eid]], level: LEVELS[C.level[eid]], hz: enc(C.hz[eid]), state, input }
}

/** A validated snapshot, decoded, ready to write. */
export interface DecodedSnapshot {
  model: number
  level: number
  hz: number
  floats: Float64Array
  wheels: Float64Array
  gearActual: number
  /** Which wheels carried load (0/1 each). */
  grounded: Uint8Array
  inputs: Float64Array
  gear: number
}

/** Validates `snap` for a car with definition `d` (throws naming the bad field); writes nothing. */
export function decodeSnapshot(d: ResolvedCar, snap: unknown): DecodedSnapshot {
  const s = plain(snap, 'snapshot')
  if (own(s, 'format', 'snapshot') !== SNAPSHOT_FORMAT) throw new RangeError(`snapshot.format must be '${SNAPSHOT_FORMAT}', got ${describe(s.format)}`)
  if (own(s, 'version', 'snapshot') !== SNAPSHOT_VERSION) throw new RangeError(`snapshot.version must be ${SNAPSHOT_VERSION}, got ${describe(s.version)}`)
  const model = MODELS.indexOf(own(s, 'model', 'snapshot') as Model)
  if (model < 0) throw new RangeError(`snapshot.model must be one of ${MODELS.join(', ')}, got ${describe(s.model)}`)
  let level = LEVELS.indexOf(own(s, 'level', 'snapshot') as Level)
  if (level < 0) throw new RangeError(`snapshot.level must be one of ${LEVELS.join(', ')}, got ${describe(s.level)}`)
  const defModel = d.fourWheel ? 0 : 1
  if (level === 0 && model !== defModel) {
    // a single-track snapshot taken at 'full' of a single-track definition: singleTrack level here
    if (model === 1) level = 1
    else throw new RangeError(`snapshot.model 'fourWheel' at level 'full' does not fit a car whose definition model is 'singleTrack'`)
  }
  if (level === 1 && model !== 1) throw new RangeError(`snapshot.model must be 'singleTrack' at level 'singleTrack', got ${describe(s.model)}`)
  const hz = dec(own(s, 'hz', 'snapshot'), 'snapshot.hz')
  if (hz < HZ_MIN || hz > HZ_MAX) throw new RangeError(`snapshot.hz must be in [${HZ_MIN}, ${HZ_MAX}], got ${hz}`)
  const st = plain(own(s, 'state', 'snapshot'), 'snapshot.state')
  const floats = new Float64Array(FLOATS.length)
  for (let i = 0; i < FLOATS.length; i++) {
    const k = FLOATS[i]
    const v = dec(own(st, k, 'snapshot.state'), `snapshot.state.${k}`)
    const [bound, positive] = BOUNDS[k]
    const lo = k === 'acc' ? -1e-3 : positive ? 0 : -bound
    if (v < lo || v > bound) throw new RangeError(`snapshot.state.${k} must be in [${lo}, ${bound}], got ${v}`)
    floats[i] = v
  }
  const w = own(st, 'wheelSpeed', 'snapshot.state')
  if (!Array.isArray(w) || w.length !== 4) throw new TypeError(`snapshot.state.wheelSpeed must be an array of 4 numbers, got ${describe(w)}`)
  const wheels = new Float64Array(4)
  for (let i = 0; i < 4; i++) {
    wheels[i] = dec(w[i], `snapshot.state.wheelSpeed[${i}]`)
    if (Math.abs(wheels[i]) > MAX_WHEEL) throw new RangeError(`snapshot.state.wheelSpeed[${i}] must be in [-${MAX_WHEEL}, ${MAX_WHEEL}], got ${wheels[i]}`)
  }
  const gearActual = integer(own(st, 'gearActual', 'snapshot.state'), -1, d.gears, 'snapshot.state.gearActual')
  // (a snapshot written before cars stood on terrain has none: every wheel on the ground)
  const grounded = new Uint8Array([1, 1, 1, 1])
  const g = st.grounded
  if (g !== undefined) {
    if (!Array.isArray(g) || g.length !== 4) throw new TypeError(`snapshot.state.grounded must be an array of 4 integers (0 or 1), got ${describe(g)}`)
    for (let i = 0; i < 4; i++) grounded[i] = integer(g[i], 0, 1, `snapshot.state.grounded[${i}]`)
  }
  const inp = plain(own(s, 'input', 'snapshot'), 'snapshot.input')
  const inputs = new Float64Array(INPUT_FLOATS.length)
  for (let i = 0; i < INPUT_FLOATS.length; i++) {
    const [k, lo, hi] = INPUT_FLOATS[i]
    const v = dec(own(inp, k, 'snapshot.input'), `snapshot.input.${k}`)
    if (v < lo || v > hi) throw new RangeError(`snapshot.input.${k} must be in [${lo}, ${hi}], got ${v}`)
    inputs[i] = v
  }
  const gear = integer(own(inp, 'gear', 'snapshot.input'), -1, d.gears, 'snapshot.input.gear')
  return { model, level, hz, floats, wheels, gearActual, grounded, inputs, gear }
}

/** Writes a decoded snapshot into car `eid` (model, hz and state; the caller sets the level tag). */
export function writeSnapshot(C: CarStore, eid: number, s: DecodedSnapshot): void {
  for (let i = 0; i < FLOATS.length; i++) C[FLOATS[i]][eid] = s.floats[i]
  C.wheelSpeed.set(s.wheels, eid * 4)
  C.gearActual[eid] = s.gearActual
  C.grounded.set(s.grounded, eid * 4)
  for (let i = 0; i < INPUT_FLOATS.length; i++) C[INPUT_FLOATS[i][0]][eid] = s.inputs[i]
  C.gear[eid] = s.gear
  C.model[eid] = s.model
  C.hz[eid] = s.hz
}
