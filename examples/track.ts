/**
 * The built-in circuit shared by the racing demo, the headless race and the example tests:
 * a smooth closed centreline (the driver's centripetal Catmull-Rom spline through control points,
 * resampled at equal arc length), its width, kerbs, gravel traps, barriers and cones.
 * Pure geometry on numbers (the driver's path helpers, no sim, no pixi), so node and the browser both import it.
 */
import { createPolyline, nearestOnPath, pointCurvatures, samplePath, smoothClosedPath, type PathProjection, type Polyline } from '../src/index'

/** A point on the ground, metres. */
export type Point = readonly [number, number]

/** A box barrier segment lying on the ground. */
export interface Barrier {
  /** Centre (x, y), m. */
  x: number
  y: number
  /** Yaw of the box's long axis, rad. */
  yaw: number
  /** Half length along the axis, half thickness across it, half height, m. */
  halfLength: number
  halfThickness: number
  halfHeight: number
}

/** A traffic cone (a cylinder standing on the ground). */
export interface Cone {
  x: number
  y: number
  radius: number
  halfHeight: number
}

/** Distance from the tarmac edge to the barriers, m. */
export const BARRIER_GAP = 16

/** Surface codes of the track's raster (see surfaceCodeAt). */
export const SURFACE = { tarmac: 0, kerb: 1, gravel: 2, grass: 3 } as const

/** A built circuit. */
export interface Track {
  /** Centreline, flat [x0, y0, x1, y1, …], equally spaced, closed (the last point joins the first). */
  centre: Float64Array
  /** The centreline as the driver's polyline. */
  poly: Polyline
  /** Number of centreline points. */
  count: number
  /** Spacing of the centreline points, m. */
  spacing: number
  /** Lap length along the centreline, m. */
  length: number
  /** Half the tarmac width, m. */
  halfWidth: number
  /** Width of a kerb strip beyond the tarmac edge, m. */
  kerbWidth: number
  /** Signed curvature at each centreline point, 1/m (+ = turning left). */
  curvature: Float64Array
  /** Unit tangent at each point, flat [tx, ty, …]. */
  tangent: Float64Array
  /** True where a kerb lines the edge at that point (a corner). */
  kerb: Uint8Array
  /** The start/finish line at s = 0, from its left end to its right end, reaching to the barriers. */
  startLine: readonly [Point, Point]
  /** Heading of the track at the start line, rad. */
  startHeading: number
  /** Barrier boxes along both sides. */
  barriers: Barrier[]
  /** Cones marking the apexes of the tightest corners. */
  cones: Cone[]
  /** Surface raster: code per cell (SURFACE), row-major from (gridX0, gridY0). */
  grid: Uint8Array
  gridX0: number
  gridY0: number
  gridCell: number
  gridColumns: number
  gridRows: number
}

/** Options of createTrack. */
export interface TrackOptions {
  /** Control points of the centreline, closed (default: the built-in circuit). */
  control?: readonly Point[]
  /** Tarmac width, m (default 14). */
  width?: number
  /** Centreline spacing, m (default 2). */
  spacing?: number
}

/** The built-in circuit's control points: a ~2.6 km lap with a long straight, a hairpin and sweepers. */
export const CIRCUIT: readonly Point[] = [
  [0, 0], [260, 0], [390, 12], [450, 80], [440, 160], [370, 205], [290, 225], [250, 280],
  [280, 345], [370, 370], [450, 410], [470, 490], [410, 550], [290, 560], [150, 540], [60, 480],
  [0, 390], [-90, 350], [-190, 340], [-260, 280], [-250, 170], [-180, 90], [-110, 25], [-55, 0],
]

