/** Reference look-ahead sampling for tests: position and tangent at an arc length, found by walking from a segment. */
import { normalizeArc, SEG_STRIDE, segmentAt, type Polyline } from '../../../src/driver/polyline'

/**
 * Like sampleAt, but finds the segment by walking from segment `from` (cheap when `s` is a few
 * segments away, as a look-ahead point is; no binary search over a path that is not in cache).
 */
export function sampleNear(poly: Polyline, from: number, s: number, out: Float64Array | number[]): number {
  const w = normalizeArc(poly, s)
  const p = poly.packed, segments = poly.segments
  if (!(from >= 0 && from < segments)) from = segmentAt(poly, w) // a stale or foreign start: search
  let ahead = w - p[from * SEG_STRIDE + 4]
  if (poly.closed && ahead < 0) ahead += poly.length
  const forward = poly.closed ? ahead <= poly.length / 2 : ahead >= 0
  let i = from, o = from * SEG_STRIDE
  for (let k = 0; k < segments && (w < p[o + 4] || w > p[o + 4] + p[o + 5]); k++) {
    if (forward) i = i + 1 === segments ? 0 : i + 1
    else i = i === 0 ? segments - 1 : i - 1
    o = i * SEG_STRIDE
  }
  const t = w - p[o + 4]
  out[0] = p[o] + p[o + 2] * t
  out[1] = p[o + 1] + p[o + 3] * t
  out[2] = p[o + 2]
  out[3] = p[o + 3]
  return i
}
