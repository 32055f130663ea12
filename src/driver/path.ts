/**
 * Public path helpers (for games and the demo): build a smooth closed centreline through control
 * points, a stadium oval, resample a path by arc length, and sample position and tangent at an arc
 * length. Paths come back as flat `[x0, y0, x1, y1, …]` Float64Arrays, which `sim.setAi` accepts.
 */
import { createPolyline, sampleAt, type Polyline } from './polyline'
import { positiveNumber } from '../validate'

/** The polyline type, its builder and arc-length sampler (see polyline.ts). */
export { createPolyline, sampleAt, type Polyline } from './polyline'
/** Signed point curvatures of a polyline (see curvature.ts). */
export { pointCurvatures } from './curvature'

/** Evenly spaced points along `poly` (flat [x, y, …]); an open path keeps both ends. */
function resamplePolyline(poly: Polyline, spacing: number): Float64Array {
  const L = poly.length
  const parts = Math.max(poly.closed ? 3 : 1, Math.round(L / spacing))
  const count = poly.closed ? parts : parts + 1
  const out = new Float64Array(count * 2)
  const tmp = new Float64Array(4)
  for (let k = 0; k < count; k++) {
    sampleAt(poly, k === parts ? L : (k * L) / parts, tmp)
    out[2 * k] = tmp[0]
    out[2 * k + 1] = tmp[1]
  }
  return out
}

/** Resamples `path` (nested or flat points) to points about `spacing` metres apart along its arc. */
export function resamplePath(path: ArrayLike<number> | ArrayLike<ArrayLike<number>>, spacing: number, closed = false): Float64Array {
  positiveNumber(spacing, 'spacing')
  if (typeof closed !== 'boolean') throw new TypeError('closed must be a boolean')
  return resamplePolyline(createPolyline(path, closed), spacing)
}

/** Arc length of `path` (nested or flat points), m; a closed path includes the closing segment. */
export function pathLength(path: ArrayLike<number> | ArrayLike<ArrayLike<number>>, closed = false): number {
  return createPolyline(path, closed).length
}

/**
 * Position and unit tangent at arc length `s` along `poly` (from createPolyline): `[x, y, tx, ty]`,
 * written into `out` when given. A closed path wraps, an open one clamps.
 */
export function samplePath(poly: Polyline, s: number, out: Float64Array | number[] = new Float64Array(4)): Float64Array | number[] {
  if (typeof s !== 'number' || !Number.isFinite(s)) throw new RangeError(`s must be a finite number, got ${String(s)}`)
  sampleAt(poly, s, out)
  return out
}

/**
 * A closed stadium (oval) centred at the origin: two straights of `straight` m along x joined by
 * half circles of `radius` m, driven anticlockwise from (−straight/2, −radius); points about
 * `spacing` m apart.
 */
export function stadiumPath(straight: number, radius: number, spacing = 1): Float64Array {
  positiveNumber(straight, 'straight')
  positiveNumber(radius, 'radius')
  positiveNumber(spacing, 'spacing')
  const ns = Math.max(1, Math.round(straight / spacing))
  const nb = Math.max(2, Math.round((Math.PI * radius) / spacing))
  const out = new Float64Array((ns + nb) * 4)
  const h = straight / 2
  let k = 0
  const put = (x: number, y: number) => { out[k++] = x; out[k++] = y }
  for (let i = 0; i < ns; i++) put(-h + (straight * i) / ns, -radius)
  for (let i = 0; i < nb; i++) { const a = -Math.PI / 2 + (Math.PI * i) / nb; put(h + radius * Math.cos(a), radius * Math.sin(a)) }
  for (let i = 0; i < ns; i++) put(h - (straight * i) / ns, radius)
  for (let i = 0; i < nb; i++) { const a = Math.PI / 2 + (Math.PI * i) / nb; put(-h + radius * Math.cos(a), radius * Math.sin(a)) }
  return out
}

/**
 * A smooth closed centreline through `controlPoints` (nested or flat, at least 3): a centripetal
 * Catmull–Rom spline (no cusps or self-loops between points), resampled about `spacing` m apart.
 */
export function smoothClosedPath(controlPoints: ArrayLike<number> | ArrayLike<ArrayLike<number>>, spacing = 2): Float64Array {
  positiveNumber(spacing, 'spacing')
  const ctrl = createPolyline(controlPoints, true, 'controlPoints')
  const { x, y, n } = ctrl
  const dense: number[] = []
  for (let i = 0; i < n; i++) {
    const i0 = (i + n - 1) % n, i2 = (i + 1) % n, i3 = (i + 2) % n
    const chord = Math.hypot(x[i2] - x[i], y[i2] - y[i])
    const steps = Math.max(8, Math.ceil((4 * chord) / spacing))
    for (let k = 0; k < steps; k++) {
      catmullRom(x[i0], y[i0], x[i], y[i], x[i2], y[i2], x[i3], y[i3], k / steps, dense)
    }
  }
  return resamplePolyline(createPolyline(dense, true, 'controlPoints'), spacing)
}

/** Appends the centripetal Catmull–Rom point at u ∈ [0, 1) between p1 and p2 to `out`. */
function catmullRom(x0: number, y0: number, x1: number, y1: number, x2: number, y2: number, x3: number, y3: number, u: number, out: number[]): void {
  const t0 = 0
  const t1 = t0 + Math.sqrt(Math.hypot(x1 - x0, y1 - y0))
  const t2 = t1 + Math.sqrt(Math.hypot(x2 - x1, y2 - y1))
  const t3 = t2 + Math.sqrt(Math.hypot(x3 - x2, y3 - y2))
  const t = t1 + (t2 - t1) * u
  const lerp = (ax: number, ay: number, bx: number, by: number, ta: number, tb: number): [number, number] => {
    const w = tb - ta > 0 ? (t - ta) / (tb - ta) : 0
    return [ax + (bx - ax) * w, ay + (by - ay) * w]
  }
  const [a1x, a1y] = lerp(x0, y0, x1, y1, t0, t1)
  const [a2x, a2y] = lerp(x1, y1, x2, y2, t1, t2)
  const [a3x, a3y] = lerp(x2, y2, x3, y3, t2, t3)
  const [b1x, b1y] = lerp(a1x, a1y, a2x, a2y, t0, t2)
  const [b2x, b2y] = lerp(a2x, a2y, a3x, a3y, t1, t3)
  const [cx, cy] = lerp(b1x, b1y, b2x, b2y, t1, t2)
  out.push(cx, cy)
}
