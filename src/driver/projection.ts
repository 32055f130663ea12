/**
 * Projection of a point onto a polyline: over every segment, or over the window of segments near
 * the last projection that a car can have reached in one step (a few segments, however long the
 * path). The point comes in and the result goes out in a caller's scratch arrays (see PROJ_*), so
 * a step allocates nothing.
 */
import { SEG_LEN, SEG_S, SEG_STRIDE, SEG_TX, SEG_TY, SEG_X, SEG_Y, type Polyline } from './polyline'

/** Index of the arc length of the closest point in a projection result. */
export const PROJ_S = 0
/** Index of the signed lateral offset (+ left of the path direction) in a projection result. */
export const PROJ_LAT = 1
/** Index of the unsigned distance in a projection result. */
export const PROJ_DIST = 2
/** A projection query's layout: the point's x and y (m) and the window's reach (m). */
export const QUERY_X = 0, QUERY_Y = 1, QUERY_REACH = 2

// The last run's foot point along its segment (m) and squared distance (m²), for projectWindow.
const lastRun = new Float64Array(2)

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
  lastRun[0] = bestT
  lastRun[1] = bestD2
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

/**
 * Projects the point of `query` (see QUERY_*) onto the segments whose start lies within its reach of arc of segment `hint`'s
 * m of arc of segment `hint`'s (back) or of its end (on), or onto every segment when that window is the whole loop or `hint` is
 * no segment; writes out (see PROJ_*) and returns the segment. A reach under `poly.narrowGap` is
 * the hint and the next segment only, and the next is skipped when it provably cannot be closer:
 * when the foot point on the hint lies more than lateral distance × tan(the path's sharpest turn)
 * before the hint's end, the next segment starts where the point is nearest to it.
 */
export function projectWindow(poly: Polyline, query: Float64Array, hint: number, out: Float64Array): number {
  const p = poly.packed, segments = poly.segments, closed = poly.closed, L = poly.length, reach = query[QUERY_REACH]
  if ((closed && reach * 2 >= L) || !(hint >= 0 && hint < segments)) return projectAll(poly, query, out)
  const from = p[hint * SEG_STRIDE + SEG_S], hintLen = p[hint * SEG_STRIDE + SEG_LEN], to = from + hintLen
  if (reach < poly.narrowGap) {
    const seg = projectRun(poly, query, hint, 1, out)
    const next = hint + 1 < segments ? hint + 1 : closed ? 0 : -1
    if (next < 0 || segments < 2) return seg
    const d2 = lastRun[1], rest = hintLen - lastRun[0]
    if (rest * rest > d2 * poly.turnTan2 + 1e-10 * (1 + Math.abs(query[QUERY_X]) + Math.abs(query[QUERY_Y])) * (1 + rest + d2)) return seg
    let gap = p[next * SEG_STRIDE + SEG_S] - to
    if (gap < 0) gap += L
    if (gap > reach) return seg
    return projectRun(poly, query, hint, 2, out)
  }
  // back from the hint while a segment's start lies within reach of the hint's start
  let first = hint, back = 0
  while (back < segments - 1) {
    let q = first - 1
    if (q < 0) { if (!closed) break; q += segments }
    let gap = from - p[q * SEG_STRIDE + SEG_S]
    if (gap < 0) gap += L
    if (gap > reach) break
    first = q; back++
  }
  // on through the hint, then while a segment starts within reach of the hint's end
  let count = 1
  for (let q = first; count < segments; count++) {
    if (++q >= segments) { if (!closed) break; q -= segments }
    if (count > back) {
      let gap = p[q * SEG_STRIDE + SEG_S] - to
      if (gap < 0) gap += L
      if (gap > reach) break
    }
  }
  return projectRun(poly, query, first, count, out)
}
