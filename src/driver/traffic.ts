/**
 * Traffic (setAi `traffic: 'avoid'`): each step, before the drivers steer, every avoiding driver
 * looks along its line (traffic-lines.ts: the cars on its base line in station order) and decides:
 * - the car ahead it follows: the first whose body meets the corridor it will sweep (its lateral
 *   place moving towards where it is heading); it may not go faster than lets it hold `gap`
 *   seconds behind that car at its own speed, nor than lets it still stop behind it braking at a
 *   share of its brakeDecel (a stopped or frozen car is a car at 0 m/s);
 * - a pass: when that car is slower than its own profile and within a committing distance
 *   (longer with more aggression), it picks the side with room within `width` (the side it is
 *   already passing on first, else the nearer), free from a little behind it to beyond the car;
 *   it keeps that side until its own line is free again beside and ahead of it, then goes back;
 * - room: a car alongside moving into its side bounds where it may head, within `width`.
 * It writes the speed cap and where beside its line it heads (DRIVER_CAP, DRIVER_SHIFT_GOAL),
 * moves DRIVER_SHIFT towards the goal at a lateral slope its speed allows, and the status
 * (DRIVER_AHEAD, DRIVER_GAP, DRIVER_PASSING). drive-cars.ts and path-level.ts obey them.
 * Why this way: docs/decisions/0011-traffic.md.
 */
import type { CarStore } from '../../components/car'
import type { DriverStore } from '../../components/driver'
import {
  DRIVER_AHEAD, DRIVER_CAP, DRIVER_FINISHED, DRIVER_GAP, DRIVER_PASSING, DRIVER_RECHECK, DRIVER_SHIFT, DRIVER_SHIFT_GOAL, DRIVER_STRIDE, DRIVER_TARGET,
} from '../../components/driver'
import type { DriverPath } from './drive'
import type { ResolvedCar } from '../vehicle/definition'
import {
  AT_AGGRESSION, AT_BRAKE, AT_GAP, AT_MASK, AT_OFFSET, AT_WIDTH_L, AT_WIDTH_R, bodyOf, createTrafficLines, KEPT_RUN, KEPT_STRIDE, orderLine, updateGuests,
  SLOT_HI, SLOT_HL, SLOT_HW, SLOT_LATERAL, SLOT_LO, SLOT_PACE, SLOT_SPEED, SLOT_STATION, SLOT_STRIDE,
  type TrafficLine, type TrafficLines,
} from './traffic-lines'
import type { CollisionState } from '../collision/state'
import { along, freeAlong, obstacleAhead, obstacleHit } from './traffic-bodies'

/** Bumper gap it keeps at a standstill behind a stopped car, m. */
export const STANDSTILL_GAP = 2.5
/** Behind a car slower than STOPPED_AHEAD (m/s) that it may pass (width > 0) it stops PULL_OUT_ROOM (m) farther back. */
export const STOPPED_AHEAD = 0.5, PULL_OUT_ROOM = 2.5
/** Share of its brakeDecel it counts on to stop behind the car ahead. */
export const BRAKE_SHARE = 0.7
/** How fast its speed cap closes a gap error, (m/s) per m. */
export const GAP_GAIN = 1
/** Below this speed (m/s) the time gap it holds shrinks in proportion (at walking pace a queue moves off together). */
export const FULL_GAP_SPEED = 15
/** Beyond the distance it needs to stop and hold its gap, it looks this much further ahead, m. */
export const RANGE_MARGIN = 10
/** Lateral clearance (m) under which a car ahead is in its way. */
export const BLOCK_MARGIN = 0.3
/** Lateral clearance (m) it leaves beside a car it passes or gives room to: at aggression 0 and at 1. */
export const SIDE_MARGIN_CALM = 1.0, SIDE_MARGIN_BOLD = 0.4
/** It commits to a pass within its gap distance plus COMMIT_BASE, plus COMMIT_BOLD × aggression, m. */
export const COMMIT_BASE = 6, COMMIT_BOLD = 30
/** It passes only a car slower than its profile by more than this, m/s. */
export const PASS_SPEED_MIN = 0.5
/** Length (m) behind its rear a side must be free before it moves over (a car there is about to be alongside). */
export const BACK_ROOM = 4
/** Length (m) beyond the passed car's front a side must be free. */
export const AHEAD_ROOM = 6
/** Bumper gap (m) it leaves to the car it has passed before it moves back in front of it, plus RETURN_TIME s at its speed. */
export const RETURN_GAP = 3, RETURN_TIME = 0.3
/** Its lateral slope (m beside per m along) is SHIFT_K / speed, kept within [SLOPE_MIN, SLOPE_MAX]: a lane change at a gentle lateral acceleration. */
export const SHIFT_K = 1.5, SLOPE_MIN = 0.04, SLOPE_MAX = 0.6
/** Pulling out round a car it is passing, it may crawl at CRAWL_SPEED (m/s) up to PULL_OUT_GAP (m) behind it, steering out (a queue's standstill gap is too short to pull out of otherwise). */
export const CRAWL_SPEED = 1.5, PULL_OUT_GAP = 0.5
/** Passing from below SLOW_PASS_SPEED (m/s) it keeps SLOW_PASS_ROOM (m) more room beside the car it passes. */
export const SLOW_PASS_SPEED = 5, SLOW_PASS_ROOM = 0.5
/** It moves sideways as if it went at least this fast, m/s (so a stopped car can pull out). */
export const SHIFT_MIN_SPEED = 5
/** After finding no side to pass on, or no way back yet, it looks again this much later, s (sooner when the car ahead changes). */
export const RECHECK_TIME = 0.2
/** Extra length (m) within which a car counts as alongside. */
export const ALONGSIDE_MARGIN = 1
/** A car behind closing on it counts as alongside CLOSING_TIME s early (it takes no side in front of it), and a side must be free of it for as long; the closing speed counts at most MAX_CLOSING m/s (bounds the walk back). */
export const CLOSING_TIME = 1.5, MAX_CLOSING = 8

