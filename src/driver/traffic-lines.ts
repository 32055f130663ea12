/**
 * Traffic's view of the road: every driven car on a base line (the points given to setAi, open or
 * closed; any lateral offset) in one list ordered by its station, the base line's arc length at
 * the car. A step re-sorts each list by insertion (cars overtake rarely, so it is nearly sorted
 * and the sort is linear); a driver then finds the cars round it by walking its neighbours in the
 * list, never by testing every pair. A car's lateral place on the base line is its lateral offset
 * plus its distance from its own line (DRIVER_LATERAL).
 *
 * Cars without a driver (a player's car, a parked or frozen car) are guests of every line they are
 * near: each step projects them onto the line (searching near their last projection) and lists
 * them while they are within GUEST_REACH of it, with the length and width they take along and
 * across it at their heading; the drivers treat them as any car.
 */
import type { Polyline } from './polyline'
import { polylineFromArrays, SEG_LEN, SEG_S, SEG_STRIDE, SEG_TX, SEG_TY, SEG_X, SEG_Y } from './polyline'
import { resolveAiOptions } from './options'
import { STATIONS_STRIDE, type DriverPath } from './drive'
import type { ResolvedCar } from '../vehicle/definition'
import { FROZEN_LEVEL } from '../vehicle/level'
import type { ResolvedAiOptions } from './options'
import { DRIVER_LATERAL, DRIVER_S, DRIVER_SEG, DRIVER_SHIFT_GOAL, DRIVER_STRIDE } from '../../components/driver'

/** The driven cars on one base line, ordered by station. */
export interface TrafficLine {
  /** The base line (the validated points of setAi). */
  readonly base: Polyline
  /** Its length, m (a closed line's stations wrap at it). */
  readonly length: number
  readonly closed: boolean
  /** The cars in station order (the first `count` entries). */
  cars: Int32Array
  /**
   * What the walks read of each listed car this step, SLOT_STRIDE numbers per car in list order
   * (one record per car: a walk reads one cache line per neighbour, not one per array): see SLOT_*.
   */
  slots: Float64Array
  /**
   * What a listed car keeps from step to step, KEPT_STRIDE numbers per car in list order (moved with
   * it by the sort): its station at hand and its options (see KEPT_*). A step reads it in list order
   * with the car's slot, not by entity id from a table of its own.
   */
  kept: Float64Array
  /** The highest speed of a listed car this step (0 when none is faster), m/s: no car behind one closes on it faster than this. */
  fastest: number
  /** The largest half width of a listed car this step, m. */
  widest: number
  count: number
  /** Each guest's last projection's segment on the base line, by entity id (−1: none yet; grows). */
  guestSeg: Int32Array
  /** 1 while a car is listed here as a guest, by entity id (grows). */
  guest: Uint8Array
  /** How many of its cars avoid (traffic 'avoid'): a line with none is not looked at. */
  avoiders: number
  /** Where each car without a driver was when last found far from the line, and by how much it was beyond GUEST_REACH (3 numbers by entity id): it is not looked for again until it has moved that far. */
  guestFar: Float64Array
  /** Each guest's station and lateral place this step, by entity id (grow with guest). */
  guestStation: Float64Array
  guestLateral: Float64Array
}

/** The traffic lines of a sim and each driven car's line. */
export interface TrafficLines {
  readonly lines: TrafficLine[]
  /** Each driven car's line (an index into lines), −1 none; by entity id. */
  lineOf: Int32Array
  /** 1 when a driven car avoids (counted in its line's avoiders), by entity id. */
  avoids: Uint8Array
}

/** Numbers per listed car in TrafficLine.slots. */
export const SLOT_STRIDE = 8
/**
 * Offsets in a TrafficLine.slots record: the car's station, m; its lateral place on the base line,
 * m (+ left); the span of lateral places it takes between where it is and where it heads (its shift
 * goal), m; its half body length and half width along and across the line, m; its speed, m/s; the
 * speed a car behind it counts it at (a frozen or reversing car at 0), m/s.
 */
export const SLOT_STATION = 0, SLOT_LATERAL = 1, SLOT_LO = 2, SLOT_HI = 3, SLOT_HL = 4, SLOT_HW = 5, SLOT_SPEED = 6, SLOT_PACE = 7

