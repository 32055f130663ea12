/** Options of the path-following driver (`sim.setAi`) and their validation. */
import { finiteNumber, nonNegativeNumber, optionsObject, positiveNumber, describe } from '../validate'

/** Options of `sim.setAi(car, path, options)`. */
export interface AiOptions {
  /** Top speed anywhere on the path, m/s (default 30). */
  maxSpeed?: number
  /** Lateral acceleration the profile allows in bends, m/s² (default 6). */
  lateralAccel?: number
  /** Deceleration the profile brakes at into slower points, m/s² (default 6). */
  brakeDecel?: number
  /** Acceleration the profile assumes out of slower points, m/s² (default 3). */
  driveAccel?: number
  /** Drive this many metres left of the path (negative: right; default 0). */
  lateralOffset?: number
  /** The path's last point joins its first (default false). */
  closed?: boolean
  /** Pure-pursuit look-ahead, s of travel (default 0.5; never less than a few metres). */
  lookahead?: number
}

/** Options with every default filled in. */
export type ResolvedAiOptions = Required<AiOptions>

const KEYS = ['maxSpeed', 'lateralAccel', 'brakeDecel', 'driveAccel', 'lateralOffset', 'closed', 'lookahead']

/** Validates `options` (undefined allowed) and fills in defaults; throws naming the bad option. */
export function resolveAiOptions(options: unknown): ResolvedAiOptions {
  const o = optionsObject<AiOptions>(options, 'options')
  for (const key of Object.keys(o)) {
    if (!KEYS.includes(key)) throw new RangeError(`options.${key} is not a driver option (expected one of ${KEYS.join(', ')})`)
  }
  const closed = o.closed === undefined ? false : o.closed
  if (typeof closed !== 'boolean') throw new TypeError(`options.closed must be a boolean, got ${describe(closed)}`)
  return {
    maxSpeed: o.maxSpeed === undefined ? 30 : positiveNumber(o.maxSpeed, 'options.maxSpeed'),
    lateralAccel: o.lateralAccel === undefined ? 6 : positiveNumber(o.lateralAccel, 'options.lateralAccel'),
    brakeDecel: o.brakeDecel === undefined ? 6 : positiveNumber(o.brakeDecel, 'options.brakeDecel'),
    driveAccel: o.driveAccel === undefined ? 3 : positiveNumber(o.driveAccel, 'options.driveAccel'),
    lateralOffset: o.lateralOffset === undefined ? 0 : finiteNumber(o.lateralOffset, 'options.lateralOffset'),
    closed,
    lookahead: o.lookahead === undefined ? 0.5 : nonNegativeNumber(o.lookahead, 'options.lookahead'),
  }
}
