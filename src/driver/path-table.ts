/**
 * The sim's table of driver paths. Cars given the same points and options share one record
 * (offset polyline, curvature, profile), so a field of cars on one track touches one set of
 * arrays per step (cache friendly) and setAi on the hundredth car builds nothing. A path object
 * given again with the same contents is compared with the points read from it last time, not
 * read and validated again.
 */
import { polylineFromArrays, readPoints, SEG_ACCEL, SEG_LEN, SEG_S, SEG_STRIDE, SEG_V2, type Polyline } from './polyline'
import { offsetPolyline, pointCurvatures } from './curvature'
import { buildSpeedProfile } from './profile'
import { resolveAiOptions, type ResolvedAiOptions } from './options'
import { driverPath, STATIONS_STRIDE, type DriverPath } from './drive'

/** Point curvature span (m): neighbours at least this far along the path shape the curvature. */
const CURVATURE_SPAN = 1

/** A shared path record: the driver path, the validated points it was built from, its user count. */
interface SharedPath {
  path: DriverPath
  base: Polyline
  users: number
}

/** The points last read from a path object, and the polylines built from them (open, closed). */
interface ReadPath {
  x: Float64Array
  y: Float64Array
  open: Polyline | undefined
  closed: Polyline | undefined
}

/** Driver paths by car, and the shared records behind them (in creation order). */
export interface PathTable {
  /** Each driven car's path, by entity id (undefined when the car has no driver). */
  readonly byCar: (DriverPath | undefined)[]
  readonly shared: SharedPath[]
  /** The points read from each path object given (a lookup by identity, never iterated). */
  readonly inputs: WeakMap<object, ReadPath>
  /** How many times a path's points were read and validated (the path objects given new or changed). */
  reads: number
}

/** Creates an empty table. */
export function createPathTable(): PathTable {
  return { byCar: [], shared: [], inputs: new WeakMap(), reads: 0 }
}

/** The same number, bit for bit as far as a polyline's arithmetic can tell (−0 is not 0). */
const sameNumber = (v: unknown, c: number): boolean => v === c && (c !== 0 || 1 / (v as number) === 1 / c)

/** True when `path` (nested or flat points) holds exactly the points `read` was read from. */
function samePoints(path: ArrayLike<unknown>, read: ReadPath): boolean {
  const x = read.x, y = read.y, n = x.length
  if (path.length === 2 * n && typeof path[0] === 'number') {
    for (let i = 0; i < n; i++) if (!sameNumber(path[2 * i], x[i]) || !sameNumber(path[2 * i + 1], y[i])) return false
    return true
  }
  if (path.length !== n) return false
  for (let i = 0; i < n; i++) {
    const p = path[i] as ArrayLike<unknown> | null
    if (p === null || typeof p !== 'object' || (p.length !== 2 && p.length !== 3) || !sameNumber(p[0], x[i]) || !sameNumber(p[1], y[i])) return false
  }
  return true
}

/** The validated polyline of `path` (open or closed): from the points read from the same object last time when it still holds them. */
function basePolyline(table: PathTable, path: unknown, closed: boolean): Polyline {
  let read = path !== null && typeof path === 'object' ? table.inputs.get(path) : undefined
  if (read === undefined || !samePoints(path as ArrayLike<unknown>, read)) {
    const points = readPoints(path, 'path') // (throws naming the bad point)
    table.reads++
    read = { x: Float64Array.from(points.x), y: Float64Array.from(points.y), open: undefined, closed: undefined }
    table.inputs.set(path as object, read)
  }
  if (closed) return read.closed ??= polylineFromArrays(read.x, read.y, true, 'path')
  return read.open ??= polylineFromArrays(read.x, read.y, false, 'path')
}

function sameBase(a: Polyline, b: Polyline): boolean {
  if (a.n !== b.n || a.closed !== b.closed) return false
  for (let i = 0; i < a.n; i++) if (a.x[i] !== b.x[i] || a.y[i] !== b.y[i]) return false
  return true
}

function sameOptions(a: ResolvedAiOptions, b: ResolvedAiOptions): boolean {
  return a.maxSpeed === b.maxSpeed && a.lateralAccel === b.lateralAccel && a.brakeDecel === b.brakeDecel &&
    a.driveAccel === b.driveAccel && a.lateralOffset === b.lateralOffset && a.closed === b.closed && a.lookahead === b.lookahead &&
    a.shift === b.shift && a.traffic === b.traffic && a.width[0] === b.width[0] && a.width[1] === b.width[1] && a.gap === b.gap &&
    a.aggression === b.aggression && a.obstacleMask === b.obstacleMask
}

/**
 * Validates `path` and `options` (throwing, with nothing changed) and returns the record to drive
 * them: an existing one with the same points and options, or a new one (not yet in the table).
 */