/** Numbers per listed car in TrafficLine.kept. */
export const KEPT_STRIDE = 16
/**
 * Offsets in a TrafficLine.kept record: 1 for a guest (0 a driver of this line); 1 when it runs
 * traffic's rules this step (a driver that avoids, not frozen: set by orderLine); its station at
 * hand (the segment they are for, the station and arc length at its start, the station's rate: a
 * step reads the path's tables only when a car reaches another segment).
 */
const KEPT_GUEST = 0, KEPT_SEG = 2, KEPT_STATION = 3, KEPT_S = 4, KEPT_RATE = 5
/** Offset in a TrafficLine.kept record: 1 when the car runs traffic's rules this step (a driver here that avoids, not frozen). */
export const KEPT_RUN = 1
/** Offsets in a TrafficLine.kept record: a driver's options lateralOffset, width (left, right), gap, brakeDecel, aggression, obstacleMask. */
export const AT_OFFSET = 6, AT_WIDTH_L = 7, AT_WIDTH_R = 8, AT_GAP = 9, AT_BRAKE = 10, AT_AGGRESSION = 11, AT_MASK = 12
// (offset 13: 1 when the driver avoids; 14 and 15: a driver's half body length and width, m)
const KEPT_AVOIDS = 13, KEPT_HL = 14, KEPT_HW = 15

/** No lines yet. */
export function createTrafficLines(): TrafficLines {
  primeLines()
  return { lines: [], lineOf: new Int32Array(64).fill(-1), avoids: new Uint8Array(64) }
}

function sameLine(a: Polyline, b: Polyline): boolean {
  if (a === b) return true
  if (a.n !== b.n || a.closed !== b.closed) return false
  for (let i = 0; i < a.n; i++) if (a.x[i] !== b.x[i] || a.y[i] !== b.y[i]) return false
  return true
}

/** Puts car `eid`, whose driver has `options` and whose body is `halfLength` by `halfWidth` m, on the line of `base` (after leaveLine). */
export function joinLine(tl: TrafficLines, eid: number, base: Polyline, options: ResolvedAiOptions, halfLength: number, halfWidth: number): void {
  const avoid = options.traffic === 'avoid'
  let index = tl.lines.findIndex((l) => sameLine(l.base, base))
  if (index < 0) {
    index = tl.lines.length
    tl.lines.push({
      base, length: base.length, closed: base.closed, cars: new Int32Array(16), slots: new Float64Array(16 * SLOT_STRIDE), kept: new Float64Array(16 * KEPT_STRIDE), fastest: 0, widest: 0, count: 0, avoiders: 0,
      guestSeg: new Int32Array(0), guest: new Uint8Array(0), guestStation: new Float64Array(0), guestLateral: new Float64Array(0), guestFar: new Float64Array(0),
    })
  }
  const line = tl.lines[index]
  if (eid >= line.guest.length) growGuests(line, eid)
  if (line.guest[eid] === 1) removeListed(line, eid) // (a guest that now drives here)
  append(line, eid)
  if (eid >= tl.lineOf.length) {
    let n = tl.lineOf.length
    while (n <= eid) n *= 2
    const lineOf = new Int32Array(n).fill(-1), avoids = new Uint8Array(n)
    lineOf.set(tl.lineOf); avoids.set(tl.avoids)
    tl.lineOf = lineOf; tl.avoids = avoids
  }
  const at = line.kept, a = (line.count - 1) * KEPT_STRIDE
  at[a + KEPT_GUEST] = 0
  at[a + KEPT_AVOIDS] = avoid ? 1 : 0
  at[a + KEPT_HL] = halfLength
  at[a + KEPT_HW] = halfWidth
  at[a + AT_OFFSET] = options.lateralOffset
  at[a + AT_WIDTH_L] = options.width[0]
  at[a + AT_WIDTH_R] = options.width[1]
  at[a + AT_GAP] = options.gap
  at[a + AT_BRAKE] = options.brakeDecel
  at[a + AT_AGGRESSION] = options.aggression
  at[a + AT_MASK] = options.obstacleMask
  tl.lineOf[eid] = index
  tl.avoids[eid] = avoid ? 1 : 0
  if (avoid) line.avoiders++
}

