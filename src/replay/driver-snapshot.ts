/**
 * The driver part of a world snapshot: a car's path (the validated points it was given and its
 * resolved options, from the driver's path table) and every field of its Driver store entry.
 * Restoring sets the path through the public sim.setAi exactly as the user did (only when the car
 * does not already drive that path) and then writes the fields back.
 */
import { hasComponent } from 'bitecs'
import type { Sim } from '../sim'
import { describe } from '../validate'
import { buildDriverPath } from '../driver/install'
import { decodeF64, encodeF64 } from './codec'

/** A driver as stored in a world snapshot. */
export interface DriverEntry {
  /** The path's points as given to setAi, after validation (base64 Float64Arrays). */
  x: string
  y: string
  /** The driver's resolved options. */
  options: Record<string, number | boolean>
  /** Every Driver store field of the car, in store order (base64 Float64Array). */
  fields: string
}

const MAX_POINTS = 1 << 20

function driverFields(sim: Sim): string[] {
  return Object.keys(sim.components.Driver)
}

/** The driver of `car` as plain data, or null when it has none. */
export function snapshotDriver(sim: Sim, car: number): DriverEntry | null {
  const { world, components } = sim
  if (!hasComponent(world, car, components.Driver)) return null
  const path = sim.internal.drivers.paths[car]!
  const base = sim.internal.drivers.table.shared.find((r) => r.path === path)!.base
  const D = components.Driver as unknown as Record<string, Float64Array | Int32Array | Uint8Array>
  const names = driverFields(sim)
  const fields = new Float64Array(names.length)
  for (let i = 0; i < names.length; i++) fields[i] = D[names[i]][car]
  return { x: encodeF64(base.x), y: encodeF64(base.y), options: { ...path.options }, fields: encodeF64(fields) }
}

/** Rethrows a TypeError/RangeError with `name: ` in front of its message (other errors unchanged). */
export function rethrow(e: unknown, name: string): never {
  if (e instanceof RangeError) throw new RangeError(`${name}: ${e.message}`)
  if (e instanceof TypeError) throw new TypeError(`${name}: ${e.message}`)
  throw e
}

/** The flat points and options setAi needs to rebuild `entry`'s path, validated by building it. */
function rebuildArgs(entry: DriverEntry, name: string): { points: Float64Array; options: Record<string, unknown>; fields: Float64Array; segments: number; length: number } {
  const x = decodeF64(entry.x, `${name}.x`)
  const y = decodeF64(entry.y, `${name}.y`, x.length)
  if (x.length > MAX_POINTS) throw new RangeError(`${name}.x is oversized: ${x.length} points`)
  const points = new Float64Array(2 * x.length)
  for (let i = 0; i < x.length; i++) { points[2 * i] = x[i]; points[2 * i + 1] = y[i] }
  const o = entry.options
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new TypeError(`${name}.options must be an object, got ${describe(o)}`)
  const options: Record<string, unknown> = {}
  for (const k of Object.keys(o)) if (k !== '__proto__') options[k] = (o as Record<string, unknown>)[k]
  let built
  try { built = buildDriverPath(points, options) } catch (e) { rethrow(e, name) }
  const fields = decodeF64(entry.fields, `${name}.fields`)
  return { points, options, fields, segments: built.poly.segments, length: built.poly.length }
}

/** Checks a snapshot's driver entry (or null) against what `sim` can restore; throws naming `name`. */
export function checkDriver(sim: Sim, entry: unknown, name: string): void {
  if (entry === null) return
  if (typeof entry !== 'object' || Array.isArray(entry)) throw new TypeError(`${name} must be driver data or null, got ${describe(entry)}`)
  const { fields, segments, length } = rebuildArgs(entry as DriverEntry, name)
  const names = driverFields(sim)
  if (fields.length !== names.length) throw new RangeError(`${name}.fields must hold ${names.length} numbers, got ${fields.length}`)
  for (let i = 0; i < names.length; i++) {
    const v = fields[i]
    if (!Number.isFinite(v)) throw new RangeError(`${name}.fields ${names[i]} must be finite, got ${v}`)
    const f = names[i]
    if (f === 'seg' && !(Number.isInteger(v) && v >= 0 && v < segments)) throw new RangeError(`${name}.fields seg must be a segment index in [0, ${segments}), got ${v}`)
    if (f === 's' && !(v >= 0 && v <= length)) throw new RangeError(`${name}.fields s must be in [0, ${length}], got ${v}`)
    if (f === 'laps' && !(Number.isInteger(v) && v >= 0 && v <= 0x7fffffff)) throw new RangeError(`${name}.fields laps must be a non-negative integer, got ${v}`)
    if (f === 'finished' && v !== 0 && v !== 1) throw new RangeError(`${name}.fields finished must be 0 or 1, got ${v}`)
  }
}

/** Puts the driver of `car` back to `entry` (null: no driver); `entry` must have passed checkDriver. */
export function restoreDriver(sim: Sim, car: number, entry: DriverEntry | null): void {
  const { world, components } = sim
  if (entry === null) {
    if (hasComponent(world, car, components.Driver)) sim.clearAi(car)
    return
  }
  const { points, options, fields } = rebuildArgs(entry, 'driver')
  const drivers = sim.internal.drivers
  const current = drivers.paths[car]
  const base = current && hasComponent(world, car, components.Driver) ? drivers.table.shared.find((r) => r.path === current)?.base : undefined
  const sameNow = current !== undefined && base !== undefined && base.n * 2 === points.length &&
    base.x.every((v, i) => Object.is(v, points[2 * i])) && base.y.every((v, i) => Object.is(v, points[2 * i + 1])) &&
    Object.keys(entry.options).every((k) => Object.is((current.options as Record<string, unknown>)[k], entry.options[k]))
  // Only set the path when it differs (setAi resets the store fields, which are written next anyway).
  if (!sameNow) sim.setAi(car, points, options)
  const D = components.Driver as unknown as Record<string, Float64Array | Int32Array | Uint8Array>
  const names = driverFields(sim)
  for (let i = 0; i < names.length; i++) D[names[i]][car] = fields[i]
}