// No car in its way yet (above every entity id).
const NO_CAR = 0x7fffffff
// Metres a walk looks beyond the farthest a car could count (rounding never drops one).
const REACH_SLACK = 0.5

/** Traffic state of a sim. */
export interface TrafficState {
  Car: CarStore
  Driver: DriverStore
  paths: readonly (DriverPath | undefined)[]
  defs: readonly (ResolvedCar | undefined)[]
  lines: TrafficLines
  /** The cars without a driver (registered query; the guests of the lines they are near). */
  others: { dense: ArrayLike<number> }
  /** Each car's half body length and half width, m, by entity id (set when it joins a line). */
  halfLength: Float64Array
  halfWidth: Float64Array
  /** The longest half body length of any car that joined a line, m (walks reach this far past their range). */
  maxHalfLength: number
  /** The sim's colliders (obstacleMask: a driver's rays look for them on its line). */
  collision: CollisionState
  /** The ground's height, m (a chassis sits half its height above it). */
  groundZ: number
}

/** Traffic over the drivers' paths and the cars' definitions. */
export function createTraffic(Car: CarStore, Driver: DriverStore, paths: readonly (DriverPath | undefined)[], defs: readonly (ResolvedCar | undefined)[], others: { dense: ArrayLike<number> }, collision: CollisionState, groundZ: number): TrafficState {
  return { Car, Driver, paths, defs, others, collision, groundZ, lines: createTrafficLines(), halfLength: new Float64Array(64), halfWidth: new Float64Array(64), maxHalfLength: 0 }
}

/** Records car `eid`'s body size for traffic (when it joins a line). */
export function recordSize(ts: TrafficState, eid: number): void {
  growSizes(ts, eid)
  const def = bodyOf(ts.defs, eid)
  ts.halfLength[eid] = 0.5 * def.length
  ts.halfWidth[eid] = 0.5 * def.width
  if (ts.halfLength[eid] > ts.maxHalfLength) ts.maxHalfLength = ts.halfLength[eid]
}

function growSizes(ts: TrafficState, eid: number): void {
  if (eid >= ts.halfLength.length) {
    let n = ts.halfLength.length
    while (n <= eid) n *= 2
    const hl = new Float64Array(n), hw = new Float64Array(n)
    hl.set(ts.halfLength); hw.set(ts.halfWidth)
    ts.halfLength = hl; ts.halfWidth = hw
  }
}