// Lists `eid` at the end of `line` (the next step's sort puts it in place), as a guest until the
// caller says otherwise (its kept record is all zero but the segment: none yet).
function append(line: TrafficLine, eid: number): void {
  if (line.count === line.cars.length) {
    const cars = new Int32Array(2 * line.count), kept = new Float64Array(2 * line.count * KEPT_STRIDE)
    cars.set(line.cars); kept.set(line.kept)
    line.cars = cars; line.kept = kept
    line.slots = new Float64Array(2 * line.count * SLOT_STRIDE)
  }
  const a = line.count * KEPT_STRIDE
  line.kept.fill(0, a, a + KEPT_STRIDE)
  line.kept[a + KEPT_GUEST] = 1
  line.kept[a + KEPT_SEG] = -1
  line.cars[line.count++] = eid
}

// Takes `eid` out of `line`'s list (and its guest mark).
function removeListed(line: TrafficLine, eid: number): void {
  if (eid < line.guest.length) line.guest[eid] = 0
  const cars = line.cars
  let k = 0
  while (k < line.count && cars[k] !== eid) k++
  if (k === line.count) return
  cars.copyWithin(k, k + 1, line.count)
  line.kept.copyWithin(k * KEPT_STRIDE, (k + 1) * KEPT_STRIDE, line.count * KEPT_STRIDE)
  line.count--
}

/** Takes car `eid` off its line (nothing when it has none). */
export function leaveLine(tl: TrafficLines, eid: number): void {
  if (eid >= tl.lineOf.length || tl.lineOf[eid] < 0) return
  const line = tl.lines[tl.lineOf[eid]]
  tl.lineOf[eid] = -1
  if (tl.avoids[eid] === 1) { line.avoiders--; tl.avoids[eid] = 0 }
  removeListed(line, eid)
}

/** Takes car `eid` off every line it is a guest of (it is removed). */
export function dropGuest(tl: TrafficLines, eid: number): void {
  for (let l = 0; l < tl.lines.length; l++) {
    const line = tl.lines[l]
    if (eid < line.guest.length && line.guest[eid] === 1) removeListed(line, eid)
    if (eid < line.guestSeg.length) { line.guestSeg[eid] = -1; line.guestFar[3 * eid + 2] = 0 }
  }
}

/** A body's size when a car has no definition (a stand-in model of the user's), m. */
const DEFAULT_BODY = { length: 4.5, width: 1.8, height: 1.5 }

/** Car `eid`'s body (length, width, height, m): its definition's, or DEFAULT_BODY. */
export function bodyOf(defs: readonly (ResolvedCar | undefined)[], eid: number): { readonly length: number; readonly width: number; readonly height: number } {
  const d = defs[eid]
  return d === undefined ? DEFAULT_BODY : d.def
}

// Grows `line`'s guest arrays to hold entity id `eid` (every listed car has a slot: the step reads guest[eid] for each).
function growGuests(line: TrafficLine, eid: number): void {
  let n = line.guest.length > 0 ? line.guest.length : 64
  while (n <= eid) n *= 2
  const guest = new Uint8Array(n), seg = new Int32Array(n).fill(-1), st = new Float64Array(n), lat = new Float64Array(n), far = new Float64Array(3 * n)
  guest.set(line.guest); seg.set(line.guestSeg); st.set(line.guestStation); lat.set(line.guestLateral); far.set(line.guestFar)
  line.guest = guest; line.guestSeg = seg; line.guestStation = st; line.guestLateral = lat; line.guestFar = far
}

/** Farthest a guest may be from a line to be listed on it, m. */
export const GUEST_REACH = 15
/** Segments either side of its last projection a guest's projection searches first. */
const GUEST_WINDOW = 6
// Scratch of a guest's projection (single-threaded: shared; doubles passed to or returned from a
// call that is not inlined would each be boxed): the point in, then station, lateral, segment,
// tangent direction and squared distance out.
const guestAt = new Float64Array(7)
const GUEST_X = 5, GUEST_Y = 6, GUEST_D2 = 4