/** Builds the circuit: centreline, curvature, kerbs, barriers, cones and the surface raster. */
export function createTrack(options: TrackOptions = {}): Track {
  const control = options.control ?? CIRCUIT
  const width = options.width ?? 14
  const spacing = options.spacing ?? 2
  if (!Array.isArray(control) || control.length < 4) throw new RangeError('options.control must have at least 4 points')
  if (!(width > 0) || !Number.isFinite(width)) throw new RangeError(`options.width must be finite and > 0, got ${width}`)
  if (!(spacing > 0) || !Number.isFinite(spacing)) throw new RangeError(`options.spacing must be finite and > 0, got ${spacing}`)

  // The driver's path helpers build the spline, so the AI and the drawn track are the same curve.
  const centre = smoothClosedPath(control, spacing)
  const poly = createPolyline(centre, true)
  const count = poly.n
  const curvature = pointCurvatures(poly, 2 * spacing)
  const tangent = new Float64Array(count * 2)
  for (let i = 0; i < count; i++) {
    const a = (i + count - 1) % count
    const tx = poly.tx[a]! + poly.tx[i]!, ty = poly.ty[a]! + poly.ty[i]!, tl = Math.hypot(tx, ty)
    tangent[2 * i] = tx / tl
    tangent[2 * i + 1] = ty / tl
  }
  const step = poly.length / count
  const halfWidth = width / 2
  const kerbWidth = 1.2
  // Kerbs line the edges wherever the corner is tighter than 120 m radius (±10 m of track, so short kinks join up).
  const kerb = new Uint8Array(count)
  const reach = Math.round(10 / step)
  for (let i = 0; i < count; i++) {
    if (Math.abs(curvature[i]!) < 1 / 120) continue
    for (let j = -reach; j <= reach; j++) kerb[(i + j + count) % count] = 1
  }
  const sx = tangent[0]!, sy = tangent[1]!
  const x0 = centre[0]!, y0 = centre[1]!
  const lineReach = halfWidth + BARRIER_GAP
  const startLine: [Point, Point] = [
    [x0 - sy * lineReach, y0 + sx * lineReach],
    [x0 + sy * lineReach, y0 - sx * lineReach],
  ]
  const track: Track = {
    centre, poly, count, spacing: step, length: poly.length, halfWidth, kerbWidth, curvature, tangent, kerb,
    startLine, startHeading: Math.atan2(sy, sx), barriers: [], cones: [],
    grid: new Uint8Array(0), gridX0: 0, gridY0: 0, gridCell: 1, gridColumns: 0, gridRows: 0,
  }
  rasterSurfaces(track)
  track.barriers = placeBarriers(track, halfWidth + BARRIER_GAP)
  track.cones = placeCones(track)
  return track
}

const scratch = new Float64Array(4)
const nearest: PathProjection = { s: 0, lateral: 0, distance: 0, segment: 0 }

/** Position (x, y) and heading at arc length `s` (wraps around), offset `lateral` m to the left. */
export function trackPoint(track: Track, s: number, lateral = 0): { x: number; y: number; heading: number } {
  samplePath(track.poly, s, scratch)
  const x = scratch[0]!, y = scratch[1]!, tx = scratch[2]!, ty = scratch[3]!
  return { x: x - ty * lateral, y: y + tx * lateral, heading: Math.atan2(ty, tx) }
}

/** Nearest centreline position of (x, y): arc length s and signed lateral distance (+ left). Checks every segment. */
export function projectOnTrack(track: Track, x: number, y: number): { s: number; lateral: number } {
  const p = nearestOnPath(track.poly, x, y, nearest)
  return { s: p.s, lateral: p.lateral }
}

/** Surface code (SURFACE) at ground position (x, y); grass outside the raster. */
export function surfaceCodeAt(track: Track, x: number, y: number): number {
  const cx = Math.floor((x - track.gridX0) / track.gridCell), cy = Math.floor((y - track.gridY0) / track.gridCell)
  if (cx < 0 || cy < 0 || cx >= track.gridColumns || cy >= track.gridRows) return SURFACE.grass
  return track.grid[cy * track.gridColumns + cx]!
}

/** The centreline as a plain [[x, y], …] list (for sim.setAi with closed: true). */
export function trackPath(track: Track): [number, number][] {
  const out: [number, number][] = []
  for (let i = 0; i < track.count; i++) out.push([track.centre[2 * i]!, track.centre[2 * i + 1]!])
  return out
}

/** The width (m, [left, right] of the direction of travel) a driver at `lateralOffset` may use to pass and make room: the tarmac, its body kept on it. */
export function trafficWidth(track: Track, lateralOffset: number): [number, number] {
  const room = track.halfWidth - 1
  return [Math.max(0, room - lateralOffset), Math.max(0, room + lateralOffset)]
}

