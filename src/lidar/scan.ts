/** LidarScan: the growable, reusable output of a lidar scan (compact sensor-frame hit points and their opt-in attributes). */
import { describe, optionsObject } from '../validate'

/** The per-point attributes a scan can carry (each off by default). */
export interface LidarScanOptions {
  /** `colliders`, `objects`, `localIds`, `triangles`: what each point hit. */
  hits?: boolean
  /** `normals` (sensor frame) and `cosines` (of the incidence angle). */
  normals?: boolean
  /** `intensities` (see lidarIntensity). */
  intensity?: boolean
}

/** The result of rayTestLidar: `count` hits, compact, in ray order (yaw outer, pitch inner). */
export interface LidarScan {
  /** Number of hit points. */
  count: number
  /** Sensor-frame hit points, xyz triples; entries beyond 3·count are stale. */
  points: Float64Array
  /** For each point, the index y·pitchCount + p of its ray. */
  rays: Int32Array
  /** For each point, its range from the sensor (rangeMin + distance along the ray). */
  distances: Float64Array
  /** For each point, the collider entity it hit (with `hits`; also kept for `normals` and `intensity`, which derive from it); else null. */
  colliders: Int32Array | null
  /** For each point, the hit collider's `object` (with `hits`, else null). */
  objects: Int32Array | null
  /** For each point, the hit collider's `localId` (with `hits`, else null). */
  localIds: Int32Array | null
  /** For each point, the mesh triangle hit (RayHit.triangle: −1 for any other shape) (with `hits`, else null). */
  triangles: Int32Array | null
  /** For each point, the surface normal in the sensor frame, xyz triples (with `normals`, else null). */
  normals: Float64Array | null
  /** For each point, the cosine of the incidence angle, −normal·direction, in [0, 1] (with `normals`, else null). */
  cosines: Float64Array | null
  /** For each point, its intensity in [0, 1] (with `intensity`, else null; see lidarIntensity). */
  intensities: Float64Array | null
  /** For each point, the sim time (s) its ray was cast: rotating lidars' scans only, else null. */
  times: Float64Array | null
}

function flag(v: unknown, name: string): boolean {
  if (v === undefined) return false
  if (typeof v !== 'boolean') throw new TypeError(`${name} must be a boolean, got ${describe(v)}`)
  return v
}

/** Throws a RangeError naming the first key of `o` not in `accepted`, and the accepted ones. */
export function refuseUnknownKeys(o: object, accepted: readonly string[], name: string): void {
  for (const k of Object.keys(o)) if (!accepted.includes(k)) throw new RangeError(`${name}.${k} is not an option (expected one of ${accepted.join(', ')})`)
}

const SCAN_KEYS = ['hits', 'normals', 'intensity'] as const

/** Reads `{ hits, normals, intensity }` (unknown keys refused); returns the three flags. */
export function parseLidarScanOptions(options: unknown, name: string): Required<LidarScanOptions> {
  if (options === undefined) return { hits: false, normals: false, intensity: false }
  const o = optionsObject<LidarScanOptions>(options, name)
  refuseUnknownKeys(o, SCAN_KEYS, name)
  return { hits: flag(o.hits, `${name}.hits`), normals: flag(o.normals, `${name}.normals`), intensity: flag(o.intensity, `${name}.intensity`) }
}

/**
 * Creates an empty scan, with the per-point attributes asked for; it grows on demand and is reused
 * without allocation once warm. A scan that asks for none costs what a plain scan costs.
 */
export function createLidarScan(options?: LidarScanOptions): LidarScan {
  const a = parseLidarScanOptions(options, 'options')
  const any = a.hits || a.normals || a.intensity
  return {
    count: 0, points: new Float64Array(0), rays: new Int32Array(0), distances: new Float64Array(0),
    colliders: any ? new Int32Array(0) : null, objects: a.hits ? new Int32Array(0) : null, localIds: a.hits ? new Int32Array(0) : null, triangles: a.hits ? new Int32Array(0) : null,
    normals: a.normals ? new Float64Array(0) : null, cosines: a.normals ? new Float64Array(0) : null,
    intensities: a.intensity ? new Float64Array(0) : null, times: null,
  }
}