// Projects the point (guestAt[GUEST_X], guestAt[GUEST_Y]) onto segments [first, first + count) of
// `base` (wrapping when closed, clipped to the line when open) and writes guestAt where it is nearer
// than guestAt[GUEST_D2] already says. The segment index wraps by arithmetic and the side by a sign
// factor, not by branches taken only when a guest nears the line's ends or its other side: code first
// met late in a race ran unoptimised and allocated (test/perf/perf.test.ts 'race frames').
function projectRun(base: Polyline, first: number, count: number): void {
  const p = base.packed, segments = base.segments, x = guestAt[GUEST_X], y = guestAt[GUEST_Y], open = base.closed ? 0 : 1
  const from = open * Math.max(first, 0) + (1 - open) * first, to = open * Math.min(first + count, segments) + (1 - open) * (first + count)
  let bestD2 = guestAt[GUEST_D2]
  for (let r = from; r < to; r++) {
    const q = ((r % segments) + segments) % segments
    const o = q * SEG_STRIDE, tx = p[o + SEG_TX], ty = p[o + SEG_TY], len = p[o + SEG_LEN]
    const dx = x - p[o + SEG_X], dy = y - p[o + SEG_Y]
    let t = dx * tx + dy * ty
    t = t < 0 ? 0 : t > len ? len : t
    const ex = dx - tx * t, ey = dy - ty * t, d2 = ex * ex + ey * ey
    if (d2 < bestD2) {
      bestD2 = d2
      guestAt[0] = p[o + SEG_S] + t
      guestAt[1] = (tx * dy - ty * dx < 0 ? -1 : 1) * Math.sqrt(d2)
      guestAt[2] = q
      guestAt[3] = Math.atan2(ty, tx)
    }
  }
  guestAt[GUEST_D2] = bestD2
}

/**
 * Lists on `line` the cars of `others` (cars without a driver) within GUEST_REACH of it, drops
 * those gone beyond it; each guest's size along and across the line goes into halfLength/halfWidth.
 */
export function updateGuests(line: TrafficLine, others: ArrayLike<number>, X: Float64Array, Y: Float64Array, heading: Float64Array, halfLength: Float64Array, halfWidth: Float64Array, defs: readonly (ResolvedCar | undefined)[]): void {
  for (let k = 0; k < others.length; k++) {
    const eid = others[k]
    if (eid >= line.guest.length) growGuests(line, eid)
    // still far: it has not moved as far as it was beyond reach when last looked for (no full search)
    const far = line.guestFar, f = 3 * eid, x = X[eid], y = Y[eid], farX = far[f], farY = far[f + 1], farBy = far[f + 2]
    const mx = x - farX, my = y - farY, stillFar = mx * mx + my * my < farBy * farBy
    const hint = line.guestSeg[eid], listed = line.guest[eid] === 1, segments = line.base.segments
    guestAt[GUEST_X] = x; guestAt[GUEST_Y] = y; guestAt[GUEST_D2] = Infinity
    // Everything below is done for every guest every step, near or far, every value read before it is
    // chosen (stores to a scratch slot when far; the search of the whole line over no segments when
    // not wanted): a guest first coming near late in a race met code not run before, which ran
    // unoptimised and allocated for many frames (test/perf/perf.test.ts 'race frames').
    projectRun(line.base, hint >= 0 ? hint - GUEST_WINDOW : 0, hint >= 0 ? 2 * GUEST_WINDOW + 1 : 1)
    const windowD2 = guestAt[GUEST_D2], whole = !stillFar && !(windowD2 <= GUEST_REACH * GUEST_REACH)
    guestAt[GUEST_D2] = whole ? Infinity : windowD2
    projectRun(line.base, 0, whole ? segments : 0)
    const d2 = guestAt[GUEST_D2], near = d2 <= GUEST_REACH * GUEST_REACH
    line.guestSeg[eid] = guestAt[2]
    far[f] = stillFar ? farX : x; far[f + 1] = stillFar ? farY : y
    far[f + 2] = stillFar ? farBy : near ? 0 : Math.sqrt(d2) - GUEST_REACH
    if (near && !listed) append(line, eid)
    else if (!near && listed) removeListed(line, eid)
    line.guest[eid] = near ? 1 : 0
    const def = bodyOf(defs, eid), rel = heading[eid] - guestAt[3], c = Math.abs(Math.cos(rel)), s = Math.abs(Math.sin(rel))
    const at = near ? eid : 0, hl = near ? halfLength : farScratch, hw = near ? halfWidth : farScratch
    hl[at] = 0.5 * (def.length * c + def.width * s)
    hw[at] = 0.5 * (def.length * s + def.width * c)
    const guestStation = line.guestStation, guestLateral = line.guestLateral
    const st = near ? guestStation : farScratch, lat = near ? guestLateral : farScratch
    st[at] = guestAt[0]
    lat[at] = guestAt[1]
  }
}

// Where updateGuests writes what it works out for a guest that is far (see there).
const farScratch = new Float64Array(1)


