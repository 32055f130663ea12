/**
 * Reference projection for tests: the window search written plainly (no narrow-window skip), to
 * check src/driver/projection.ts and the driver's step against.
 */
import { SEG_STRIDE, type Polyline } from '../../../src/driver/polyline'
export { PROJ_S, PROJ_LAT, PROJ_DIST } from '../../../src/driver/projection'
import { PROJ_S, PROJ_LAT, PROJ_DIST } from '../../../src/driver/projection'


/**
 * Projects (px, py) onto the segments within `reach` metres of arc of segment `hint` (either way:
 * those whose start lies within reach of the hint's start, back, or of its end, on), or onto all
 * of them when that window is the whole loop, `hint` is no segment, or the window's closest point
 * is farther than `lost` m; writes out (see PROJ_*) and returns the segment. Cost: a few segments,
 * or all of them when lost.
 */
export function projectFrom(poly: Polyline, px: number, py: number, hint: number, reach: number, lost: number, out: Float64Array): number {
  const { packed: p, segments, closed, length: L } = poly
  let seg = 0
  // pass 0: the window; pass 1: every segment
  for (let pass = !(closed && reach * 2 >= L) && hint >= 0 && hint < segments ? 0 : 1; pass < 2; pass++) {
    let first = 0, back = segments - 1, to = 0
    // A reach under narrowGap ends the window at the segment after the hint: its gap checks would
    // fail, so they are skipped, and with them the records of the segments beyond.
    const narrow = pass === 0 && reach < poly.narrowGap
    if (pass === 0) {
      const from = p[hint * SEG_STRIDE + 4]
      to = from + p[hint * SEG_STRIDE + 5]
      first = hint; back = 0
      while (!narrow && back < segments - 1) {
        let q = first - 1
        if (q < 0) { if (!closed) break; q += segments }
        let gap = from - p[q * SEG_STRIDE + 4]
        if (gap < 0) gap += L
        if (gap > reach) break
        first = q; back++
      }
    }
    // Forward from `first` through the hint, then on while a segment starts within reach of the
    // hint's end (pass 1: all of them), each segment at most once.
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
        if (narrow && k > back + 1) break
        let gap = p[q * SEG_STRIDE + 4] - to
        if (gap < 0) gap += L
        if (gap > reach) break
      }
    }
    const d = Math.sqrt(bestD2)
    seg = best
    out[PROJ_S] = p[best * SEG_STRIDE + 4] + bestT
    out[PROJ_LAT] = bestCross < 0 ? -d : d
    out[PROJ_DIST] = d
    if (!(d > lost)) break
  }
  return seg
}

/** Projects (px, py) onto every segment; writes out (see PROJ_*) and returns the segment. */
export function projectAll(poly: Polyline, px: number, py: number, out: Float64Array): number {
  return projectFrom(poly, px, py, -1, 0, Infinity, out)
}

/**
 * Projects (px, py) onto the segments within `reach` metres of arc of segment `hint` (either way),
 * or onto all of them when that window is the whole loop or `hint` is no segment; writes out (see
 * PROJ_*) and returns the segment.
 */
export function projectNear(poly: Polyline, px: number, py: number, hint: number, reach: number, out: Float64Array): number {
  return projectFrom(poly, px, py, hint, reach, Infinity, out)
}
