/** Field checks for definitions: each throws a TypeError/RangeError naming the field. */
import { describe } from '../validate'

/** A finite number field within [lo, hi] (or (lo, hi] when open). */
export function num(o: Record<string, unknown>, key: string, path: string, lo: number, hi: number, open = false): number {
  const v = o[key]
  const name = `${path}.${key}`
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isFinite(v)) throw new RangeError(`${name} must be finite, got ${v}`)
  if (v < lo || v > hi || (open && v === lo)) throw new RangeError(`${name} must be in ${open ? '(' : '['}${lo}, ${hi}], got ${v}`)
  return v
}

/** A plain object (not null, not an array). */
export function obj(v: unknown, name: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${name} must be an object, got ${describe(v)}`)
  return v as Record<string, unknown>
}

/** A string field that is one of the given options. */
export function oneOf<T extends string>(o: Record<string, unknown>, key: string, path: string, options: readonly T[]): T {
  const v = o[key]
  if (typeof v !== 'string' || !options.includes(v as T)) throw new RangeError(`${path}.${key} must be one of ${options.map((s) => `'${s}'`).join(', ')}, got ${describe(v)}`)
  return v as T
}

/** A boolean field. */
export function bool(o: Record<string, unknown>, key: string, path: string): boolean {
  const v = o[key]
  if (typeof v !== 'boolean') throw new TypeError(`${path}.${key} must be a boolean, got ${describe(v)}`)
  return v
}

/** An array with minLen to maxLen entries. */
export function numList(v: unknown, name: string, minLen: number, maxLen: number): unknown[] {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array, got ${describe(v)}`)
  if (v.length < minLen || v.length > maxLen) throw new RangeError(`${name} must have ${minLen} to ${maxLen} entries, got ${v.length}`)
  return v
}