/** One traffic step of `dt` s at sim time `now` s: orders every line and runs each avoiding driver's rules (see the file's comment). */
export function stepTraffic(ts: TrafficState, dt: number, now: number): void {
  const lines = ts.lines.lines, R = ts.Driver.state, paths = ts.paths, C = ts.Car, level = C.level
  let avoiders = 0
  for (let l = 0; l < lines.length; l++) avoiders += lines[l].avoiders
  if (avoiders === 0) return // (nobody looks: no guests to project either)
  const others = ts.others.dense
  if (others.length > 0) {
    // (the guests' sizes along and across a line: the longest any may take)
    let most = 0
    for (let k = 0; k < others.length; k++) { growSizes(ts, others[k]); const d = bodyOf(ts.defs, others[k]); most = Math.max(most, 0.5 * Math.sqrt(d.length * d.length + d.width * d.width)) }
    if (most > ts.maxHalfLength) ts.maxHalfLength = most
  }
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]
    if (line.avoiders === 0) continue
    if (others.length > 0) updateGuests(line, others, C.x, C.y, C.heading, ts.halfLength, ts.halfWidth, ts.defs)
    orderLine(line, paths, R, ts.halfLength, ts.halfWidth, C.speed, level)
    const kept = line.kept
    for (let i = 0; i < line.count; i++) {
      // (a guest has no line of its own; a car that ignores traffic, or frozen, does not look)
      if (kept[i * KEPT_STRIDE + KEPT_RUN] === 0) continue
      driveInTraffic(ts, line, i, dt, now)
    }
  }
}

function clearStatus(R: Float64Array, eid: number): void {
  const o = eid * DRIVER_STRIDE
  R[o + DRIVER_AHEAD] = -1
  R[o + DRIVER_GAP] = -1
  R[o + DRIVER_CAP] = -1
}


// The lanes' query of freeLanes (a scratch record: doubles passed to a call that is not inlined would
// each be boxed): up to three lanes (lateral place, station range relative to the car), then the
// car's half width, margin and speed.
const lanes = new Float64Array(12)
const LANE_RECORD = 3, LANE_HW = 9, LANE_MARGIN = 10, LANE_V = 11
// The cap behind what is ahead, worked out every step (see driveInTraffic).
const capAhead = new Float64Array(1)


/**
 * Which lanes of the query `lanes` (bit k: lane k; only the lanes of `want`) have no car but the
 * one in slot i with its body within the lane's station range (relative to car i's) and within
 * the car's half width plus that car's plus the margin of the lane's lateral place; a car behind
 * closing on it counts with the room it covers in CLOSING_TIME. One walk each way for all lanes.
 */
function freeLanes(ts: TrafficState, line: TrafficLine, i: number, want: number): number {
  const n = line.count, slots = line.slots, si = slots[i * SLOT_STRIDE + SLOT_STATION], closed = line.closed, L = line.length, reach = ts.maxHalfLength
  const hw = lanes[LANE_HW], margin = lanes[LANE_MARGIN], v = lanes[LANE_V]
  // (behind, it looks no farther back than the line's fastest car could need: see the walk back in driveInTraffic)
  let closingMost = line.fastest - v
  closingMost = closingMost < 0 ? 0 : closingMost > MAX_CLOSING ? MAX_CLOSING : closingMost
  const behind = Math.min(CLOSING_TIME * MAX_CLOSING, CLOSING_TIME * closingMost + REACH_SLACK)
  let lo = Infinity, hi = -Infinity
  for (let k = 0; k < 3; k++) {
    if ((want & (1 << k)) === 0) continue
    if (lanes[k * LANE_RECORD + 1] < lo) lo = lanes[k * LANE_RECORD + 1]
    if (lanes[k * LANE_RECORD + 2] > hi) hi = lanes[k * LANE_RECORD + 2]
  }
  let free = want
  for (let dir = 0; dir < 2 && free !== 0; dir++) {
    const forward = dir === 0
    for (let k = 1; k < n && free !== 0; k++) {
      let j = forward ? i + k : i - k
      if (j >= n || j < 0) { if (!closed) break; j = forward ? j - n : j + n }
      const q = j * SLOT_STRIDE
      let ds = slots[q + SLOT_STATION] - si // (wrapping round a closed line, in the walk's direction)
      if (closed) { if (forward && ds < 0) ds += L; else if (!forward && ds > 0) ds -= L }
      if (forward ? ds - reach > hi : ds + reach + behind < lo) break
      // (a car behind closing on it needs the room it covers meanwhile)
      const vB = slots[q + SLOT_SPEED]
      let closing = forward || vB <= v ? 0 : vB - v
      closing = CLOSING_TIME * (closing < MAX_CLOSING ? closing : MAX_CLOSING)
      const clear = hw + slots[q + SLOT_HW] + margin, spanLo = slots[q + SLOT_LO], spanHi = slots[q + SLOT_HI], hlB = slots[q + SLOT_HL]
      for (let q = 0; q < 3; q++) {
        if ((free & (1 << q)) === 0) continue
        const o = q * LANE_RECORD
        if (ds + hlB + closing < lanes[o + 1] || ds - hlB > lanes[o + 2]) continue
        // (the car's span: where it is and where it heads)
        if (spanLo - lanes[o] < clear && lanes[o] - spanHi < clear) free &= ~(1 << q)
      }
    }
  }
  return free
}

