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

/** Closest point over `count` segments starting at `first` (wrapping when closed); returns the segment. */
function closestOver(poly: Polyline, px: number, py: number, first: number, count: number, out: Float64Array): number {
  const p = poly.packed, segments = poly.segments
  let best = first, bestD2 = Infinity, bestT = 0, bestCross = 0 // (first stays if every d² overflows)
  let i = first, o = first * SEG_STRIDE
  for (let k = 0; k < count; k++) {
    const tx = p[o + 2], ty = p[o + 3], len = p[o + 5]
    const dx = px - p[o], dy = py - p[o + 1]
    let t = dx * tx + dy * ty
    t = t < 0 ? 0 : t > len ? len : t
    const ex = dx - tx * t, ey = dy - ty * t
    const d2 = ex * ex + ey * ey
    if (d2 < bestD2) { bestD2 = d2; best = i; bestT = t; bestCross = tx * dy - ty * dx }
    if (++i === segments) { i = 0; o = 0 } else o += SEG_STRIDE
  }
  const d = Math.sqrt(bestD2)
  out[PROJ_S] = p[best * SEG_STRIDE + 4] + bestT
  out[PROJ_LAT] = bestCross < 0 ? -d : d
  out[PROJ_DIST] = d
  return best
}

/** Projects (px, py) onto every segment; writes out (see PROJ_*) and returns the segment. */
export function projectAll(poly: Polyline, px: number, py: number, out: Float64Array): number {
  return closestOver(poly, px, py, 0, poly.segments, out)
}

/**
 * Projects (px, py) onto the segments within `reach` metres of arc of segment `hint` (either way);
 * writes out (see PROJ_*) and returns the segment.
 */
export function projectNear(poly: Polyline, px: number, py: number, hint: number, reach: number, out: Float64Array): number {
  const { packed: p, segments, closed, length } = poly
  if ((closed && reach * 2 >= length) || !(hint >= 0 && hint < segments)) return projectAll(poly, px, py, out)
  // Segments back from hint while their start lies within reach, and forward likewise.
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
  let ahead = 0, last = hint
  while (back + ahead < segments - 1) {
    let q = last + 1
    if (q >= segments) { if (!closed) break; q -= segments }
    let gap = p[q * SEG_STRIDE + 4] - to
    if (gap < 0) gap += length
    if (gap > reach) break
    last = q; ahead++
  }
  return closestOver(poly, px, py, first, back + ahead + 1, out)
}
