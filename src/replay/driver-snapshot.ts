/**
 * The driver part of a world snapshot: a car's path (an index into the snapshot's shared list of
 * paths: the validated points given to setAi, from the driver's path table), its resolved options
 * and every field of its Driver store entry. Cars on one track share one stored path. Restoring
 * sets the path through the public sim.setAi exactly as the user did (only when the car does not
 * already drive that path) and then writes the fields back.
 */
import { hasComponent } from 'bitecs'
import type { Sim } from '../types'
import { describe } from '../validate'
import { buildDriverPath } from '../driver/install'
import { decodeF64, encodeF64 } from './codec'
import { DRIVER_FIELDS, DRIVER_STRIDE } from '../../components/driver'
import { MAX_WIDTH } from '../driver/options'

/** A driver as stored in a world snapshot. */
export interface DriverEntry {
  /** Index of its path in the snapshot's `paths`. */
  path: number
  /** The driver's resolved options. */
  options: Record<string, number | boolean | string | number[]>
  /** Every field of the car's Driver record, in record order (base64 Float64Array). */
  fields: string
}

/** A stored path: its points (base64 Float64Arrays of x and y). */
export interface PathEntry {
  x: string
  y: string
}

/** Paths collected while snapshotting: one entry per distinct point set (looked up, never iterated). */
export interface PathPool {
  list: PathEntry[]
  byBase: Map<object, number>
  byText: Map<string, number>
}

/** Decoded paths of a snapshot being checked or applied, and the paths already built for a check. */
export interface PathCache {
  entries: unknown
  points: (Float64Array | undefined)[]
  built: Map<string, { segments: number; length: number }>
}

const MAX_POINTS = 1 << 20
const MAX_PATHS = 1 << 16

const FIELD_NAMES = DRIVER_FIELDS.map((f) => f.name)
/** Fields of a driver record from before traffic (restored with TRAFFIC_DEFAULTS after them: nothing ahead, on its line). */
const SEED_FIELDS = 11
/** The traffic fields of a fresh driver (ahead, gap, passing, shift, shiftGoal, cap, recheck). */
const TRAFFIC_DEFAULTS = [-1, -1, 0, 0, 0, -1, 0]

/** The driver of `car` as plain data (its path added to `pool`), or null when it has none. */
export function snapshotDriver(sim: Sim, car: number, pool: PathPool): DriverEntry | null {
  const { world, components } = sim
  if (!hasComponent(world, car, components.Driver)) return null
  const path = sim.internal.drivers.paths[car]!
  const base = sim.internal.drivers.table.shared.find((r) => r.path === path)!.base
  // Identical points share an entry even across path records (options differ per car).
  let i = pool.byBase.get(base)
  if (i === undefined) {
    const x = encodeF64(base.x), y = encodeF64(base.y)
    const key = `${x}|${y}`
    i = pool.byText.get(key)
    if (i === undefined) {
      i = pool.list.length
      pool.list.push({ x, y })
      pool.byText.set(key, i)
    }
    pool.byBase.set(base, i)
  }
  const R = components.Driver.state, o = car * DRIVER_STRIDE
  const fields = R.slice(o, o + DRIVER_STRIDE)
  return { path: i, options: { ...path.options, width: [...path.options.width] }, fields: encodeF64(fields) }
}

/** Rethrows a TypeError/RangeError with `name: ` in front of its message (other errors unchanged). */
export function rethrow(e: unknown, name: string): never {
  if (e instanceof RangeError) throw new RangeError(`${name}: ${e.message}`)
  if (e instanceof TypeError) throw new TypeError(`${name}: ${e.message}`)
  throw e
}

/** A cache over a snapshot's `paths` list (validated as a list here; each entry when first used). */
export function pathCache(paths: unknown, name: string): PathCache {
  if (!Array.isArray(paths)) throw new TypeError(`${name} must be an array, got ${describe(paths)}`)
  if (paths.length > MAX_PATHS) throw new RangeError(`${name} is oversized: ${paths.length} paths`)
  return { entries: paths, points: [], built: new Map() }
}

/** The flat points of path `i` of the snapshot (decoded once). */
function pathPoints(cache: PathCache, i: unknown, name: string): Float64Array {
  const list = cache.entries as unknown[]
  if (typeof i !== 'number') throw new TypeError(`${name}.path must be a path index, got ${describe(i)}`)
  if (!Number.isInteger(i) || i < 0 || i >= list.length) throw new RangeError(`${name}.path must be an index into snap.paths (0..${list.length - 1}), got ${i}`)
  const have = cache.points[i]
  if (have) return have
  const e = list[i] as PathEntry
  if (e === null || typeof e !== 'object') throw new TypeError(`snap.paths[${i}] must be { x, y }, got ${describe(e)}`)
  const x = decodeF64(e.x, `snap.paths[${i}].x`)
  if (x.length > MAX_POINTS) throw new RangeError(`snap.paths[${i}].x is oversized: ${x.length} points`)
  const y = decodeF64(e.y, `snap.paths[${i}].y`, x.length)
  const points = new Float64Array(2 * x.length)
  for (let k = 0; k < x.length; k++) { points[2 * k] = x[k]; points[2 * k + 1] = y[k] }
  cache.points[i] = points
  return points
}

