/**
 * Polyline: a 2D path as typed arrays with cumulative arc length, built from nested (`[[x, y], …]`)
 * or flat (`[x0, y0, …]`, typed arrays too) points. A closed polyline joins its last point to its
 * first. Sampling by arc length uses a binary search over the cumulative lengths.
 */
import { describe } from '../validate'

/** A validated 2D polyline with cumulative arc length, m (read-only for users). */
export interface Polyline {
  /** Point x coordinates, m. */
  readonly x: Float64Array
  /** Point y coordinates, m. */
  readonly y: Float64Array
  /** Number of points. */
  readonly n: number
  /** True when the last point joins the first. */
  readonly closed: boolean
  /** Number of segments: n when closed, n − 1 when open; segment i runs from point i to i + 1 (mod n). */
  readonly segments: number
  /** Arc length at each point; s[segments] is the total length (n + 1 entries). */
  readonly s: Float64Array
  /** Unit tangent of each segment. */
  readonly tx: Float64Array
  /** Unit tangent of each segment. */
  readonly ty: Float64Array
  /** Total length, m. */
  readonly length: number
  /**
   * @internal The segments packed for the per-step work, SEG_STRIDE numbers each (see SEG_*): start x, y,
   * unit tangent x, y, arc length at the start, length, and the driver's profile speed² at the
   * segment's start and its acceleration along it (0 until a driver path fills them). A driven car's step reads only
   * this array of its path (one 64-byte record per segment).
   */
  readonly packed: Float64Array
  /**
   * @internal The least gap (m) the window search compares against its reach: from any
   * segment's start back to the previous one's, and from its end on to the start of the one after
   * next. A reach below it means the window is the hint and the segment after it, so the search
   * reads no other records.
   */
  readonly narrowGap: number
  /**
   * @internal tan² of the sharpest turn from one segment to the next, rounded up (Infinity for a turn of 90°
   * or more): the window search uses it to skip a segment that cannot be the closer.
   */
  readonly turnTan2: number
}

/** Numbers per segment in Polyline.packed (8 doubles: one 64-byte cache line). */
export const SEG_STRIDE = 8
/** Offsets in a Polyline.packed record: start point, unit tangent, arc length at the start, length. */
export const SEG_X = 0, SEG_Y = 1, SEG_TX = 2, SEG_TY = 3, SEG_S = 4, SEG_LEN = 5
/** Offsets in a Polyline.packed record: the speed profile's v² at the segment's start (m²/s²) and its acceleration v·dv/ds along it (m/s², v² linear). */
export const SEG_V2 = 6, SEG_ACCEL = 7

/** Points closer than this are one point (m). */
const SAME_POINT = 1e-9

/** Reads `path` (nested or flat points) into x/y arrays; throws a TypeError/RangeError naming `name`. */
export function readPoints(path: unknown, name: string): { x: number[]; y: number[] } {
  if (path === null || typeof path !== 'object' || typeof (path as ArrayLike<unknown>).length !== 'number') {
    throw new TypeError(`${name} must be an array of [x, y] points or a flat [x0, y0, …] array, got ${describe(path)}`)
  }
  const a = path as ArrayLike<unknown>
  const x: number[] = []
  const y: number[] = []
  const nested = a.length > 0 && a[0] !== null && typeof a[0] === 'object'
  if (nested) {
    for (let i = 0; i < a.length; i++) {
      const p = a[i] as ArrayLike<unknown>
      if (p === null || typeof p !== 'object' || typeof p.length !== 'number') throw new TypeError(`${name}[${i}] must be an [x, y] point, got ${describe(p)}`)
      if (p.length !== 2 && p.length !== 3) throw new RangeError(`${name}[${i}] must be [x, y] (or [x, y, z]), got ${p.length} numbers`)
      const px = p[0], py = p[1]
      x.push(isCoordinate(px) ? px : coordinate(px, `${name}[${i}][0]`))
      y.push(isCoordinate(py) ? py : coordinate(py, `${name}[${i}][1]`))
    }
  } else {
    if (a.length % 2 !== 0) throw new RangeError(`${name} as a flat array must hold x, y pairs (even length), got length ${a.length}`)
    for (let i = 0; i < a.length; i += 2) {
      const px = a[i], py = a[i + 1]
      x.push(isCoordinate(px) ? px : coordinate(px, `${name}[${i}]`))
      y.push(isCoordinate(py) ? py : coordinate(py, `${name}[${i + 1}]`))
    }
  }
  return { x, y }
}

/** Path coordinates beyond this (m) are refused: squared distances would leave double range. */
export const MAX_COORDINATE = 1e9

// (a valid coordinate is checked without building its name: long paths have many)
function isCoordinate(v: unknown): v is number {
  return typeof v === 'number' && v >= -MAX_COORDINATE && v <= MAX_COORDINATE
}

function coordinate(v: unknown, name: string): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isFinite(v)) throw new RangeError(`${name} must be finite, got ${v}`)
  if (Math.abs(v) > MAX_COORDINATE) throw new RangeError(`${name} must be within ±${MAX_COORDINATE} m, got ${v}`)
  return v
}

/** Validates `path` and builds its polyline (repeated points dropped); throws naming `name`. */
export function createPolyline(path: unknown, closed: boolean, name = 'path'): Polyline {
  const { x, y } = readPoints(path, name)
  return polylineFromArrays(x, y, closed, name)
}

