/**
 * Modding example: a slipstream (drafting) system in the input phase, right after the drivers
 * ('drive-paths'). A car running in another's wake has less aerodynamic drag; the system applies
 * that missing drag as a forward push on the follower's body before the vehicle step, so any
 * model at any level feels it. Wake: a follower within `reach` m behind a leader that drives the
 * same way, at most `wakeHalfWidth` m off the leader's line; the drag saved falls linearly from
 * `maxReduction` at `minGap` to 0 at `reach`. Leaders are looked up in a spatial hash of
 * `reach`-sized cells, so a step costs O(n) for a spread-out field.
 */
import { commitRemovals, registerQuery, type World } from 'bitecs'
import { getSim, type Sim } from '../../src/index'

/** Car.level of a frozen car. */
const FROZEN = 2

/** Options of addSlipstream. */
export interface SlipstreamOptions {
  /** The system's schedule name (default 'slipstream'). */
  name?: string
  /** The system it runs after (default 'drive-paths'). */
  after?: string
  /** Gap (m, nose to nose) beyond which there is no tow (default 30). */
  reach?: number
  /** Gap at which the tow is strongest (default 4). */
  minGap?: number
  /** Half width of the wake (default 1.6 m). */
  wakeHalfWidth?: number
  /** Fraction of drag saved at `minGap` (default 0.4, about what wind-tunnel studies of close following find). */
  maxReduction?: number
  /** The follower's mass (kg) and drag factor ½ρ·Cd·A (N per (m/s)²); default read from the car's definition. */
  carParams?: (car: number) => { mass: number; dragK: number }
}

/** The slipstream system's view of the field. */
export interface Slipstream {
  /** The system's schedule name. */
  readonly name: string
  /** Fraction of `car`'s drag saved in the last step (0 when not in a wake). */
  reduction(car: number): number
  /** The car whose wake `car` was in during the last step, or -1. */
  leader(car: number): number
  /** Takes the system out of the schedule. */
  remove(): void
}

