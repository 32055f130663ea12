import type { PitlaneRoomOptions } from './types'

/** PitlaneRoomOptions with every default filled in. */
export interface ResolvedRoomOptions {
  maxClients: number
  cars: number
  laps: number
  seed: number
  wait: number
  reconnect: number
  snapshotRate: number
}

const ROOM_KEYS = new Set(['maxClients', 'cars', 'laps', 'seed', 'wait', 'reconnect', 'snapshotRate', 'name'])
/** Most cars a room races (the snapshot and the tick stay small). */
export const MAX_CARS = 40

function integer(o: Record<string, unknown>, key: string, min: number, max: number, fallback: number): number {
  const v = o[key]
  if (v === undefined) return fallback
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new RangeError(`options.${key} must be an integer in [${min}, ${max}], got ${String(v)}`)
  return v
}

function seconds(o: Record<string, unknown>, key: string, max: number, fallback: number): number {
  const v = o[key]
  if (v === undefined) return fallback
  if (typeof v !== 'number' || !(v >= 0 && v <= max)) throw new RangeError(`options.${key} must be a number of seconds in [0, ${max}], got ${String(v)}`)
  return v
}

/** Checks a room's options (they come from a client: anything may be in them) and fills the defaults. */
export function resolveRoomOptions(options: unknown): ResolvedRoomOptions {
  const o = (options ?? {}) as Record<string, unknown>
  if (typeof o !== 'object' || Array.isArray(o)) throw new TypeError('room options must be an object')
  for (const key of Object.keys(o)) if (!ROOM_KEYS.has(key)) throw new TypeError(`unknown room option '${key}' (known: ${[...ROOM_KEYS].join(', ')})`)
  const cars = integer(o, 'cars', 1, MAX_CARS, 20)
  const maxClients = integer(o, 'maxClients', 1, cars, Math.min(4, cars))
  const snapshotRate = integer(o, 'snapshotRate', 20, 30, 20)
  if (snapshotRate !== 20 && snapshotRate !== 30) throw new RangeError(`options.snapshotRate must be 20 or 30 (a divisor of the 60 Hz tick), got ${snapshotRate}`)
  return {
    cars, maxClients, snapshotRate,
    laps: integer(o, 'laps', 1, 50, 3),
    seed: integer(o, 'seed', -0x80000000, 0x7fffffff, (Math.random() * 0x7fffffff) | 0),
    wait: seconds(o, 'wait', 120, 10),
    reconnect: seconds(o, 'reconnect', 300, 20),
  }
}

/** The player's name from join options: up to 12 printable characters, or `fallback`. */
export function playerName(options: unknown, fallback: string): string {
  const name = (options as { name?: unknown } | null)?.name
  if (name === undefined) return fallback
  if (typeof name !== 'string' || !/^[\p{L}\p{N} _.-]{1,12}$/u.test(name)) throw new RangeError('options.name must be 1 to 12 letters, digits, spaces, _ . or -')
  return name
}
