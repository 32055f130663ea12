/**
 * Curvature and lateral offset of a polyline. Curvature at a point is the Menger curvature (the
 * circle through three points) of the point and its neighbours at least `span` metres of arc away,
 * so densely sampled, slightly noisy paths do not give spiky curvature; it is exact on a circle.
 */
import { polylineFromArrays, type Polyline } from './polyline'

/** Signed curvature through three points (1/m, + turning left); 0 when any two coincide. */
export function mengerCurvature(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const abx = bx - ax, aby = by - ay, bcx = cx - bx, bcy = cy - by
  const denom = Math.hypot(abx, aby) * Math.hypot(bcx, bcy) * Math.hypot(cx - ax, cy - ay)
  return denom > 0 ? (2 * (abx * bcy - aby * bcx)) / denom : 0
}

/** Signed curvature at each point of `poly` (1/m, + left), from neighbours at least `span` m away. */
export function pointCurvatures(poly: Polyline, span = 1, out = new Float64Array(poly.n)): Float64Array {
  const { x, y, s, n, closed, length } = poly
  const reachMax = closed ? (n - 1) >> 1 : n
  for (let i = 0; i < n; i++) {
    if (!closed && (i === 0 || i === n - 1)) continue
    let j = i, back = 0
    do {
      j = j === 0 ? n - 1 : j - 1; back++
    } while ((closed || j > 0) && back < reachMax && arcBetween(s, length, closed, j, i) < span)
    let k = i, ahead = 0
    do {
      k = k === n - 1 ? 0 : k + 1; ahead++
    } while ((closed || k < n - 1) && ahead < reachMax && arcBetween(s, length, closed, i, k) < span)
    out[i] = mengerCurvature(x[j], y[j], x[i], y[i], x[k], y[k])
  }
  if (!closed) {
    // Near an open end the span cannot be met on one side, and a short triangle side amplifies
    // noise: points within `span` of an end take the value of the nearest full-span point.
    let first = 1, last = n - 2
    while (first < n - 2 && s[first] < span) first++
    while (last > first && length - s[last] < span) last--
    for (let i = 0; i < first; i++) out[i] = n > 2 ? out[first] : 0
    for (let i = last + 1; i < n; i++) out[i] = n > 2 ? out[last] : 0
  }
  return out
}

function arcBetween(s: Float64Array, length: number, closed: boolean, from: number, to: number): number {
  const d = s[to] - s[from]
  return closed && d < 0 ? d + length : d
}

/**
 * The polyline offset by `d` metres to the left of its direction (negative: right). Each offset
 * segment is parallel to its original at distance d (mitred vertices, miter capped at 4·d).
 */
export function offsetPolyline(poly: Polyline, d: number): Polyline {
  if (d === 0) return poly
  const { x, y, tx, ty, n, closed, segments } = poly
  const ox = new Float64Array(n), oy = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const prev = i > 0 ? i - 1 : closed ? segments - 1 : -1
    const next = i < segments ? i : -1
    let ux: number, uy: number, scale = 1
    if (prev < 0) { ux = tx[next]; uy = ty[next] }
    else if (next < 0) { ux = tx[prev]; uy = ty[prev] }
    else {
      // Bisector of the two tangents; scale so both offset segments sit at distance d.
      const bx = tx[prev] + tx[next], by = ty[prev] + ty[next]
      const bl = Math.hypot(bx, by)
      if (bl < 1e-9) { ux = tx[next]; uy = ty[next] }
      else {
        ux = bx / bl; uy = by / bl
        const cosHalf = ux * tx[next] + uy * ty[next]
        scale = Math.min(1 / cosHalf, 4)
      }
    }
    ox[i] = x[i] - uy * d * scale
    oy[i] = y[i] + ux * d * scale
  }
  // Inside a bend tighter than |d| the offset curve loops back on itself. Cut the loop: skip
  // points whose step runs against the original direction, and take back kept points that the
  // next step folds back over, so the lane cuts across at the loop's crossing.
  const forward = (a: number, b: number) => (ox[b] - ox[a]) * (x[b] - x[a]) + (oy[b] - oy[a]) * (y[b] - y[a]) > 0
  const folds = (a: number, b: number, c: number) => (ox[b] - ox[a]) * (ox[c] - ox[b]) + (oy[b] - oy[a]) * (oy[c] - oy[b]) < 0
  const keep: number[] = [0]
  for (let i = 1; i < n; i++) {
    while (forward(keep[keep.length - 1], i)) {
      if (keep.length < 2 || !folds(keep[keep.length - 2], keep[keep.length - 1], i)) { keep.push(i); break }
      keep.pop()
    }
  }
  // a closed lane's wrap: the same against its first point
  while (closed && keep.length > 2 && (!forward(keep[keep.length - 1], 0) || folds(keep[keep.length - 2], keep[keep.length - 1], 0))) keep.pop()
  const kx = keep.map((i) => ox[i]), ky = keep.map((i) => oy[i])
  return polylineFromArrays(kx, ky, closed, 'path offset by options.lateralOffset')
}
