/**
 * How a lidar caster picks its strategy (flat list, buckets, raster or BVH) by a cost model, and
 * builds the chosen strategy's structures; a rotating sweep's per-step builds and ray fills.
 * The cost model: docs/decisions/0005-lidar-strategies.md.
 */
import { mat3RotationError } from '../math/mat3'
import { fillLidarBuckets, layoutLidarBuckets, lidarBucketRayRanges, meanLidarCellLength, windowLidarBuckets, writeLidarBucketItems } from './buckets'
import { collectLidarCandidates } from './candidates'
import { layoutLidarRaster, lidarRasterApplies } from './raster'
import { fillLidarRays, LIDAR_RAY_CACHE_MAX } from './rays'
import { broadphaseStale, updateBroadphase, type CollisionState } from '../collision/state'
import { LidarStrategy, type LidarCaster } from './caster'

// Cost model, ns of CPU time (calibrated by process.cpuUsage on the bench/cases/lidar.mjs scenes
// and a few more; see docs/decisions/0005-lidar-strategies.md). A list ray costs RAY plus ENTRY
// per list entry it walks (about WALK of its list: the early exit stops at the first hit); a BVH
// ray (castRay) costs BVH + BVH_LOG·log2(n). A rebuild costs COLLECT per live collider plus FILL per
// bucket entry, spread over the scans the caster has been reusing its builds for. Narrow-phase
// tests are about the same for every strategy and are left out.
const RAY = 40, ENTRY = 12, WALK = 0.75, BVH = 300, BVH_LOG = 60, COLLECT = 250, FILL = 30
// The raster: RASTER_RAY per ray (reset and final pass), PAIR per (candidate, yaw sample) solved,
// TEST per ray test, of which the lower-bound skip leaves about RASTER_WALK.
const RASTER_RAY = 6, PAIR = 40, TEST = 30, RASTER_WALK = 0.7
/** Yaw samples per bucket column for a rotating sweep's step (chosen on the lidarTraffic bench). */
const SWEEP_SAMPLES_PER_COLUMN = 8
/** At or below this many candidates a flat list always wins (nothing to measure). */
const FLAT_MAX = 8
/**
 * Collects candidates, builds the chosen strategy's structures and returns the strategy. For a
 * rotating sweep's rows [y0, y1) and [z0, z1), candidates hold within `slack` and `turn`
 * (collectLidarCandidates) and the raster, which needs the whole pattern, is left out.
 */
