/**
 * The lidar scans of a world snapshot: a lidar's latest scan with every array it carries (points,
 * rays, distances and the opt-in attributes and times), and for a rotating lidar the sweep it is
 * building and its newest slice, so a restore mid-sweep continues with the very points the run
 * would have given.
 */
import { describe } from '../validate'
import { decodeF64, decodeI32, encodeF64, encodeI32 } from './codec'
import { reserveLidarScan, type LidarScan } from '../lidar/scan'
import type { LidarSensor } from '../lidar/install'

/** A scan as stored: count, then one base64 typed array per array the scan carries. */
export interface ScanEntry {
  count: number
  points: string
  rays: string
  distances: string
  colliders?: string
  objects?: string
  localIds?: string
  /** Absent in snapshots older than meshes: restored as −1 (no mesh then). */
  triangles?: string
  normals?: string
  cosines?: string
  intensities?: string
  times?: string
}

/** A rotating lidar's sweep in progress: the columns cast so far, and the last step's columns. */
export interface SweepEntry {
  building: ScanEntry
  slice: ScanEntry
}

/** The optional arrays of a scan: name, Int32 (else Float64), numbers per point. */
const OPTIONAL = [['colliders', true, 1], ['objects', true, 1], ['localIds', true, 1], ['triangles', true, 1], ['normals', false, 3], ['cosines', false, 1], ['intensities', false, 1], ['times', false, 1]] as const

/** The stored form of `scan` (its first `count` points). */
export function encodeScan(scan: LidarScan): ScanEntry {
  const n = scan.count
  const entry: ScanEntry = { count: n, points: encodeF64(scan.points.subarray(0, 3 * n)), rays: encodeI32(scan.rays.subarray(0, n)), distances: encodeF64(scan.distances.subarray(0, n)) }
  for (const [key, int, per] of OPTIONAL) {
    const a = scan[key]
    if (a !== null) entry[key] = int ? encodeI32((a as Int32Array).subarray(0, per * n)) : encodeF64((a as Float64Array).subarray(0, per * n))
  }
  return entry
}

function own(o: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined
}

function entryObject(v: unknown, name: string): object {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${name} must be an object, got ${describe(v)}`)
  return v
}

/** Checks a stored scan's shape (count, lengths, finiteness, ray order); throws TypeError/RangeError naming the field. */
export function checkScanEntry(v: unknown, name: string): ScanEntry {
  const scan = entryObject(v, name)
  const count = own(scan, 'count')
  if (typeof count !== 'number') throw new TypeError(`${name}.count must be a number, got ${describe(count)}`)
  if (!Number.isInteger(count) || count < 0 || count > 1 << 24) throw new RangeError(`${name}.count must be an integer in [0, 2^24], got ${count}`)
  const points = decodeF64(own(scan, 'points'), `${name}.points`, 3 * count)
  for (let k = 0; k < points.length; k++) if (!Number.isFinite(points[k])) throw new RangeError(`${name}.points[${k}] must be finite, got ${points[k]}`)
  const rays = decodeI32(own(scan, 'rays'), `${name}.rays`, count)
  for (let k = 0; k < count; k++) if (rays[k] < 0 || (k > 0 && rays[k] <= rays[k - 1])) throw new RangeError(`${name}.rays[${k}] must ascend from 0, got ${rays[k]}`)
  const distances = decodeF64(own(scan, 'distances'), `${name}.distances`, count)
  for (let k = 0; k < count; k++) if (!(Number.isFinite(distances[k]) && distances[k] >= 0)) throw new RangeError(`${name}.distances[${k}] must be finite and >= 0, got ${distances[k]}`)
  for (const [key, int, per] of OPTIONAL) {
    const s = own(scan, key)
    if (s === undefined) continue
    if (int) decodeI32(s, `${name}.${key}`, per * count)
    else decodeF64(s, `${name}.${key}`, per * count)
  }
  return scan as ScanEntry
}

/** Checks a stored sweep's shape (building and slice scans). */
export function checkSweepEntry(v: unknown, name: string): SweepEntry {
  const e = entryObject(v, name)
  checkScanEntry(own(e, 'building'), `${name}.building`)
  checkScanEntry(own(e, 'slice'), `${name}.slice`)
  return e as SweepEntry
}

/**
 * Checks a stored scan against the scan it would restore and the lidar's `rays`: it must hold
 * every array the scan carries (a lidar with other attributes is another lidar) and rays below
 * `rays`. Throws a RangeError naming `name`.
 */
export function checkScanFits(entry: ScanEntry, scan: LidarScan, rays: number, lidar: number, name: string): void {
  if (entry.count > rays) throw new RangeError(`${name} has ${entry.count} points; lidar ${lidar} casts ${rays} rays`)
  const r = decodeI32(entry.rays, `${name}.rays`, entry.count)
  if (entry.count > 0 && r[entry.count - 1] >= rays) throw new RangeError(`${name}.rays holds ray ${r[entry.count - 1]}; lidar ${lidar} casts ${rays} rays`)
  for (const [key] of OPTIONAL) {
    if (key === 'triangles' && scan.triangles !== null && entry.triangles === undefined) continue // from before meshes: all −1
    if ((scan[key] !== null) !== (entry[key] !== undefined)) {
      throw new RangeError(`${name}: lidar ${lidar}'s scans ${scan[key] !== null ? 'carry' : 'do not carry'} '${key}', the snapshot's ${entry[key] !== undefined ? 'does' : 'does not'}`)
    }
  }
}

/** Checks a lidar's stored sweep against its sensor: present exactly for a rotating lidar, its scans fitting (checkScanFits). */
export function checkSweepFits(sweep: SweepEntry | undefined, sensor: LidarSensor, rays: number, lidar: number, name: string): void {
  if ((sweep !== undefined) !== sensor.rotating) throw new RangeError(`${name}: lidar ${lidar} ${sensor.rotating ? 'is' : 'is not'} a rotating lidar, the snapshot's ${sweep !== undefined ? 'is' : 'is not'}`)
  if (sweep === undefined) return
  checkScanFits(sweep.building, sensor.building!, rays, lidar, `${name}.building`)
  checkScanFits(sweep.slice, sensor.slice!, rays, lidar, `${name}.slice`)
}

/** Writes a checked stored scan into `scan` (every array it carries). */
export function restoreScan(scan: LidarScan, entry: ScanEntry): void {
  const n = entry.count
  reserveLidarScan(scan, n)
  scan.points.set(decodeF64(entry.points, 'points', 3 * n))
  scan.rays.set(decodeI32(entry.rays, 'rays', n))
  scan.distances.set(decodeF64(entry.distances, 'distances', n))
  for (const [key, int, per] of OPTIONAL) {
    const a = scan[key]
    if (a === null) continue
    if (entry[key] === undefined) { (a as Int32Array).fill(-1, 0, n); continue } // triangles from before meshes (checkScanFits)
    if (int) (a as Int32Array).set(decodeI32(entry[key], key, per * n))
    else (a as Float64Array).set(decodeF64(entry[key], key, per * n))
  }
  scan.count = n
}