/** Fills the surface raster: tarmac, kerbs at corners, gravel on the outside of corners, grass elsewhere. */
function rasterSurfaces(track: Track): void {
  const c = track.centre, n = track.count, cell = 1, reach = track.halfWidth + 14
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, c[2 * i]!); maxX = Math.max(maxX, c[2 * i]!)
    minY = Math.min(minY, c[2 * i + 1]!); maxY = Math.max(maxY, c[2 * i + 1]!)
  }
  const x0 = Math.floor(minX - reach - 2), y0 = Math.floor(minY - reach - 2)
  const cols = Math.ceil(maxX + reach + 2 - x0), rows = Math.ceil(maxY + reach + 2 - y0)
  const dist = new Float32Array(cols * rows).fill(Infinity)
  const lat = new Float32Array(cols * rows)
  const seg = new Int32Array(cols * rows).fill(-1)
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n
    const ax = c[2 * i]!, ay = c[2 * i + 1]!, dx = c[2 * j]! - ax, dy = c[2 * j + 1]! - ay
    const len2 = dx * dx + dy * dy, len = Math.sqrt(len2)
    const cx0 = Math.max(0, Math.floor(Math.min(ax, ax + dx) - reach - x0)), cx1 = Math.min(cols - 1, Math.ceil(Math.max(ax, ax + dx) + reach - x0))
    const cy0 = Math.max(0, Math.floor(Math.min(ay, ay + dy) - reach - y0)), cy1 = Math.min(rows - 1, Math.ceil(Math.max(ay, ay + dy) + reach - y0))
    for (let gy = cy0; gy <= cy1; gy++) {
      const py = y0 + (gy + 0.5) * cell
      for (let gx = cx0; gx <= cx1; gx++) {
        const px = x0 + (gx + 0.5) * cell
        let t = ((px - ax) * dx + (py - ay) * dy) / len2
        t = t < 0 ? 0 : t > 1 ? 1 : t
        const ex = ax + dx * t - px, ey = ay + dy * t - py
        const d2 = ex * ex + ey * ey // squared: the nearest segment wins without a square root per cell
        const k = gy * cols + gx
        if (d2 < dist[k]!) { dist[k] = d2; seg[k] = i; lat[k] = (dx * (py - ay) - dy * (px - ax)) / len }
      }
    }
  }
  const grid = new Uint8Array(cols * rows).fill(SURFACE.grass)
  const hw = track.halfWidth, kw = track.kerbWidth
  for (let k = 0; k < grid.length; k++) {
    const i = seg[k]!
    if (i < 0) continue
    const d = Math.sqrt(dist[k]!)
    if (d <= hw) grid[k] = SURFACE.tarmac
    else if (d <= hw + kw && track.kerb[i]) grid[k] = SURFACE.kerb
    else if (d <= hw + 12 && Math.abs(track.curvature[i]!) > 1 / 150 && Math.sign(lat[k]!) !== Math.sign(track.curvature[i]!)) grid[k] = SURFACE.gravel
  }
  track.grid = grid
  track.gridX0 = x0; track.gridY0 = y0; track.gridCell = cell; track.gridColumns = cols; track.gridRows = rows
}

/** Barrier boxes on both sides at `offset` m from the centreline, dropped where they would come near another part of the track. */
function placeBarriers(track: Track, offset: number): Barrier[] {
  const out: Barrier[] = []
  const every = Math.max(1, Math.round(8 / track.spacing))
  for (const side of [1, -1]) {
    for (let i = 0; i < track.count; i += every) {
      const a = trackPoint(track, i * track.spacing, side * offset)
      const b = trackPoint(track, (i + every) * track.spacing, side * offset)
      const x = (a.x + b.x) / 2, y = (a.y + b.y) / 2
      if (Math.abs(projectOnTrack(track, x, y).lateral) < offset - 2) continue
      out.push({ x, y, yaw: Math.atan2(b.y - a.y, b.x - a.x), halfLength: Math.hypot(b.x - a.x, b.y - a.y) / 2 + 0.25, halfThickness: 0.4, halfHeight: 0.6 })
    }
  }
  return out
}

/** Cones just off the tarmac at the apex of every corner tighter than 60 m radius. */
function placeCones(track: Track): Cone[] {
  const out: Cone[] = []
  const k = track.curvature, n = track.count
  for (let i = 0; i < n; i++) {
    const ki = Math.abs(k[i]!)
    if (ki < 1 / 60 || ki < Math.abs(k[(i + n - 1) % n]!) || ki < Math.abs(k[(i + 1) % n]!)) continue
    for (const ds of [-6, 0, 6]) {
      const p = trackPoint(track, i * track.spacing + ds, Math.sign(k[i]!) * (track.halfWidth + track.kerbWidth + 1))
      out.push({ x: p.x, y: p.y, radius: 0.2, halfHeight: 0.35 })
    }
  }
  return out
}