/** True when the scan carries normals or intensities: each point then needs its hit's normal. */
export function lidarScanShades(scan: LidarScan): boolean {
  return scan.normals !== null || scan.intensities !== null
}

/** Empties a scan (keeps its buffers). */
export function clearLidarScan(scan: LidarScan): void {
  scan.count = 0
}

function grownF64(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n)
  b.set(a)
  return b
}

function grownI32(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n)
  b.set(a)
  return b
}

/** Grows `scan`'s buffers (by doubling, keeping contents) so that `n` points fit. */
export function reserveLidarScan(scan: LidarScan, n: number): void {
  const cap = scan.rays.length
  if (n <= cap) return
  let next = Math.max(64, cap)
  while (next < n) next *= 2
  scan.points = grownF64(scan.points, 3 * next)
  scan.rays = grownI32(scan.rays, next)
  scan.distances = grownF64(scan.distances, next)
  if (scan.colliders) scan.colliders = grownI32(scan.colliders, next)
  if (scan.objects) scan.objects = grownI32(scan.objects, next)
  if (scan.localIds) scan.localIds = grownI32(scan.localIds, next)
  if (scan.triangles) scan.triangles = grownI32(scan.triangles, next)
  if (scan.normals) scan.normals = grownF64(scan.normals, 3 * next)
  if (scan.cosines) scan.cosines = grownF64(scan.cosines, next)
  if (scan.intensities) scan.intensities = grownF64(scan.intensities, next)
  if (scan.times) scan.times = grownF64(scan.times, next)
}

/** Throws a TypeError unless `scan` looks like a LidarScan made by createLidarScan. */
export function assertLidarScan(scan: unknown, name: string): LidarScan {
  const s = scan as LidarScan
  if (s === null || typeof s !== 'object' || !(s.points instanceof Float64Array) || !(s.rays instanceof Int32Array) || !(s.distances instanceof Float64Array)) {
    throw new TypeError(`${name} must be a LidarScan from createLidarScan()`)
  }
  if ((s.objects || s.normals || s.intensities) && !(s.colliders instanceof Int32Array)) throw new TypeError(`${name} has attributes but no colliders array: make it with createLidarScan()`)
  return s
}

function copyF64(dst: Float64Array, at: number, src: Float64Array, from: number, n: number): void {
  for (let i = 0; i < n; i++) dst[at + i] = src[from + i]
}

function copyI32(dst: Int32Array, at: number, src: Int32Array, from: number, n: number): void {
  for (let i = 0; i < n; i++) dst[at + i] = src[from + i]
}

/** Appends points [from, from + n) of `src` to `dst` (every array `dst` carries; `src` must carry at least those). */
export function appendLidarScan(dst: LidarScan, src: LidarScan, from: number, n: number): void {
  const at = dst.count
  reserveLidarScan(dst, at + n)
  copyF64(dst.points, 3 * at, src.points, 3 * from, 3 * n)
  copyI32(dst.rays, at, src.rays, from, n)
  copyF64(dst.distances, at, src.distances, from, n)
  if (dst.colliders) copyI32(dst.colliders, at, src.colliders!, from, n)
  if (dst.objects) copyI32(dst.objects, at, src.objects!, from, n)
  if (dst.localIds) copyI32(dst.localIds, at, src.localIds!, from, n)
  if (dst.triangles) copyI32(dst.triangles, at, src.triangles!, from, n)
  if (dst.normals) copyF64(dst.normals, 3 * at, src.normals!, 3 * from, 3 * n)
  if (dst.cosines) copyF64(dst.cosines, at, src.cosines!, from, n)
  if (dst.intensities) copyF64(dst.intensities, at, src.intensities!, from, n)
  if (dst.times) copyF64(dst.times, at, src.times!, from, n)
  dst.count = at + n
}