/**
 * Reads every listed car's station and lateral place (from its driver record; a guest's from its
 * projection; a driver's size is kept, a guest's read by id from `halfLength`, `halfWidth`), speed
 * and level, and sorts the list by station as it goes (insertion sort: the list is nearly sorted from
 * the last step, and the records before a car are in order when it is read). Ties keep their order.
 */
export function orderLine(line: TrafficLine, paths: readonly (DriverPath | undefined)[], R: Float64Array, halfLength: Float64Array, halfWidth: Float64Array, speed: Float64Array, level: Uint8Array): void {
  const cars = line.cars, slots = line.slots, at = line.kept, n = line.count, L = line.length, closed = line.closed
  const guestStation = line.guestStation, guestLateral = line.guestLateral
  let fastest = 0, widest = 0, last = -Infinity
  for (let k = 0, q = 0, a = 0; k < n; k++, q += SLOT_STRIDE, a += KEPT_STRIDE) {
    const eid = cars[k], v = speed[eid], isGuest = at[a + KEPT_GUEST] === 1, frozen = level[eid] === FROZEN_LEVEL
    if (v > fastest) fastest = v
    at[a + KEPT_RUN] = isGuest || frozen ? 0 : at[a + KEPT_AVOIDS]
    // A guest's place (projected by updateGuests this step; every listed car has a slot) is read for
    // every car (a driver's from entry 0, which is at hand: no load by id) and a driver's overwrites
    // it, so a guest first listed late in a race meets no code not run before (test/perf/perf.test.ts 'race frames').
    const g = isGuest ? eid : 0
    let st = guestStation[g], lat = guestLateral[g], goal = lat
    if (!isGuest) {
      const o = eid * DRIVER_STRIDE, seg = R[o + DRIVER_SEG] | 0
      if (at[a + KEPT_SEG] !== seg) {
        // another segment: its arc length, station and rate from the path's station table (one record)
        const path = paths[eid]!, table = path.station, t = STATIONS_STRIDE * seg
        const s0 = table === null ? path.packed[seg * SEG_STRIDE + SEG_S] : table[t]
        at[a + KEPT_SEG] = seg
        at[a + KEPT_S] = s0
        at[a + KEPT_STATION] = table === null ? s0 : table[t + 1]
        at[a + KEPT_RATE] = table === null ? 1 : table[t + 2]
      }
      st = at[a + KEPT_STATION] + (R[o + DRIVER_S] - at[a + KEPT_S]) * at[a + KEPT_RATE]
      // (wrapped by a factor, not a branch: a car first behind the line's start late in a race)
      const wrap = closed ? (st < 0 ? 1 : 0) - (st >= L ? 1 : 0) : 0
      st += wrap * L
      lat = at[a + AT_OFFSET] + R[o + DRIVER_LATERAL]
      goal = at[a + AT_OFFSET] + R[o + DRIVER_SHIFT_GOAL]
    }
    slots[q + SLOT_STATION] = st
    slots[q + SLOT_LATERAL] = lat
    slots[q + SLOT_LO] = lat < goal ? lat : goal
    slots[q + SLOT_HI] = lat < goal ? goal : lat
    // (a guest's size along and across the line changes with its heading: by id, read for every car as its place above)
    const hlGuest = halfLength[g], hwGuest = halfWidth[g]
    slots[q + SLOT_HL] = isGuest ? hlGuest : at[a + KEPT_HL]
    const hw = isGuest ? hwGuest : at[a + KEPT_HW]
    if (hw > widest) widest = hw
    slots[q + SLOT_HW] = hw
    slots[q + SLOT_SPEED] = v
    slots[q + SLOT_PACE] = frozen || v < 0 ? 0 : v
    // (`last`: the highest station before it, that of the car before it once those are in order)
    if (st < last) sink(line, k, st)
    else last = st
  }
  line.fastest = fastest
  line.widest = widest
}

