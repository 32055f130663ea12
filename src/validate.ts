/**
 * Argument checks shared by the public API. Each throws a TypeError (wrong type) or RangeError
 * (right type, bad value) whose message names the argument, before anything is changed.
 */

/** Throws unless `v` is a finite number; returns it. */
export function finiteNumber(v: unknown, name: string): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isFinite(v)) throw new RangeError(`${name} must be finite, got ${v}`)
  return v
}

/** Throws unless `v` is a finite number > 0; returns it. */
export function positiveNumber(v: unknown, name: string): number {
  finiteNumber(v, name)
  if ((v as number) <= 0) throw new RangeError(`${name} must be > 0, got ${v}`)
  return v as number
}

/** Throws unless `v` is a finite number ≥ 0; returns it. */
export function nonNegativeNumber(v: unknown, name: string): number {
  finiteNumber(v, name)
  if ((v as number) < 0) throw new RangeError(`${name} must be >= 0, got ${v}`)
  return v as number
}

/** Throws unless `v` is an integer ≥ 0; returns it. */
export function nonNegativeInteger(v: unknown, name: string): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, got ${v}`)
  return v
}

/** Throws unless `v` is a finite number in [lo, hi]; returns it. */
export function numberInRange(v: unknown, lo: number, hi: number, name: string): number {
  finiteNumber(v, name)
  if ((v as number) < lo || (v as number) > hi) throw new RangeError(`${name} must be in [${lo}, ${hi}], got ${v}`)
  return v as number
}

/** Throws unless `v` is an array-like of `n` finite numbers; returns it. */
export function finiteVector(v: unknown, n: number, name: string): ArrayLike<number> {
  if (v === null || typeof v !== 'object' || typeof (v as ArrayLike<number>).length !== 'number') {
    throw new TypeError(`${name} must be an array of ${n} numbers, got ${describe(v)}`)
  }
  const a = v as ArrayLike<number>
  if (a.length !== n) throw new RangeError(`${name} must have ${n} numbers, got ${a.length}`)
  for (let i = 0; i < n; i++) {
    if (typeof a[i] !== 'number') throw new TypeError(`${name}[${i}] must be a number, got ${describe(a[i])}`)
    if (!Number.isFinite(a[i])) throw new RangeError(`${name}[${i}] must be finite, got ${a[i]}`)
  }
  return a
}

/**
 * Largest coordinate magnitude a world position may have, m. Far beyond any game world, and far
 * enough below the float range that squares and sums of positions stay finite.
 */
export const WORLD_LIMIT = 1e9

/** Throws unless `v` is a ground ([x, y]) or world ([x, y, z]) position within ±WORLD_LIMIT; returns [x, y, z|NaN]. */
export function positionLike(v: unknown, name: string): [number, number, number] {
  if (v === null || typeof v !== 'object' || typeof (v as ArrayLike<number>).length !== 'number') {
    throw new TypeError(`${name} must be [x, y] or [x, y, z], got ${describe(v)}`)
  }
  const n = (v as ArrayLike<number>).length
  if (n !== 2 && n !== 3) throw new RangeError(`${name} must be [x, y] or [x, y, z], got ${n} numbers`)
  finiteVector(v, n, name)
  const a = v as ArrayLike<number>
  for (let i = 0; i < n; i++) {
    if (Math.abs(a[i]) > WORLD_LIMIT) throw new RangeError(`${name}[${i}] must be within ±${WORLD_LIMIT} m, got ${a[i]}`)
  }
  return [a[0], a[1], n === 3 ? a[2] : NaN]
}

/**
 * Throws unless `v` is a plain object (or undefined, giving {}) whose own keys are all among `keys`
 * (when given: a misspelled key is refused, naming it and the accepted ones); returns it.
 */
export function optionsObject<T extends object>(v: unknown, name: string, keys?: OptionKeys<T>): Partial<T> {
  if (v === undefined) return {}
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${name} must be an object, got ${describe(v)}`)
  if (keys) {
    for (const key of Object.keys(v)) {
      if (!keys.includes(key)) throw new RangeError(`${name}.${key} is not an option (expected one of ${keys.join(', ')})`)
    }
  }
  return v as Partial<T>
}

/** The accepted keys of an options type `T` (made by optionKeys, so the list cannot miss one). */
export type OptionKeys<T> = readonly string[] & { readonly __of?: T }

/** The keys of an options type, listed once as `{ key: true, … }`: the compiler checks the list is complete. */
export function optionKeys<T extends object>(keys: { readonly [K in keyof Required<T>]: true }): OptionKeys<T> {
  return Object.keys(keys)
}

/** A short description of a value for error messages. */
export function describe(v: unknown): string {
  if (v === null) return 'null'
  if (v === undefined) return 'undefined'
  if (Array.isArray(v)) return `array(${v.length})`
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`
  if (typeof v === 'object') return 'object'
  return `${typeof v} ${String(v)}`
}