export function preparePath(table: PathTable, path: unknown, options: unknown): { path: DriverPath; base: Polyline } {
  const resolved = resolveAiOptions(options)
  const base = basePolyline(table, path, resolved.closed)
  for (const rec of table.shared) {
    if (sameOptions(rec.path.options, resolved) && (rec.base === base || sameBase(rec.base, base))) return rec
  }
  // (the segment records take this profile: with no offset the base's are copied, as other options may share the base)
  // a path on the same line (other options differ) lends its geometry
  let level: Float64Array | undefined
  for (const rec of table.shared) {
    const o = rec.path.options
    if (Object.is(o.lateralOffset, resolved.lateralOffset) && o.closed === resolved.closed && (rec.base === base || sameBase(rec.base, base))) { level = rec.path.level; break }
  }
  const offset = offsetPolyline(base, resolved.lateralOffset)
  const poly = offset === base ? { ...base, packed: base.packed.slice() } : offset
  const kappa = pointCurvatures(poly, CURVATURE_SPAN)
  const profile = buildSpeedProfile(poly, kappa, resolved)
  fillProfileSlots(poly, profile)
  return { path: driverPath(poly, kappa, profile, resolved, level, poly === offset && offset !== base ? stationTable(poly, base) : baseStations(poly)), base }
}

/** Base-line segments a station search looks at beyond the last match (the offset line's points follow the base's in order). */
const STATION_WINDOW = 64

/** The station table of a line that is its own base line (see DriverPath.station): the station is the arc length. */
function baseStations(poly: Polyline): Float64Array {
  const table = new Float64Array(STATIONS_STRIDE * poly.segments)
  for (let i = 0; i < poly.segments; i++) {
    const s0 = poly.packed[i * SEG_STRIDE + SEG_S]
    table[STATIONS_STRIDE * i] = s0
    table[STATIONS_STRIDE * i + 1] = s0
    table[STATIONS_STRIDE * i + 2] = 1
  }
  return table
}

/**
 * The station table of an offset line `poly` over its `base` (see DriverPath.station): each offset
 * point projected onto the base line, searching a window on from the last point's match, so the
 * table is built in one pass.
 */
function stationTable(poly: Polyline, base: Polyline): Float64Array {
  const at = new Float64Array(poly.n)
  let j = 0
  for (let k = 0; k < poly.n; k++) {
    const px = poly.x[k], py = poly.y[k]
    let best = j, bestD2 = Infinity, bestS = 0
    for (let w = 0, q = j; w < STATION_WINDOW && w < base.segments; w++) {
      const len = base.s[q + 1] - base.s[q], dx = px - base.x[q], dy = py - base.y[q]
      let t = dx * base.tx[q] + dy * base.ty[q]
      t = t < 0 ? 0 : t > len ? len : t
      const ex = dx - base.tx[q] * t, ey = dy - base.ty[q] * t, d2 = ex * ex + ey * ey
      if (d2 < bestD2) { bestD2 = d2; best = q; bestS = base.s[q] + t }
      if (++q >= base.segments) { if (!base.closed) break; q = 0 }
    }
    // (a closed line's first point may match the base's end: it is station 0)
    at[k] = k === 0 && base.closed && bestS > base.length / 2 ? bestS - base.length : bestS
    j = best
  }
  const table = new Float64Array(STATIONS_STRIDE * poly.segments)
  for (let i = 0; i < poly.segments; i++) {
    let next = i + 1 < poly.n ? at[i + 1] : at[0] + base.length
    if (next < at[i]) next += base.closed && at[i] - next > base.length / 2 ? base.length : 0
    const len = poly.s[i + 1] - poly.s[i], rate = (next - at[i]) / len
    table[STATIONS_STRIDE * i] = poly.packed[i * SEG_STRIDE + SEG_S]
    table[STATIONS_STRIDE * i + 1] = at[i]
    table[STATIONS_STRIDE * i + 2] = rate > 0 && rate < 4 ? rate : 1
  }
  return table
}

/**
 * Writes the profile's v² at each segment's start and its acceleration along the segment into the
 * segment records (SEG_V2, SEG_ACCEL), so a step reads one record and divides nothing. `poly`
 * belongs to this path alone (preparePath builds it).
 */
function fillProfileSlots(poly: Polyline, profile: Float64Array): void {
  const p = poly.packed, n = poly.n
  for (let i = 0; i < poly.segments; i++) {
    const j = i + 1 === n ? 0 : i + 1
    const a2 = profile[i] * profile[i], b2 = profile[j] * profile[j]
    p[i * SEG_STRIDE + SEG_V2] = a2
    p[i * SEG_STRIDE + SEG_ACCEL] = (b2 - a2) / (2 * p[i * SEG_STRIDE + SEG_LEN])
  }
}

/** Builds (validating) the path a driver follows for `path` and `options`, outside any table. */
export function buildDriverPath(path: unknown, options: unknown): DriverPath {
  return preparePath(createPathTable(), path, options).path
}

/** Gives car `eid` the prepared record (releasing its previous one). */
export function assignPath(table: PathTable, eid: number, prepared: { path: DriverPath; base: Polyline }): void {
  releasePath(table, eid)
  let rec = table.shared.find((r) => r.path === prepared.path)
  if (!rec) { rec = { path: prepared.path, base: prepared.base, users: 0 }; table.shared.push(rec) }
  rec.users++
  while (table.byCar.length <= eid) table.byCar.push(undefined)
  table.byCar[eid] = rec.path
}

/** Forgets car `eid`'s path; a record nobody uses any more leaves the table. */
export function releasePath(table: PathTable, eid: number): void {
  const path = table.byCar[eid]
  if (path === undefined) return
  table.byCar[eid] = undefined
  const i = table.shared.findIndex((r) => r.path === path)
  if (i >= 0 && --table.shared[i].users === 0) table.shared.splice(i, 1)
}