/** The rules for the avoiding driver of the car in slot `i` of `line` (see the file's comment). */
function driveInTraffic(ts: TrafficState, line: TrafficLine, i: number, dt: number, now: number): void {
  const C = ts.Car, R = ts.Driver.state
  // (the neighbours' records in list order; the leader's size by id)
  const slots = line.slots, hlOf = ts.halfLength, hwOf = ts.halfWidth
  const cars = line.cars, n = line.count, closed = line.closed, L = line.length
  const eid = cars[i], o = eid * DRIVER_STRIDE, at = line.kept, a = i * KEPT_STRIDE, p = i * SLOT_STRIDE, si = slots[p + SLOT_STATION]
  if (R[o + DRIVER_FINISHED] === 1) { clearStatus(R, eid); return }
  const vi = slots[p + SLOT_SPEED], v = vi > 0 ? vi : 0
  const hl = slots[p + SLOT_HL], hw = slots[p + SLOT_HW], lat = slots[p + SLOT_LATERAL], off = at[a + AT_OFFSET]
  const wL = at[a + AT_WIDTH_L], wR = at[a + AT_WIDTH_R], canMove = wL + wR > 0, aggression = at[a + AT_AGGRESSION], mask = at[a + AT_MASK]
  const shift = R[o + DRIVER_SHIFT]
  let goal = R[o + DRIVER_SHIFT_GOAL], side = R[o + DRIVER_PASSING]
  const margin = SIDE_MARGIN_CALM + (SIDE_MARGIN_BOLD - SIDE_MARGIN_CALM) * aggression
  const brake = at[a + AT_BRAKE] * BRAKE_SHARE
  let slope = SHIFT_K / (v > 1 ? v : 1)
  slope = slope < SLOPE_MIN ? SLOPE_MIN : slope > SLOPE_MAX ? SLOPE_MAX : slope
  // the gap it holds: `gap` seconds at speed, less in a crawl (a standing start goes off together)
  const want = at[a + AT_GAP] * v * (v < FULL_GAP_SPEED ? v / FULL_GAP_SPEED : 1) + STANDSTILL_GAP
  const range = want + (v * v) / (2 * brake) + 2 * hl + RANGE_MARGIN
  const goalLat = off + goal, toGoal = goalLat - lat, maxHL = ts.maxHalfLength

  // --- Ahead: the first car whose body meets the corridor it sweeps (ties in station: the lower
  // id, so the choice does not hang on the list's order); cars alongside bound where it heads.
  // The walk ends past `limit` m: its range, then the car in its way (a car level with that one, of a
  // lower id, may still take its place); `inWayId` is the id of the car in its way, NO_CAR none yet.
  let inWayId = NO_CAR, limit = range + maxHL, leaderSlot = -1, gapTo = 0
  // Where its corridor can be at all (between where it is and where it heads, widened by the widest
  // car's clearance): a car whose span lies outside is in no way of it, whatever the distance.
  const nearSide = lat < goalLat ? lat : goalLat, farSide = lat < goalLat ? goalLat : lat
  const hullClear = hw + line.widest + BLOCK_MARGIN + REACH_SLACK, hullLo = nearSide - hullClear, hullHi = farSide + hullClear
  let lowest = -wR, highest = wL // where beside its line it may head (room for cars alongside)
  for (let k = 1; k < n; k++) {
    let j = i + k
    if (j >= n) { if (!closed) break; j -= n }
    const q = j * SLOT_STRIDE
    let ds = slots[q + SLOT_STATION] - si
    if (ds < 0 && closed) ds += L
    // Every comparison that decides the walk or the car in its way is made, none only after
    // another held: code first met late in a race, when a car first has another within range or a
    // second car beyond the one in its way, had the step run unoptimised (test/perf/perf.test.ts 'race frames').
    if (ds > limit) break
    // (another car's span: where it is and where it heads)
    const b = cars[j], g = ds - hl - slots[q + SLOT_HL], spanLo = slots[q + SLOT_LO], spanHi = slots[q + SLOT_HI], hwB = slots[q + SLOT_HW]
    if (g < ALONGSIDE_MARGIN && canMove) {
      // room for a car alongside: it heads no nearer than clear to it, on the side it is now
      const clear = hw + hwB + margin
      if (slots[q + SLOT_LATERAL] >= lat) { if (spanLo - clear - off < highest) highest = spanLo - clear - off } else if (spanHi + clear - off > lowest) lowest = spanHi + clear - off
    }
    if (g < 0) continue // alongside: it gives room, it does not follow
    if (spanLo > hullHi || spanHi < hullLo) continue // (beside its corridor)
    const reach = g > 0 ? g * slope : 0
    const predicted = lat + (toGoal > reach ? reach : toGoal < -reach ? -reach : toGoal)
    const clear = hw + hwB + BLOCK_MARGIN
    const inWay = (spanLo - predicted < clear ? 1 : 0) & (predicted - spanHi < clear ? 1 : 0) & (b < inWayId ? 1 : 0)
    if (inWay !== 0) { inWayId = b; limit = ds; leaderSlot = j; gapTo = g }
  }
  let leader = inWayId === NO_CAR ? -1 : inWayId
  const leaderDs = limit
  if (canMove) {
    // cars alongside a little behind it, or closing on it from behind: none closes faster than the
    // line's fastest car, so it looks no farther back than that one could need (plus a slack for rounding)
    let closingMost = line.fastest - v
    closingMost = closingMost < 0 ? 0 : closingMost > MAX_CLOSING ? MAX_CLOSING : closingMost
    const backReach = Math.min(ALONGSIDE_MARGIN + CLOSING_TIME * MAX_CLOSING + maxHL + hl, ALONGSIDE_MARGIN + CLOSING_TIME * closingMost + maxHL + hl + REACH_SLACK)
    for (let k = 1; k < n; k++) {
      let j = i - k
      if (j < 0) { if (!closed) break; j += n }
      const q = j * SLOT_STRIDE
      let ds = slots[q + SLOT_STATION] - si
      if (ds > 0 && closed) ds -= L
      if (-ds > backReach) break
      let closing = slots[q + SLOT_SPEED] - v
      closing = closing < 0 ? 0 : closing > MAX_CLOSING ? MAX_CLOSING : closing
      if (-ds - hl - slots[q + SLOT_HL] < ALONGSIDE_MARGIN + CLOSING_TIME * closing) {
        const clear = hw + slots[q + SLOT_HW] + margin, spanLo = slots[q + SLOT_LO], spanHi = slots[q + SLOT_HI]
        if (slots[q + SLOT_LATERAL] >= lat) { if (spanLo - clear - off < highest) highest = spanLo - clear - off } else if (spanHi + clear - off > lowest) lowest = spanHi + clear - off
      }
    }
  }

  // --- An obstacle (a collider of a group in obstacleMask) nearer than the car ahead: it stops behind it.
  let obstacle = -1
  if (mask !== 0) {
    obstacle = obstacleAhead(C, ts.defs, ts.collision, ts.groundZ, eid, hl, hw, leader >= 0 ? gapTo : range, mask)
    if (obstacle >= 0) { leader = -1; gapTo = obstacleHit[0] }
  }

  // --- Speed: hold the gap, and be able to stop behind it.
  let cap = -1, committed = false
  // (the lane walks of a pass or a way back: when due, or at once for another car ahead)
  const due = ((now >= R[o + DRIVER_RECHECK] ? 1 : 0) | (R[o + DRIVER_AHEAD] !== leader ? 1 : 0)) !== 0
  // The cap behind what is ahead, worked out every step (something ahead or not, so it is never
  // first met late in a race: test/perf/perf.test.ts 'race frames'); an obstacle is a car at 0 m/s.
  const something = leader >= 0 || obstacle >= 0, ahead = leader >= 0 ? leaderSlot : i
  const vb = obstacle >= 0 ? 0 : slots[ahead * SLOT_STRIDE + SLOT_PACE] // (a finished car has stopped)
  // behind a stopped car it may pass, it stops with room to pull out round it (queued closer, a car
  // cannot steer out of line without reversing)
  const extra = ((canMove ? 1 : 0) & (obstacle < 0 ? 1 : 0) & (vb < STOPPED_AHEAD ? 1 : 0)) !== 0 ? PULL_OUT_ROOM : 0
  let used = something ? gapTo : range
  let follow = vb + (used - want - extra) * GAP_GAIN
  let room = vb * vb + 2 * brake * (used - STANDSTILL_GAP - extra)
  let stop = room > 0 ? Math.sqrt(room) : 0
  capAhead[0] = Math.max(Math.min(follow, stop), 0) // (a store: the bundler moves no single-use value into the branch below)
  cap = something ? capAhead[0] : -1
  if (leader >= 0 && obstacle < 0) {
    if (side !== 0 && cap < CRAWL_SPEED) {
      // pulling out round it: a crawl, steering out, that can still stop PULL_OUT_GAP short of
      // its body (the bodies as they stand: turning, its nose swings wider than the line says)
      freeAlong(C, ts.defs, eid, leader)
      const free = along[0] - PULL_OUT_GAP
      const out = free > 0 ? Math.sqrt(2 * brake * free) : 0
      if (out > cap) cap = out < CRAWL_SPEED ? out : CRAWL_SPEED
    }
    // --- A pass: a slower car close enough, a side with room (the side it is passing on first,
    // else the nearer); with no side free it stays where it is and follows.
    if (canMove && due && R[o + DRIVER_TARGET] > vb + PASS_SPEED_MIN && gapTo < want + COMMIT_BASE + COMMIT_BOLD * aggression) {
      const was = side
      side = 0
      // (pulling out from a crawl it turns more: its corners need more room)
      const c = hw + hwOf[leader] + margin + (v < SLOW_PASS_SPEED ? SLOW_PASS_ROOM : 0)
      const left = slots[leaderSlot * SLOT_STRIDE + SLOT_HI] + c - off, right = slots[leaderSlot * SLOT_STRIDE + SLOT_LO] - c - off
      const lo = -hl - BACK_ROOM, hi = leaderDs + hlOf[leader] + AHEAD_ROOM
      lanes[LANE_HW] = hw; lanes[LANE_MARGIN] = margin; lanes[LANE_V] = v
      // lanes 0 (left) and 1 (right): lateral place, free over [lo, hi] m of station
      lanes[0] = off + left; lanes[1] = lo; lanes[2] = hi
      lanes[LANE_RECORD] = off + right; lanes[LANE_RECORD + 1] = lo; lanes[LANE_RECORD + 2] = hi
      const free = freeLanes(ts, line, i, (left >= lowest && left <= highest ? 1 : 0) | (right >= lowest && right <= highest ? 2 : 0))
      const leftFirst = was !== 0 ? was > 0 : Math.abs(left - shift) <= Math.abs(right - shift)
      if ((free & 1) !== 0 && (leftFirst || (free & 2) === 0)) { side = 1; goal = left; committed = true }
      else if ((free & 2) !== 0) { side = -1; goal = right; committed = true }
      if (side === 0) { side = was; R[o + DRIVER_RECHECK] = now + RECHECK_TIME } // (no side free: it stays where it is)
    }
  }
  // --- Back to its own line once it is free beside it and as far ahead as it would commit to a
  // pass (a shorter reach would have it go back and out again towards a car it is catching).
  if (side !== 0 && !committed && due) {
    const back = RETURN_GAP + RETURN_TIME * v, ahead = hl + want + COMMIT_BASE + COMMIT_BOLD * aggression
    lanes[LANE_HW] = hw; lanes[LANE_MARGIN] = margin; lanes[LANE_V] = v
    // lane 2: its own line
    lanes[2 * LANE_RECORD] = off; lanes[2 * LANE_RECORD + 1] = -hl - ts.maxHalfLength * 2 - back; lanes[2 * LANE_RECORD + 2] = ahead
    if (freeLanes(ts, line, i, 4) !== 0) goal = 0
    else R[o + DRIVER_RECHECK] = now + RECHECK_TIME
  }
  if (side === 0) goal = 0
  if (goal < lowest) goal = lowest
  if (goal > highest) goal = highest
  if (goal < -wR) goal = -wR
  if (goal > wL) goal = wL
  const step = slope * (v > SHIFT_MIN_SPEED ? v : SHIFT_MIN_SPEED) * dt
  const next = shift + (goal - shift > step ? step : goal - shift < -step ? -step : goal - shift)
  if (side !== 0 && goal === 0 && next === 0) side = 0
  R[o + DRIVER_SHIFT] = next
  R[o + DRIVER_SHIFT_GOAL] = goal
  R[o + DRIVER_PASSING] = side
  R[o + DRIVER_CAP] = cap
  R[o + DRIVER_AHEAD] = obstacle >= 0 ? obstacle : leader
  R[o + DRIVER_GAP] = leader >= 0 || obstacle >= 0 ? gapTo : -1
}
