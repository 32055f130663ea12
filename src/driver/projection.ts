/**
 * Projection of a point onto a polyline: the closest point over a window of segments near the last
 * projection (a few segments per step, however long the path), or over every segment when the car
 * is lost. Results go into a caller's scratch array, so a step allocates nothing.
 */
import { SEG_STRIDE, type Polyline } from './polyline'

/** Layout of a projection result: out[PROJ_S] arc length, out[PROJ_LAT] signed offset (+ left), out[PROJ_DIST] distance. */
export const PROJ_S = 0
/** Index of the signed lateral offset (+ left of the path direction) in a projection result. */
export const PROJ_LAT = 1
/** Index of the unsigned distance in a projection result. */
export const PROJ_DIST = 2
/** Layout of projectWindow's input (in the array it writes its result to): point x, y and reach (m). */
export const WIN_X = 0, WIN_Y = 1, WIN_REACH = 2

/**
 * Closest point to (io[WIN_X], io[WIN_Y]) over the `back` + 1 segments from `first` (wrapping when
 * closed), then on while a segment starts within `reach` of arc after `to` (each segment at most
 * once); writes PROJ_* into io and returns the segment.
 */
function closestFrom(poly: Polyline, first: number, back: number, to: number, reach: number, io: Float64Array): number {
  const p = poly.packed, segments = poly.segments, closed = poly.closed, px = io[WIN_X], py = io[WIN_Y]
  let best = first, bestD2 = Infinity, bestT = 0, bestCross = 0 // (first stays if every d² overflows)
  for (let k = 0, q = first; ;) {
    const o = q * SEG_STRIDE
    const tx = p[o + 2], ty = p[o + 3], len = p[o + 5]
    const dx = px - p[o], dy = py - p[o + 1]
    let t = dx * tx + dy * ty
    t = t < 0 ? 0 : t > len ? len : t
    const ex = dx - tx * t, ey = dy - ty * t
    const d2 = ex * ex + ey * ey
    if (d2 < bestD2) { bestD2 = d2; best = q; bestT = t; bestCross = tx * dy - ty * dx }
    if (++k >= segments) break
    if (++q >= segments) { if (!closed) break; q -= segments }
    if (k > back) {
      let gap = p[q * SEG_STRIDE + 4] - to
      if (gap < 0) gap += poly.length
      if (gap > reach) break
    }
  }
  const d = Math.sqrt(bestD2)
  io[PROJ_S] = p[best * SEG_STRIDE + 4] + bestT
  io[PROJ_LAT] = bestCross < 0 ? -d : d
  io[PROJ_DIST] = d
  return best
}

/** Projects (px, py) onto every segment; writes out (see PROJ_*) and returns the segment. */
export function projectAll(poly: Polyline, px: number, py: number, out: Float64Array): number {
  out[WIN_X] = px; out[WIN_Y] = py
  return closestFrom(poly, 0, poly.segments - 1, 0, 0, out)
}

/**
 * The per-step projection: the point (io[WIN_X], io[WIN_Y]) onto the segments within io[WIN_REACH]
 * metres of arc of segment `hint` (either way); writes PROJ_* into io and returns the segment, or
 * −1 (io unchanged) when the window is the whole loop or `hint` is no segment. Its numbers come
 * and go through io, so a call that V8 does not inline boxes none of them.
 */
export function projectWindow(poly: Polyline, hint: number, io: Float64Array): number {
  const { packed: p, segments, closed, length } = poly
  const reach = io[WIN_REACH]
  if ((closed && reach * 2 >= length) || !(hint >= 0 && hint < segments)) return -1
  // Segments back from hint while their start lies within reach, then forward likewise.
  const from = p[hint * SEG_STRIDE + 4], to = from + p[hint * SEG_STRIDE + 5]
  let back = 0, first = hint
  while (back < segments - 1) {
    let q = first - 1
    if (q < 0) { if (!closed) break; q += segments }
    let gap = from - p[q * SEG_STRIDE + 4]
    if (gap < 0) gap += length
    if (gap > reach) break
    first = q; back++
  }
  return closestFrom(poly, first, back, to, reach, io)
}

/**
 * Projects (px, py) onto the segments within `reach` metres of arc of segment `hint` (either way),
 * or onto all of them when that window is the whole loop or `hint` is no segment; writes out (see
 * PROJ_*) and returns the segment.
 */
export function projectNear(poly: Polyline, px: number, py: number, hint: number, reach: number, out: Float64Array): number {
  out[WIN_X] = px; out[WIN_Y] = py; out[WIN_REACH] = reach
  const seg = projectWindow(poly, hint, out)
  return seg >= 0 ? seg : projectAll(poly, px, py, out)
}
