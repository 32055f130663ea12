/**
 * Projection of a point onto every segment of a polyline (setAi's start; the step's window search
 * near the last projection is written into drive-cars.ts). The point comes in and the result goes
 * out in a caller's scratch arrays (see PROJ_*), so it allocates nothing.
 */
import { SEG_LEN, SEG_S, SEG_STRIDE, SEG_TX, SEG_TY, SEG_X, SEG_Y, type Polyline } from './polyline'

/** Index of the arc length of the closest point in a projection result. */
export const PROJ_S = 0
/** Index of the signed lateral offset (+ left of the path direction) in a projection result. */
export const PROJ_LAT = 1
/** Index of the unsigned distance in a projection result. */
export const PROJ_DIST = 2
/** A projection query's layout: the point's x and y (m). */
export const QUERY_X = 0, QUERY_Y = 1

/** Projects (px, py) onto `count` segments of `poly` from `first` on (wrapping); writes out (see PROJ_*) and returns the segment. */
function projectRun(poly: Polyline, query: Float64Array, first: number, count: number, out: Float64Array): number {
  const p = poly.packed, segments = poly.segments, px = query[QUERY_X], py = query[QUERY_Y]
  let best = first, bestD2 = Infinity, bestT = 0, bestCross = 0 // (first stays if every d² overflows)
  for (let k = 0, q = first; k < count; k++) {
    const o = q * SEG_STRIDE
    const tx = p[o + SEG_TX], ty = p[o + SEG_TY], len = p[o + SEG_LEN]
    const dx = px - p[o + SEG_X], dy = py - p[o + SEG_Y]
    let t = dx * tx + dy * ty
    t = t < 0 ? 0 : t > len ? len : t
    const ex = dx - tx * t, ey = dy - ty * t
    const d2 = ex * ex + ey * ey
    if (d2 < bestD2) { bestD2 = d2; best = q; bestT = t; bestCross = tx * dy - ty * dx }
    if (++q >= segments) q -= segments
  }
  const dist = Math.sqrt(bestD2)
  out[PROJ_S] = p[best * SEG_STRIDE + SEG_S] + bestT
  out[PROJ_LAT] = bestCross < 0 ? -dist : dist
  out[PROJ_DIST] = dist
  return best
}

/** Projects the point of `query` (see QUERY_*) onto every segment; writes out (see PROJ_*) and returns the segment. */
export function projectAll(poly: Polyline, query: Float64Array, out: Float64Array): number {
  return projectRun(poly, query, 0, poly.segments, out)
}
