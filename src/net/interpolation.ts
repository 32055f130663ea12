/**
 * createInterpolation: draws the other cars `delay` seconds in the past, between the two
 * snapshots around that time, so they move smoothly although snapshots come at 20–30 Hz. After
 * each decoded snapshot, record() samples every car of the sim with the snapshot's server time;
 * each frame, time(now) gives the server time to draw and poseAt(car, t, out) the car's pose then:
 * a cubic Hermite curve through the two samples' positions and velocities (heading through yaw
 * rates), roll, pitch and height linear; past the newest sample it extrapolates for at most
 * `extrapolate` seconds, then holds. Frames allocate nothing.
 */
import { observe, onRemove, query } from 'bitecs'
import type { Sim } from '../index'
import { finiteNumber, nonNegativeInteger, nonNegativeNumber, optionKeys, optionsObject } from '../validate'

/** Options of createInterpolation. */
export interface InterpolationOptions {
  /** How far behind the newest server time cars are drawn, s (default 0.1). */
  delay?: number
  /** Samples kept per car (default 32). */
  capacity?: number
  /** Longest extrapolation past the newest sample, s (default 0.25). */
  extrapolate?: number
}

/** A car's pose for drawing. */
export interface NetPose {
  /** Centre of mass, world, m. */
  x: number
  y: number
  z: number
  /** Heading, rad (not wrapped). */
  heading: number
  /** Body roll, rad (+ = left side up). */
  roll: number
  /** Body pitch, rad (+ = nose down). */
  pitch: number
}

/** Interpolated poses of a client's cars. */
export interface Interpolation {
  /** The delay, s. */
  readonly delay: number
  /**
   * Samples every car of the sim at server time `serverTime` (the decoder's time); `now` is the
   * local clock, s (e.g. performance.now() / 1000), which time() maps onto server time.
   */
  record(serverTime: number, now: number): void
  /** The server time to draw at local time `now`: the estimated server time minus the delay (NaN before any record). */
  time(now: number): number
  /** Writes `car`'s pose at server time `t` into `out`; false (out untouched) when the car has no samples. */
  poseAt(car: number, t: number, out: NetPose): boolean
  /** Stops watching the sim for removed cars. */
  dispose(): void
}

const OPTION_KEYS = optionKeys<InterpolationOptions>({ delay: true, capacity: true, extrapolate: true })
// per sample: time, x, y, z, heading, roll, pitch, vx, vy, yawRate
const S = 10

/** Creates the interpolation of `sim`'s cars (see Interpolation). */
export function createInterpolation(sim: Sim, options?: InterpolationOptions): Interpolation {
  const o = optionsObject<InterpolationOptions>(options, 'options', OPTION_KEYS)
  const delay = o.delay === undefined ? 0.1 : nonNegativeNumber(o.delay, 'options.delay')
  const cap = o.capacity === undefined ? 32 : nonNegativeInteger(o.capacity, 'options.capacity')
  if (cap < 2) throw new RangeError(`options.capacity must be at least 2, got ${cap}`)
  const extrapolate = o.extrapolate === undefined ? 0.25 : nonNegativeNumber(o.extrapolate, 'options.extrapolate')
  // per car (by entity id): a ring of samples, its start and count
  const rings: (Float64Array | undefined)[] = []
  const start: number[] = []
  const count: number[] = []
  let offset = NaN
  let lastTime = -Infinity
  const unobserve = observe(sim.world, onRemove(sim.components.Car), (eid: number) => { count[eid] = 0 })

  function record(serverTime: number, now: number): void {
    finiteNumber(serverTime, 'serverTime')
    finiteNumber(now, 'now')
    if (serverTime <= lastTime) return
    lastTime = serverTime
    // server time ≈ now + offset: follows the stream smoothly, jumps on a large change (first record, a stall)
    const sample = serverTime - now
    offset = Number.isNaN(offset) || Math.abs(sample - offset) > 0.5 ? sample : offset + 0.1 * (sample - offset)
    const cars = query(sim.world, [sim.components.Car])
    for (let k = 0; k < cars.length; k++) {
      const car = cars[k]
      let ring = rings[car]
      if (!ring) { ring = rings[car] = new Float64Array(cap * S); start[car] = 0; count[car] = 0 }
      const st = sim.carState(car)
      const slot = (start[car] + count[car]) % cap
      if (count[car] === cap) start[car] = (start[car] + 1) % cap
      else count[car]++
      const i = slot * S
      ring[i] = serverTime
      ring[i + 1] = st.position[0]; ring[i + 2] = st.position[1]; ring[i + 3] = st.position[2]
      ring[i + 4] = st.heading; ring[i + 5] = st.roll; ring[i + 6] = st.pitch
      ring[i + 7] = st.velocity[0]; ring[i + 8] = st.velocity[1]; ring[i + 9] = st.yawRate
    }
  }

  // Offset in a car's ring of its k-th oldest sample.
  function slotOf(car: number, k: number): number {
    return ((start[car] + k) % cap) * S
  }

  function hermite(p0: number, v0: number, p1: number, v1: number, h: number, s: number): number {
    const s2 = s * s, s3 = s2 * s
    return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * h * v0 + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * h * v1
  }

  function poseAt(car: number, t: number, out: NetPose): boolean {
    const n = count[car]
    const ring = rings[car]
    if (!n || !ring) return false
    const first = slotOf(car, 0), last = slotOf(car, n - 1)
    if (!(t > ring[first])) { fill(ring, first, 0, out); return true }
    if (t >= ring[last]) { fill(ring, last, Math.min(t - ring[last], extrapolate), out); return true }
    // the newest sample at or before t (binary search over the ring's order)
    let lo = 0, hi = n - 1
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1
      if (ring[slotOf(car, mid)] <= t) lo = mid
      else hi = mid
    }
    const a = slotOf(car, lo), b = slotOf(car, hi)
    const h = ring[b] - ring[a]
    const s = (t - ring[a]) / h
    out.x = hermite(ring[a + 1], ring[a + 7], ring[b + 1], ring[b + 7], h, s)
    out.y = hermite(ring[a + 2], ring[a + 8], ring[b + 2], ring[b + 8], h, s)
    out.heading = hermite(ring[a + 4], ring[a + 9], ring[b + 4], ring[b + 9], h, s)
    out.z = ring[a + 3] + (ring[b + 3] - ring[a + 3]) * s
    out.roll = ring[a + 5] + (ring[b + 5] - ring[a + 5]) * s
    out.pitch = ring[a + 6] + (ring[b + 6] - ring[a + 6]) * s
    return true
  }

  // The pose of sample i, moved on by its velocity and yaw rate for `ahead` seconds.
  function fill(ring: Float64Array, i: number, ahead: number, out: NetPose): void {
    out.x = ring[i + 1] + ring[i + 7] * ahead
    out.y = ring[i + 2] + ring[i + 8] * ahead
    out.z = ring[i + 3]
    out.heading = ring[i + 4] + ring[i + 9] * ahead
    out.roll = ring[i + 5]
    out.pitch = ring[i + 6]
  }

  return {
    delay,
    record,
    time(now) {
      return now + offset - delay
    },
    poseAt,
    dispose() {
      unobserve()
    },
  }
}