/** Adds the slipstream system to `sim` (input phase, after 'drive-paths' by default). */
export function addSlipstream(sim: Sim, options: SlipstreamOptions = {}): Slipstream {
  const name = options.name ?? 'slipstream'
  const after = options.after ?? 'drive-paths'
  const reach = options.reach ?? 30
  const minGap = options.minGap ?? 4
  const halfWidth = options.wakeHalfWidth ?? 1.6
  const maxReduction = options.maxReduction ?? 0.4
  for (const [k, v] of [['reach', reach], ['minGap', minGap], ['wakeHalfWidth', halfWidth], ['maxReduction', maxReduction]] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new RangeError(`options.${k} must be a finite number >= 0, got ${String(v)}`)
  }
  if (!(reach > minGap)) throw new RangeError(`options.reach (${reach}) must be > options.minGap (${minGap})`)
  if (maxReduction > 1) throw new RangeError(`options.maxReduction must be <= 1, got ${maxReduction}`)
  const carParams = options.carParams ?? definitionParams(sim)

  const { Car } = sim.components
  // Registered once: query() would build and hash its terms (and allocate) every step.
  const allCars = registerQuery(sim.world, [Car])
  let reductions = new Float64Array(64), leaders = new Int32Array(64).fill(-1)
  let xs = new Float64Array(64), ys = new Float64Array(64), cs = new Float64Array(64), ss = new Float64Array(64), vs = new Float64Array(64)
  // Spatial hash: head[bucket] → first car index, next[i] → the next car in that bucket (-1 ends).
  let head = new Int32Array(128), next = new Int32Array(64)
  const inv = 1 / reach
  const bucketOf = (cx: number, cy: number, mask: number) => (Math.imul(cx, 73856093) ^ Math.imul(cy, 19349663)) & mask

  const system = (world: World) => {
    const s = getSim(world)
    const dt = s.dt
    commitRemovals(world)
    const cars = allCars.dense
    const n = cars.length
    if (xs.length < n) {
      const m = Math.max(n, xs.length * 2)
      xs = new Float64Array(m); ys = new Float64Array(m); cs = new Float64Array(m); ss = new Float64Array(m); vs = new Float64Array(m)
      next = new Int32Array(m)
    }
    if (head.length < 2 * n) { let m = head.length; while (m < 2 * n) m *= 2; head = new Int32Array(m) }
    const cap = reductions.length
    let maxEid = 0
    for (let i = 0; i < n; i++) if (cars[i]! > maxEid) maxEid = cars[i]!
    if (maxEid >= cap) {
      let m = cap
      while (m <= maxEid) m *= 2
      const r = new Float64Array(m); r.set(reductions); reductions = r
      const l = new Int32Array(m).fill(-1); l.set(leaders); leaders = l
    }
    const X = Car.x, Y = Car.y, H = Car.heading, V = Car.speed
    const mask = head.length - 1
    head.fill(-1)
    for (let i = 0; i < n; i++) {
      const e = cars[i]!
      xs[i] = X[e]!; ys[i] = Y[e]!; cs[i] = Math.cos(H[e]!); ss[i] = Math.sin(H[e]!); vs[i] = V[e]!
      // Only moving cars make a wake; a bucket lists them in query order (deterministic).
      if (vs[i]! < 5) continue
      const b = bucketOf(Math.floor(xs[i]! * inv), Math.floor(ys[i]! * inv), mask)
      next[i] = head[b]!
      head[b] = i
    }
    for (let i = 0; i < n; i++) {
      const e = cars[i]!
      reductions[e] = 0
      leaders[e] = -1
      if (vs[i]! < 5 || Car.level[e] === FROZEN) continue // a frozen car is not stepped: no push
      let best = 0, bestJ = -1
      const cx = Math.floor(xs[i]! * inv), cy = Math.floor(ys[i]! * inv)
      for (let ox = -1; ox <= 1; ox++) {
        for (let oy = -1; oy <= 1; oy++) {
          for (let j = head[bucketOf(cx + ox, cy + oy, mask)]!; j >= 0; j = next[j]!) {
            if (j === i) continue
            const dx = xs[j]! - xs[i]!, dy = ys[j]! - ys[i]!
            const along = dx * cs[i]! + dy * ss[i]!
            if (along <= 0 || along >= reach) continue
            // Off the leader's line, measured across the leader's heading; and both going the same way.
            const across = Math.abs(-dx * ss[j]! + dy * cs[j]!)
            if (across > halfWidth || cs[i]! * cs[j]! + ss[i]! * ss[j]! < 0.9) continue
            const r = along <= minGap ? maxReduction : (maxReduction * (reach - along)) / (reach - minGap)
            // Ties go to the lower query index, whatever order the buckets were visited in.
            if (r > best || (r === best && bestJ >= 0 && j < bestJ)) { best = r; bestJ = j }
          }
        }
      }
      if (bestJ < 0) continue
      reductions[e] = best
      leaders[e] = cars[bestJ]!
      // The drag the wake saves, as a push along the body's x axis over this host step.
      const { mass, dragK } = carParams(e)
      const v = vs[i]!
      Car.vx[e]! += ((best * dragK * v * v) / mass) * dt
    }
    return world
  }
  sim.schedule.add(system, { name, phase: 'input', after })

  return {
    name,
    reduction: (car) => (car >= 0 && car < reductions.length ? reductions[car]! : 0),
    leader: (car) => (car >= 0 && car < leaders.length ? leaders[car]! : -1),
    remove: () => { sim.schedule.remove(name) },
  }
}

/** Air density the car models' drag uses, kg/m³ (sea level, 20 °C). */
const AIR_DENSITY = 1.204

/** Mass and ½ρ·Cd·A of a car from its definition, worked out once per definition object. */
function definitionParams(sim: Sim): (car: number) => { mass: number; dragK: number } {
  const byDefinition = new WeakMap<object, { mass: number; dragK: number }>()
  return (car) => {
    const d = sim.carDefinition(car)
    let p = byDefinition.get(d)
    if (p === undefined) {
      p = { mass: d.mass, dragK: 0.5 * AIR_DENSITY * d.dragCoefficient * d.frontalArea }
      byDefinition.set(d, p)
    }
    return p
  }
}