// Moves the car in list entry k of `line` (station `st`) and its records down past every car before
// it with a higher station (entries before k are in order).
function sink(line: TrafficLine, k: number, st: number): void {
  const cars = line.cars, slots = line.slots, at = line.kept
  // (the car and its records move down past every car ahead of it: the scratch holds its records)
  const eid = cars[k]
  for (let f = 0; f < SLOT_STRIDE; f++) slotScratch[f] = slots[k * SLOT_STRIDE + f]
  for (let f = 0; f < KEPT_STRIDE; f++) keptScratch[f] = at[k * KEPT_STRIDE + f]
  let j = k - 1
  while (j >= 0 && slots[j * SLOT_STRIDE + SLOT_STATION] > st) {
    cars[j + 1] = cars[j]
    for (let f = 0; f < SLOT_STRIDE; f++) slots[(j + 1) * SLOT_STRIDE + f] = slots[j * SLOT_STRIDE + f]
    for (let f = 0; f < KEPT_STRIDE; f++) at[(j + 1) * KEPT_STRIDE + f] = at[j * KEPT_STRIDE + f]
    j--
  }
  for (let f = 0; f < SLOT_STRIDE; f++) slots[(j + 1) * SLOT_STRIDE + f] = slotScratch[f]
  for (let f = 0; f < KEPT_STRIDE; f++) at[(j + 1) * KEPT_STRIDE + f] = keptScratch[f]
  cars[j + 1] = eid
}

// One slot record and one kept record in orderLine's sort.
const slotScratch = new Float64Array(SLOT_STRIDE), keptScratch = new Float64Array(KEPT_STRIDE)

let primed = false

/**
 * Runs the line code on two throwaway lines, an open and a closed one (once per process, over
 * enough steps that the engine keeps what it saw): a guest coming near and going, near the closed
 * line's start, cars out of order, a car on another segment and behind the start. A guest first
 * coming near a line late in a race met these paths unoptimised and allocated for many frames
 * (test/perf/perf.test.ts 'race frames').
 */
function primeLines(): void {
  if (primed) return
  primed = true
  const tl: TrafficLines = { lines: [], lineOf: new Int32Array(64).fill(-1), avoids: new Uint8Array(64) }
  const open = polylineFromArrays([0, 50, 100, 150], [0, 0, 0, 0], false), closed = polylineFromArrays([0, 50, 50, 0], [0, 0, 50, 50], true)
  const openPath = { station: null, packed: open.packed } as unknown as DriverPath, closedPath = { station: null, packed: closed.packed } as unknown as DriverPath
  const paths = [openPath, openPath, undefined, closedPath, closedPath], R = new Float64Array(5 * DRIVER_STRIDE)
  const options = resolveAiOptions(undefined)
  joinLine(tl, 0, open, options, 2, 1)
  joinLine(tl, 1, open, options, 2, 1)
  joinLine(tl, 3, closed, options, 2, 1)
  joinLine(tl, 4, closed, options, 2, 1)
  const X = new Float64Array(5), Y = new Float64Array(5), H = new Float64Array(5)
  const HL = new Float64Array(5), HW = new Float64Array(5), levels = new Uint8Array([0, FROZEN_LEVEL, 0, 0, FROZEN_LEVEL]), defs: (ResolvedCar | undefined)[] = [undefined, undefined, undefined, undefined, undefined]
  for (let step = 0; step < 64; step++) {
    // cars 0 and 3 ahead of cars 1 and 4, then behind them (another segment; car 3 behind the
    // closed line's start); the guest (car 2) near, then far, on either side of the lines and round the closed one's start
    // (fractional numbers throughout: what the engine sees of the numbers matters too)
    const s = step & 3, e = 0.37 + 0.01 * step
    R[DRIVER_S] = s & 1 ? 10 + e : 60 + e; R[DRIVER_SEG] = s & 1 ? 0 : 1
    R[DRIVER_STRIDE + DRIVER_S] = 30 + e; R[DRIVER_STRIDE + DRIVER_LATERAL] = s - 1.5 + e
    R[3 * DRIVER_STRIDE + DRIVER_S] = s & 1 ? -1 - e : 20 + e; R[3 * DRIVER_STRIDE + DRIVER_SEG] = 0
    R[4 * DRIVER_STRIDE + DRIVER_S] = 10 + e; R[4 * DRIVER_STRIDE + DRIVER_SEG] = s & 2 ? 3 : 0
    X[2] = s & 1 ? 2 + e : 45 + e; Y[2] = s < 2 ? (step & 4 ? 1 + e : -1 - e) : 1000 + 7 * e; H[2] = e
    for (const line of tl.lines) {
      updateGuests(line, [2], X, Y, H, HL, HW, defs)
      orderLine(line, paths, R, HL, HW, X, levels)
    }
  }
  leaveLine(tl, 3)
  leaveLine(tl, 0)
  dropGuest(tl, 2)
}
