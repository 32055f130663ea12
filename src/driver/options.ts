/** Options of the path-following driver (`sim.setAi`) and their validation. */
import { numberInRange, optionKeys, optionsObject, positiveNumber, describe } from '../validate'

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
  /**
   * The driver works the gearbox (default false: the gear stays the user's): it engages drive
   * out of neutral or reverse, and shifts a manual box up and down by the car's torque curve and
   * ratios (up short of the limiter, down to keep the engine in its band).
   */
  shift?: boolean
  /** 'avoid' (default): it follows, passes and never drives into other cars or obstacles; 'ignore': it drives through everything. */
  traffic?: 'avoid' | 'ignore'
  /** Metres beside its own line it may use to pass or make room: both sides, or [left, right] (left = +y of the direction of travel); default 0 (it queues, never passes). */
  width?: number | readonly [number, number]
  /** Time gap it holds behind a slower car, s, bumper to bumper at its own speed (default 0.8). */
  gap?: number
  /** In [0, 1]: how early it commits to a pass and how close it runs alongside (default 0.5). */
  aggression?: number
  /** Collision groups (bits) whose colliders on its line it stops behind (default 0: cars only; the ground and terrain never). */
  obstacleMask?: number
}

/** Options with every default filled in (width as [left, right]). */
export type ResolvedAiOptions = Required<Omit<AiOptions, 'width'>> & { width: readonly [number, number] }

/** Largest lateral offset accepted, m (a lane, not a different continent). */
export const MAX_OFFSET = 1e6
/** Largest speed accepted, m/s, and acceleration, m/s² (so squares stay far inside double range). */
export const MAX_SPEED = 1000
/** Largest acceleration accepted, m/s². */
export const MAX_ACCEL = 1000
/** Largest look-ahead accepted, s. */
export const MAX_LOOKAHEAD = 60
/** Largest traffic width accepted, m (beside its own line, each side). */
export const MAX_WIDTH = 100
/** Largest time gap accepted, s. */
export const MAX_GAP = 10

function resolveWidth(v: unknown): readonly [number, number] {
  if (v === undefined) return [0, 0]
  if (typeof v === 'number') { numberInRange(v, 0, MAX_WIDTH, 'options.width'); return [v, v] }
  if (!Array.isArray(v) || v.length !== 2) throw new TypeError(`options.width must be a number or [left, right], got ${describe(v)}`)
  return [numberInRange(v[0], 0, MAX_WIDTH, 'options.width[0]'), numberInRange(v[1], 0, MAX_WIDTH, 'options.width[1]')]
}

function positiveUpTo(v: unknown, max: number, name: string): number {
  positiveNumber(v, name)
  if ((v as number) > max) throw new RangeError(`${name} must be <= ${max}, got ${v}`)
  return v as number
}

const KEYS = optionKeys<AiOptions>({
  maxSpeed: true, lateralAccel: true, brakeDecel: true, driveAccel: true, lateralOffset: true, closed: true, lookahead: true, shift: true,
  traffic: true, width: true, gap: true, aggression: true, obstacleMask: true,
})

/** Validates `options` (undefined allowed) and fills in defaults; throws naming the bad option. */
export function resolveAiOptions(options: unknown): ResolvedAiOptions {
  const o = optionsObject<AiOptions>(options, 'options', KEYS)
  const closed = o.closed === undefined ? false : o.closed
  if (typeof closed !== 'boolean') throw new TypeError(`options.closed must be a boolean, got ${describe(closed)}`)
  const shift = o.shift === undefined ? false : o.shift
  if (typeof shift !== 'boolean') throw new TypeError(`options.shift must be a boolean, got ${describe(shift)}`)
  const traffic = o.traffic === undefined ? 'avoid' : o.traffic
  if (traffic !== 'avoid' && traffic !== 'ignore') throw new RangeError(`options.traffic must be 'avoid' or 'ignore', got ${describe(traffic)}`)
  const mask = o.obstacleMask === undefined ? 0 : o.obstacleMask
  if (typeof mask !== 'number' || !Number.isInteger(mask) || mask < 0 || mask > 0xffffffff) throw new RangeError(`options.obstacleMask must be an integer in [0, 2^32 - 1] (collision group bits), got ${describe(mask)}`)
  return {
    maxSpeed: o.maxSpeed === undefined ? 30 : positiveUpTo(o.maxSpeed, MAX_SPEED, 'options.maxSpeed'),
    lateralAccel: o.lateralAccel === undefined ? 6 : positiveUpTo(o.lateralAccel, MAX_ACCEL, 'options.lateralAccel'),
    brakeDecel: o.brakeDecel === undefined ? 6 : positiveUpTo(o.brakeDecel, MAX_ACCEL, 'options.brakeDecel'),
    driveAccel: o.driveAccel === undefined ? 3 : positiveUpTo(o.driveAccel, MAX_ACCEL, 'options.driveAccel'),
    lateralOffset: o.lateralOffset === undefined ? 0 : numberInRange(o.lateralOffset, -MAX_OFFSET, MAX_OFFSET, 'options.lateralOffset'),
    closed,
    lookahead: o.lookahead === undefined ? 0.5 : numberInRange(o.lookahead, 0, MAX_LOOKAHEAD, 'options.lookahead'),
    shift,
    traffic,
    width: resolveWidth(o.width),
    gap: o.gap === undefined ? 0.8 : numberInRange(o.gap, 0, MAX_GAP, 'options.gap'),
    aggression: o.aggression === undefined ? 0.5 : numberInRange(o.aggression, 0, 1, 'options.aggression'),
    obstacleMask: mask,
  }
}
