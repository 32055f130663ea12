/** A lidar caster: its strategy codes and its per-sensor caches (directions, candidates, buckets, rays, scratch). */
import { createLidarDirections, type LidarDirections } from './directions'
import { createLidarBuckets, type LidarBuckets } from './buckets'
import { createLidarCandidates, type LidarCandidates } from './candidates'
import { createLidarRaster, type LidarRaster } from './raster'
import { createLidarRays, type LidarRays } from './rays'
import { createLidarMeshRaster, type LidarMeshRaster } from './mesh-raster'

/** Strategy codes (Caster.strategy). */
export const LidarStrategy = { none: 0, flat: 1, buckets: 2, bvh: 3, raster: 4 } as const

/** Per-sensor caches: directions, candidates, buckets, the key they were built for, and stats. */
export interface LidarCaster {
  dirs: LidarDirections
  cands: LidarCandidates
  buckets: LidarBuckets
  /** Strategy of the cached build (LidarStrategy), or 0 when nothing is cached. */
  strategy: number
  /** Forces a strategy (tests and benchmarks); 0 lets the cost model choose. */
  force: number
  /** The force the cached build was made under. */
  builtForce: number
  // cache key
  version: number
  key: Float64Array
  dirsRevision: number
  /** Narrow-phase tests run by the last list scan, or rays cast by the last BVH scan (a cost figure). */
  tests: number
  /** Scans served by the current build, and the running mean of that count over past builds. */
  scansSinceBuild: number
  reuse: number
  /** The cost model's estimates (ns per scan, rebuild share included) of flat, buckets, bvh, raster at the last rebuild; NaN where not estimated. */
  estimate: Float64Array
  /** The raster strategy's per-ray best hits and column lists. */
  raster: LidarRaster
  /** A mesh candidate rasterised onto the pattern (list strategies), and whether it needs building for the current key. */
  meshRaster: LidarMeshRaster
  meshRasterStale: boolean
  /** Sensor rotation and position of the current scan. */
  rot: Float64Array
  pos: Float64Array
  /** The world rays (cached while pose, rangeMin and pattern are unchanged). */
  rays: LidarRays
  /** For a scan with attributes: per cached world ray, the world normal of its hit (not kept for planes). */
  hitNormals: Float64Array
  /** Scratch: a narrow-phase result (t, normal), and a ray [ox, oy, oz, dx, dy, dz, tMax]. */
  hit: Float64Array
  ray: Float64Array
  /** Scratch: a hit's range and sensor-frame direction on its way into the scan. */
  hitPoint: Float64Array
  /** Scratch for a Lidar entity's world pose (the caller's arguments). */
  mountRot: Float64Array
  mountPos: Float64Array
  /** Scratch of a rotating sweep: the step's start and end poses, and two quaternions. */
  startRot: Float64Array
  startPos: Float64Array
  endRot: Float64Array
  endPos: Float64Array
  quat: Float64Array
  /** A rotating sweep's per-column poses (12 numbers a column, as fillLidarRays reads them). */
  rowPoses: Float64Array
  /** A rotating sweep's runs of columns in the current step (sweepRuns). */
  runs: Float64Array
}

const KEY = 9 + 3 + 5

/** Creates a caster with empty caches. */
export function createLidarCaster(): LidarCaster {
  return {
    dirs: createLidarDirections(), cands: createLidarCandidates(), buckets: createLidarBuckets(),
    strategy: 0, force: 0, builtForce: 0, version: -1, key: new Float64Array(KEY).fill(NaN), dirsRevision: -1, tests: 0, estimate: new Float64Array(4), raster: createLidarRaster(), meshRaster: createLidarMeshRaster(), meshRasterStale: true, scansSinceBuild: 1, reuse: 1,
    rot: new Float64Array(9), pos: new Float64Array(3), rays: createLidarRays(), hitNormals: new Float64Array(0), hit: new Float64Array(5), ray: new Float64Array(7), hitPoint: new Float64Array(4),
    mountRot: new Float64Array(9), mountPos: new Float64Array(3),
    startRot: new Float64Array(9), startPos: new Float64Array(3), endRot: new Float64Array(9), endPos: new Float64Array(3), quat: new Float64Array(8), rowPoses: new Float64Array(0), runs: new Float64Array(10),
  }
}

/** The caster's per-ray hit normals, with room for `rays` rays. */
export function lidarHitNormals(c: LidarCaster, rays: number): Float64Array {
  if (c.hitNormals.length < 3 * rays) c.hitNormals = new Float64Array(3 * rays)
  return c.hitNormals
}