function plainOptions(o: unknown, name: string): Record<string, unknown> {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new TypeError(`${name}.options must be an object, got ${describe(o)}`)
  const options: Record<string, unknown> = {}
  for (const k of Object.keys(o)) if (k !== '__proto__') options[k] = (o as Record<string, unknown>)[k]
  return options
}

/** Checks a snapshot's driver entry (or null) against what `sim` can restore; throws naming `name`. */
export function checkDriver(sim: Sim, entry: unknown, cache: PathCache, name: string): void {
  if (entry === null) return
  if (typeof entry !== 'object' || Array.isArray(entry)) throw new TypeError(`${name} must be driver data or null, got ${describe(entry)}`)
  const e = entry as DriverEntry
  const points = pathPoints(cache, e.path, name)
  const options = plainOptions(e.options, name)
  // Validated by building it, once per path and options (a field of cars shares both).
  const key = `${e.path}|${JSON.stringify(options)}`
  let shape = cache.built.get(key)
  if (!shape) {
    let built
    try { built = buildDriverPath(points, options) } catch (err) { rethrow(err, name) }
    shape = { segments: built.poly.segments, length: built.poly.length }
    cache.built.set(key, shape)
  }
  const fields = decodeF64(e.fields, `${name}.fields`)
  const names = FIELD_NAMES
  if (fields.length !== names.length && fields.length !== SEED_FIELDS) throw new RangeError(`${name}.fields must hold ${names.length} numbers (or ${SEED_FIELDS}, a snapshot from before traffic), got ${fields.length}`)
  for (let i = 0; i < fields.length; i++) {
    const v = fields[i]
    if (!Number.isFinite(v)) throw new RangeError(`${name}.fields ${names[i]} must be finite, got ${v}`)
    const f = names[i]
    if (f === 'seg' && !(Number.isInteger(v) && v >= 0 && v < shape.segments)) throw new RangeError(`${name}.fields seg must be a segment index in [0, ${shape.segments}), got ${v}`)
    if (f === 's' && !(v >= 0 && v <= shape.length)) throw new RangeError(`${name}.fields s must be in [0, ${shape.length}], got ${v}`)
    if (f === 'laps' && !(Number.isInteger(v) && v >= 0 && v <= 0x7fffffff)) throw new RangeError(`${name}.fields laps must be a non-negative integer, got ${v}`)
    if (f === 'finished' && v !== 0 && v !== 1) throw new RangeError(`${name}.fields finished must be 0 or 1, got ${v}`)
    if (f === 'ahead' && !(Number.isInteger(v) && v >= -1)) throw new RangeError(`${name}.fields ahead must be a car id or -1, got ${v}`)
    if (f === 'passing' && v !== 0 && v !== 1 && v !== -1) throw new RangeError(`${name}.fields passing must be -1, 0 or 1, got ${v}`)
    if ((f === 'shift' || f === 'shiftGoal') && !(Math.abs(v) <= MAX_WIDTH)) throw new RangeError(`${name}.fields ${f} must be within ±${MAX_WIDTH} m, got ${v}`)
  }
}

/** An option's value as resolved (numbers, or a width's [left, right]) is the same as stored. */
function sameOption(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => Object.is(v, b[i]))
  return Object.is(a, b)
}

/** Puts the driver of `car` back to `entry` (null: no driver); `entry` must have passed checkDriver. */
export function restoreDriver(sim: Sim, car: number, entry: DriverEntry | null, cache: PathCache): void {
  const { world, components } = sim
  if (entry === null) {
    if (hasComponent(world, car, components.Driver)) sim.clearAi(car)
    return
  }
  const points = pathPoints(cache, entry.path, 'driver')
  const options = plainOptions(entry.options, 'driver')
  const drivers = sim.internal.drivers
  const current = drivers.paths[car]
  const base = current && hasComponent(world, car, components.Driver) ? drivers.table.shared.find((r) => r.path === current)?.base : undefined
  const sameNow = current !== undefined && base !== undefined && base.n * 2 === points.length &&
    base.x.every((v, i) => Object.is(v, points[2 * i])) && base.y.every((v, i) => Object.is(v, points[2 * i + 1])) &&
    Object.keys(options).every((k) => sameOption((current.options as Record<string, unknown>)[k], options[k]))
  // Only set the path when it differs (setAi resets the store fields, which are written next anyway).
  if (!sameNow) sim.setAi(car, points, options)
  const R = components.Driver.state, o = car * DRIVER_STRIDE
  const fields = decodeF64(entry.fields, 'fields')
  // (integer fields converted as their own Int32Array/Uint8Array once converted them)
  for (let i = 0; i < DRIVER_FIELDS.length; i++) {
    const int = DRIVER_FIELDS[i].int, v = i < fields.length ? fields[i] : TRAFFIC_DEFAULTS[i - SEED_FIELDS]
    R[o + i] = int === 'i32' ? v | 0 : int === 'u8' ? v & 255 : v
  }
}
