/**
 * createInterpolation: draws the other cars `delay` seconds in the past, between the two
 * snapshots around that time, so they move smoothly although snapshots come at 20–30 Hz. After
 * each decoded snapshot, record() samples every car of the sim with the snapshot's server time;
 * each frame, update(now) sets the server time to draw (now mapped onto server time, minus the
 * delay) and poseAt(car, out) writes the car's pose then into a Float64Array (a typed array, as an
 * object's number fields would box a double a write):
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

/** Numbers poseAt writes: x, y, z (centre of mass, world, m), heading (rad, not wrapped), roll (+ = left side up), pitch (+ = nose down). */
export const POSE_STRIDE = 6

/** Interpolated poses of a client's cars. */
export interface Interpolation {
  /** The delay, s. */
  readonly delay: number
  /**
   * Samples every car of the sim at server time `serverTime` (the decoder's time); `now` is the
   * local clock, s (e.g. performance.now() / 1000), which time() and update() map onto server time.
   */
  record(serverTime: number, now: number): void
  /** The server time to draw at local time `now`: the estimated server time minus the delay (NaN before any record). */
  time(now: number): number
  /** Once a frame: sets the time poseAt draws at to time(now). */
  update(now: number): void
  /** Sets the time poseAt draws at to server time `t` directly. */
  seek(t: number): void
  /** The server time poseAt draws at, s. */
  readonly renderTime: number
  /**
   * Writes `car`'s pose at the render time into `out[offset .. offset + 6)`: x, y, z, heading,
   * roll, pitch (POSE_STRIDE numbers; one buffer may hold every car's). False (out untouched) when
   * the car has no samples. The time is set by update/seek rather than passed, because a double
   * passed to a call V8 does not inline is boxed: a heap number per car per frame (test/net/interpolation.test.ts measures a frame's allocation).
   */
  poseAt(car: number, out: Float64Array, offset?: number): boolean
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
  // the render time lives in a typed array: reading it in poseAt boxes nothing
  const render = new Float64Array(1)
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

  function poseAt(car: number, out: Float64Array, offset = 0): boolean {
    if (!(out instanceof Float64Array)) throw new TypeError('out must be a Float64Array')
    if (!(offset >= 0 && offset + POSE_STRIDE <= out.length) || !Number.isInteger(offset)) throw new RangeError(`offset must be an integer with offset + ${POSE_STRIDE} <= out.length (${out.length}), got ${offset}`)
    const n = count[car]
    const ring = rings[car]
    if (!n || !ring) return false
    const t = render[0]
    const first = slotOf(car, 0), last = slotOf(car, n - 1)
    if (!(t > ring[first])) { fill(ring, first, 0, out, offset); return true }
    if (t >= ring[last]) { fill(ring, last, Math.min(t - ring[last], extrapolate), out, offset); return true }
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
    out[offset] = hermite(ring[a + 1], ring[a + 7], ring[b + 1], ring[b + 7], h, s)
    out[offset + 1] = hermite(ring[a + 2], ring[a + 8], ring[b + 2], ring[b + 8], h, s)
    out[offset + 2] = ring[a + 3] + (ring[b + 3] - ring[a + 3]) * s
    out[offset + 3] = hermite(ring[a + 4], ring[a + 9], ring[b + 4], ring[b + 9], h, s)
    out[offset + 4] = ring[a + 5] + (ring[b + 5] - ring[a + 5]) * s
    out[offset + 5] = ring[a + 6] + (ring[b + 6] - ring[a + 6]) * s
    return true
  }

  // The pose of sample i, moved on by its velocity and yaw rate for `ahead` seconds.
  function fill(ring: Float64Array, i: number, ahead: number, out: Float64Array, o: number): void {
    out[o] = ring[i + 1] + ring[i + 7] * ahead
    out[o + 1] = ring[i + 2] + ring[i + 8] * ahead
    out[o + 2] = ring[i + 3]
    out[o + 3] = ring[i + 4] + ring[i + 9] * ahead
    out[o + 4] = ring[i + 5]
    out[o + 5] = ring[i + 6]
  }

  return {
    delay,
    record,
    time(now) {
      return now + offset - delay
    },
    update(now) {
      render[0] = now + offset - delay
    },
    seek(t) {
      render[0] = finiteNumber(t, 't')
    },
    get renderTime() { return render[0] },
    poseAt,
    dispose() {
      unobserve()
    },
  }
}
