/** nearestOnPath: the closest point of a polyline to a ground point, for users (the driver uses its windowed search). */
import { describe, finiteNumber } from '../validate'
import { projectAll, PROJ_DIST, PROJ_LAT, PROJ_S, QUERY_X, QUERY_Y } from './projection'
import type { Polyline } from './polyline'

/** The closest point of a path to a ground point. */
export interface PathProjection {
  /** Arc length of the closest point, m. */
  s: number
  /** Signed distance of the point from the path, m (+ left of its direction). */
  lateral: number
  /** Unsigned distance of the point from the path, m. */
  distance: number
  /** Index of the segment holding the closest point. */
  segment: number
}

const query = new Float64Array(3)
const scratch = new Float64Array(3)

/**
 * The closest point of `poly` (from createPolyline) to (x, y), checking every segment; written into
 * `out` when given (no allocation), else into a new object.
 */
export function nearestOnPath(poly: Polyline, x: number, y: number, out?: PathProjection): PathProjection {
  if (poly === null || typeof poly !== 'object' || !(poly.packed instanceof Float64Array)) throw new TypeError(`poly must be a Polyline (from createPolyline), got ${describe(poly)}`)
  finiteNumber(x, 'x')
  finiteNumber(y, 'y')
  query[QUERY_X] = x
  query[QUERY_Y] = y
  const segment = projectAll(poly, query, scratch)
  const r = out ?? { s: 0, lateral: 0, distance: 0, segment: 0 }
  r.s = scratch[PROJ_S]
  r.lateral = scratch[PROJ_LAT]
  r.distance = scratch[PROJ_DIST]
  r.segment = segment
  return r
}