export function chooseAndBuild(state: CollisionState, c: LidarCaster, rangeMin: number, rangeMax: number, objectId: number, localId: number, mask: number,
  slack = 0, turn = 0, y0 = 0, y1 = -1, z0 = 0, z1 = 0): number {
  const rows = y1 < 0 ? -1 : y1 - y0 + (z1 - z0)
  const est = c.estimate
  let force = c.force
  // how many scans each build has served lately (a moving sensor rebuilds every scan)
  c.reuse = 0.5 * c.reuse + 0.5 * c.scansSinceBuild
  c.scansSinceBuild = 0
  const spread = Math.max(1, c.reuse)
  est.fill(NaN)
  if (force === LidarStrategy.bvh) return LidarStrategy.bvh
  // angular culling needs rays that start on the sensor's side and a true rotation
  if (rangeMin < 0 || !(mat3RotationError(c.rot) <= 1e-10)) return LidarStrategy.bvh
  const d = c.dirs, rays = (rows < 0 ? d.yawCount : rows) * d.pitchCount, live = state.maxEid + 1
  est[2] = rays * (BVH + BVH_LOG * Math.log2(live + 1))
  const collect = (COLLECT * live) / spread
  // few rays against many colliders: collecting candidates alone would cost more than the BVH
  if (force === 0 && est[2] < collect) return LidarStrategy.bvh
  collectLidarCandidates(state, c.cands, c.rot, c.pos, rangeMin, rangeMax, objectId, localId, mask, slack, turn)
  const k = c.cands, b = c.buckets
  // the grid: one yaw column per sample of the pattern's full turn, one row per channel; a sweep's
  // step, built afresh every step for a few columns, one per SWEEP_SAMPLES_PER_COLUMN samples
  // (fewer cells to fill; the longer lists its rays walk cost less)
  const perTurn = d.yawIncrement === 0 ? 1 : Math.min(1 << 20, Math.ceil((2 * Math.PI) / Math.abs(d.yawIncrement)))
  const columns = rows < 0 ? perTurn : Math.ceil(perTurn / SWEEP_SAMPLES_PER_COLUMN)
  layoutLidarBuckets(b, d, Math.max(8, Math.min(2048, columns)), Math.max(1, Math.min(32, d.pitchCount)))
  if (rows >= 0) windowLidarBuckets(b, y0, y1, z0, z1)
  const rasterOk = rows < 0 && rays <= LIDAR_RAY_CACHE_MAX && lidarRasterApplies(d)
  if (force === LidarStrategy.raster && !rasterOk) force = LidarStrategy.buckets // not applicable: the nearest kin
  const wantCells = force === LidarStrategy.buckets || force === LidarStrategy.raster || (force === 0 && k.n > FLAT_MAX)
  fillLidarBuckets(b, k, wantCells)
  est[0] = collect + rays * (RAY + ENTRY * WALK * b.inBandCount)
  if (wantCells) est[1] = collect + (FILL * b.itemCount) / spread + rays * (RAY + ENTRY * WALK * (b.everywhereCount + meanLidarCellLength(b, d, k.n, y0, y1 < 0 ? d.yawCount : y1)))
  if (wantCells && rasterOk) {
    layoutLidarRaster(c.raster, d, b, k)
    est[3] = collect + rays * RASTER_RAY + PAIR * c.raster.pairs + TEST * RASTER_WALK * c.raster.covered
  }
  let choice = force
  if (choice === 0) {
    choice = LidarStrategy.flat
    if (k.n > FLAT_MAX) {
      let bestNs = est[0]
      if (est[1] < bestNs) { choice = LidarStrategy.buckets; bestNs = est[1] }
      if (est[3] < bestNs) { choice = LidarStrategy.raster; bestNs = est[3] }
      if (est[2] < bestNs) choice = LidarStrategy.bvh
    }
  }
  if (choice === LidarStrategy.buckets) writeLidarBucketItems(b, k.n)
  return choice
}

/**
 * Builds what casts a rotating sweep's step: its columns, rows [y0, y1) and [z0, z1) of c.dirs'
 * pattern (z1 = z0: none), each cast from its own pose, all within `slack` m and `turn` rad of
 * (rot, pos): candidates collected around (rot, pos) for this step only, as the flat list, the
 * buckets or the BVH, as the cost model picks. One build per step, however many runs of columns
 * the step casts, so every step costs about the same.
 */
export function buildSweepRows(state: CollisionState, c: LidarCaster, rot: Float64Array, pos: Float64Array, slack: number, turn: number,
  rangeMin: number, rangeMax: number, objectId: number, localId: number, mask: number, y0: number, y1: number, z0: number, z1: number): void {
  for (let i = 0; i < 9; i++) c.rot[i] = rot[i]
  for (let i = 0; i < 3; i++) c.pos[i] = pos[i]
  if (broadphaseStale(state)) updateBroadphase(state)
  c.strategy = chooseAndBuild(state, c, rangeMin, rangeMax, objectId, localId, mask, slack, turn, y0, y1, z0, z1)
  c.version = -1 // built for this motion only: castLidar never reuses it
  c.scansSinceBuild++
}

/**
 * Fills c.rays with the world rays of rows [y0, y1) (within the last buildSweepRows' rows), each
 * row from its pose in `rowPoses` (fillLidarRays); with the buckets, only the rays whose lists
 * hold something (castLists reads no other).
 */
export function fillSweepRays(c: LidarCaster, rot: Float64Array, pos: Float64Array, rangeMin: number, y0: number, y1: number, rowPoses: Float64Array): void {
  if (c.strategy !== LidarStrategy.buckets) { fillLidarRays(c.rays, c.dirs, rot, pos, rangeMin, y0, y1, rowPoses); return }
  const b = c.buckets
  lidarBucketRayRanges(b, c.dirs, y0, y1)
  fillLidarRays(c.rays, c.dirs, rot, pos, rangeMin, y0, y1, rowPoses, b.rayLo, b.rayHi, SWEEP_RAYS)
}

/** fillLidarRays' layout number for a sweep's partial fill (never a raster layout's). */
const SWEEP_RAYS = -2