/** Builds a polyline from coordinate arrays, dropping repeated points; throws naming `name` when too few remain. */
export function polylineFromArrays(xs: ArrayLike<number>, ys: ArrayLike<number>, closed: boolean, name = 'path'): Polyline {
  const kx: number[] = []
  const ky: number[] = []
  for (let i = 0; i < xs.length; i++) {
    const k = kx.length
    if (k > 0 && Math.hypot(xs[i] - kx[k - 1], ys[i] - ky[k - 1]) <= SAME_POINT) continue
    kx.push(xs[i]); ky.push(ys[i])
  }
  // A closed path may repeat its first point at the end.
  while (closed && kx.length > 1 && Math.hypot(kx[kx.length - 1] - kx[0], ky[ky.length - 1] - ky[0]) <= SAME_POINT) { kx.pop(); ky.pop() }
  const need = closed ? 3 : 2
  if (kx.length < need) {
    throw new RangeError(`${name} must have at least ${need} distinct points${closed ? ' when closed' : ''}, got ${kx.length}`)
  }
  const n = kx.length
  const segments = closed ? n : n - 1
  const x = Float64Array.from(kx)
  const y = Float64Array.from(ky)
  const s = new Float64Array(segments + 1)
  const tx = new Float64Array(segments)
  const ty = new Float64Array(segments)
  for (let i = 0; i < segments; i++) {
    const j = i + 1 === n ? 0 : i + 1
    const dx = x[j] - x[i], dy = y[j] - y[i]
    const len = Math.hypot(dx, dy)
    tx[i] = dx / len; ty[i] = dy / len
    s[i + 1] = s[i] + len
  }
  const packed = new Float64Array(segments * SEG_STRIDE)
  for (let i = 0, o = 0; i < segments; i++, o += SEG_STRIDE) {
    packed[o] = x[i]; packed[o + 1] = y[i]; packed[o + 2] = tx[i]; packed[o + 3] = ty[i]
    packed[o + 4] = s[i]; packed[o + 5] = s[i + 1] - s[i]
  }
  return {
    x, y, n, closed, segments, s, tx, ty, length: s[segments], packed,
    narrowGap: narrowGap(packed, segments, closed, s[segments]), turnTan2: sharpestTurnTan2(tx, ty, segments, closed),
  }
}

/** tan² of the sharpest turn from one segment to the next, rounded up (its own rounding, and the distances' in the window search); Infinity for 90° or more. */
function sharpestTurnTan2(tx: Float64Array, ty: Float64Array, segments: number, closed: boolean): number {
  let worst = 0
  for (let i = 0; i < (closed ? segments : segments - 1); i++) {
    const j = i + 1 === segments ? 0 : i + 1
    const dot = tx[i] * tx[j] + ty[i] * ty[j], cross = tx[i] * ty[j] - ty[i] * tx[j]
    const tan2 = dot > 0 ? (cross * cross) / (dot * dot) : Infinity
    if (tan2 > worst) worst = tan2
  }
  return worst * (1 + 1e-6) + 1e-12
}

/** Polyline.narrowGap of segment records `p` (n segments, length L): each gap computed as the window search computes it. */
function narrowGap(p: Float64Array, n: number, closed: boolean, L: number): number {
  let least = Infinity
  for (let h = 0; h < n; h++) {
    const from = p[h * SEG_STRIDE + SEG_S], to = from + p[h * SEG_STRIDE + SEG_LEN]
    if (h > 0 || closed) {
      let gap = from - p[(h > 0 ? h - 1 : n - 1) * SEG_STRIDE + SEG_S]
      if (gap < 0) gap += L
      if (gap < least) least = gap
    }
    if (h + 2 < n || closed) {
      let gap = p[((h + 2) % n) * SEG_STRIDE + SEG_S] - to
      if (gap < 0) gap += L
      if (gap < least) least = gap
    }
  }
  return least
}

/** Wraps (closed) or clamps (open) arc length `s` into [0, length]. */
export function normalizeArc(poly: Polyline, s: number): number {
  const L = poly.length
  if (poly.closed) {
    if (s >= 0 && s < L) return s
    if (s >= L && s < 2 * L) return s - L // a look-ahead past the start: no division
    const w = s - Math.floor(s / L) * L
    return w >= L || w < 0 ? 0 : w
  }
  return s < 0 ? 0 : s > L ? L : s
}

/** The segment containing arc length `s` (already normalised), by binary search. */
export function segmentAt(poly: Polyline, s: number): number {
  const arc = poly.s
  let lo = 0, hi = poly.segments - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (arc[mid] <= s) lo = mid
    else hi = mid - 1
  }
  return lo
}

/**
 * Writes the position and unit tangent at arc length `s` into out[0..3] (x, y, tx, ty); wraps on a
 * closed polyline, clamps on an open one. Returns the segment index.
 */
export function sampleAt(poly: Polyline, s: number, out: Float64Array | number[]): number {
  const w = normalizeArc(poly, s)
  const i = segmentAt(poly, w)
  const t = w - poly.s[i]
  out[0] = poly.x[i] + poly.tx[i] * t
  out[1] = poly.y[i] + poly.ty[i] * t
  out[2] = poly.tx[i]
  out[3] = poly.ty[i]
  return i
}
