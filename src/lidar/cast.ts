/**
 * rayTestLidar's engine: validates the ray-ish arguments (a bad one clears the scan, never throws),
 * then casts every ray of the pattern with one of four exact strategies, all giving the same
 * hits as rayTest along the same rays:
 * - flat: one scan-wide culled candidate list, nearest bound first (small scenes);
 * - buckets: angular yaw × pitch cells of candidates, nearest bound first (dense, clustered);
 * - raster: each candidate's cone rasterised onto the pattern, per-ray best (large sparse scenes);
 * - bvh: the collision domain's BVH per ray (few rays, or unsupported configurations).
 * Candidates, buckets and world rays are cached per caster while the scene version, pose, ranges,
 * filter, mask and pattern are unchanged. The cost model: docs/decisions/0005-lidar-strategies.md. */
import { mat3FromQuat, mat3RotationError } from '../math/mat3'
import { assertLidarScan, lidarScanShades, reserveLidarScan, type LidarScan } from './scan'
import { createLidarDirections, updateLidarDirections, type LidarDirections } from './directions'
import { createLidarBuckets, fillLidarBuckets, layoutLidarBuckets, lidarBucketRayRanges, meanLidarCellLength, windowLidarBuckets, writeLidarBucketItems, type LidarBuckets } from './buckets'
import { collectLidarCandidates, createLidarCandidates, type LidarCandidates } from './candidates'
import { lidarTestCandidate } from './candidate-test'
import { fillLidarAttributes } from './attributes'
import { createLidarRaster, layoutLidarRaster, lidarRasterApplies, rasterLidar, type LidarRaster } from './raster'
import { writeRasterHits } from './raster-hits'
import { prepareLidarRaster } from './raster-spans'
import { castRayR } from '../collision/query'
import { createLidarRays, fillLidarRays, lidarRaysCurrent, LIDAR_RAY_CACHE_MAX, type LidarRays } from './rays'
import { broadphaseStale, updateBroadphase, type CollisionState } from '../collision/state'

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
    strategy: 0, force: 0, builtForce: 0, version: -1, key: new Float64Array(KEY).fill(NaN), dirsRevision: -1, tests: 0, estimate: new Float64Array(4), raster: createLidarRaster(), scansSinceBuild: 1, reuse: 1,
    rot: new Float64Array(9), pos: new Float64Array(3), rays: createLidarRays(), hitNormals: new Float64Array(0), hit: new Float64Array(4), ray: new Float64Array(7),
    mountRot: new Float64Array(9), mountPos: new Float64Array(3),
    startRot: new Float64Array(9), startPos: new Float64Array(3), endRot: new Float64Array(9), endPos: new Float64Array(3), quat: new Float64Array(8), rowPoses: new Float64Array(0), runs: new Float64Array(10),
  }
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1
}

function filterValue(v: unknown): number {
  return v === undefined ? -1 : typeof v === 'number' ? v : NaN
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v)
}

/** Reads rot (Mat3 or quaternion) and pos into the caster; false when unusable. */
function readPose(c: LidarCaster, rot: ArrayLike<number>, pos: ArrayLike<number>): boolean {
  if (rot === null || typeof rot !== 'object' || pos === null || typeof pos !== 'object') return false
  if (pos.length !== 3) return false
  for (let i = 0; i < 3; i++) { const v = pos[i]; if (!isFiniteNumber(v)) return false; c.pos[i] = v }
  const n = rot.length
  if (n === 9) {
    for (let i = 0; i < 9; i++) { const v = rot[i]; if (!isFiniteNumber(v)) return false; c.rot[i] = v }
    return true
  }
  if (n === 4) {
    for (let i = 0; i < 4; i++) if (!isFiniteNumber(rot[i])) return false
    if (rot[0] === 0 && rot[1] === 0 && rot[2] === 0 && rot[3] === 0) return false
    mat3FromQuat(c.rot, 0, rot[0], rot[1], rot[2], rot[3])
    return true
  }
  return false
}

/** True when the caster's cached build matches the current key (and stores the key otherwise). */
function keyMatches(c: LidarCaster, version: number, rangeMin: number, rangeMax: number, objectId: number, localId: number, mask: number): boolean {
  const k = c.key
  let same = c.version === version && c.dirsRevision === c.dirs.revision
  for (let i = 0; i < 9; i++) if (k[i] !== c.rot[i]) { same = false; k[i] = c.rot[i] }
  for (let i = 0; i < 3; i++) if (k[9 + i] !== c.pos[i]) { same = false; k[9 + i] = c.pos[i] }
  if (k[12] !== rangeMin) { same = false; k[12] = rangeMin }
  if (k[13] !== rangeMax) { same = false; k[13] = rangeMax }
  if (k[14] !== objectId) { same = false; k[14] = objectId }
  if (k[15] !== localId) { same = false; k[15] = localId }
  if (k[16] !== mask) { same = false; k[16] = mask }
  c.version = version
  c.dirsRevision = c.dirs.revision
  return same
}

/**
 * Fills `scan` with the hits of the pattern (yaw outer, pitch inner; rays from rangeMin to rangeMax). Never throws for ray-ish
 * arguments: a count that is not an integer in [1, 2^24], a non-finite angle, range or filter value,
 * rangeMax ≤ rangeMin, or an unusable rot/pos clears the scan and casts nothing. Throws a TypeError
 * only for a missing or wrong `scan`.
 */
export function castLidar(state: CollisionState, c: LidarCaster, rot: ArrayLike<number>, pos: ArrayLike<number>, yawStart: number, yawIncrement: number, yawCount: number,
  pitchStart: number, pitchIncrement: number, pitchCount: number, rangeMin: number, rangeMax: number,
  objectId: number, localId: number, collisionMask: number, scan: LidarScan): LidarScan {
  assertLidarScan(scan, 'scan')
  scan.count = 0
  c.tests = 0
  // counts beyond 2^24 per axis would only fail to allocate: they are treated as unusable, like a zero count
  if (!isCount(yawCount) || !isCount(pitchCount) || yawCount > 1 << 24 || pitchCount > 1 << 24 || yawCount * pitchCount > 0x7fffffff) return scan
  if (!isFiniteNumber(yawStart) || !isFiniteNumber(yawIncrement) || !isFiniteNumber(pitchStart) || !isFiniteNumber(pitchIncrement)) return scan
  if (!isFiniteNumber(rangeMin) || !isFiniteNumber(rangeMax) || !(rangeMax > rangeMin)) return scan
  const length = rangeMax - rangeMin
  if (!Number.isFinite(length)) return scan
  if (!readPose(c, rot, pos)) return scan
  updateLidarDirections(c.dirs, yawStart, yawIncrement, yawCount, pitchStart, pitchIncrement, pitchCount)
  if (!c.dirs.finite) return scan
  // the self-filter and mask exactly as rayTest reads them (missing: -1; non-finite: no hit)
  const oid = filterValue(objectId), lid = filterValue(localId), mask = filterValue(collisionMask) | 0
  if (!Number.isFinite(oid) || !Number.isFinite(lid) || !Number.isFinite(filterValue(collisionMask))) return scan
  if (broadphaseStale(state)) updateBroadphase(state) // queries see current poses
  if (!keyMatches(c, state.version, rangeMin, rangeMax, oid, lid, mask) || c.strategy === 0 || c.builtForce !== c.force) {
    c.strategy = chooseAndBuild(state, c, rangeMin, rangeMax, oid, lid, mask)
    c.builtForce = c.force
  }
  c.scansSinceBuild++
  reserveLidarScan(scan, Math.min(yawCount * pitchCount, 1 << 16))
  // whole patterns up to the cache limit keep their world rays; larger ones go in chunks of rows
  const rowsPerChunk = yawCount * pitchCount <= LIDAR_RAY_CACHE_MAX ? yawCount : Math.max(1, Math.floor(LIDAR_RAY_CACHE_MAX / pitchCount))
  const N = scan.colliders === null ? null : lidarHitNormals(c, rowsPerChunk * pitchCount)
  // the casts keep each hit's normal only for a scan that shades its points
  const castN = lidarScanShades(scan) ? N : null
  let tests = 0
  if (c.strategy === LidarStrategy.raster) {
    // the world rays: for a new pose only those some span reaches; when the pose stands but the
    // spans changed (the scene moved round a fixed sensor), all of them, once
    const rays = c.rays, raster = c.raster
    prepareLidarRaster(raster, c.dirs, c.buckets, c.cands)
    if (!lidarRaysCurrent(rays, c.dirs, c.rot, c.pos, rangeMin, 0, yawCount)) {
      fillLidarRays(rays, c.dirs, c.rot, c.pos, rangeMin, 0, yawCount, undefined, raster.rowLo, raster.rowHi, raster.layout)
    } else if (rays.partialFor !== -1 && rays.partialFor !== raster.layout) fillLidarRays(rays, c.dirs, c.rot, c.pos, rangeMin, 0, yawCount)
    c.tests = rasterLidar(state, c.raster, c.dirs, c.buckets, c.cands, length, rays.org, rays.dir, rays.commonOrigin, c.ray, c.hit, castN)
    writeRasterHits(state, c.raster, c.dirs, c.cands, rangeMin, length, rays.org, rays.dir, rays.commonOrigin, scan, castN, c.rot)
    return scan
  }
  for (let y0 = 0; y0 < yawCount; y0 += rowsPerChunk) {
    const y1 = Math.min(yawCount, y0 + rowsPerChunk)
    if (!lidarRaysCurrent(c.rays, c.dirs, c.rot, c.pos, rangeMin, y0, y1) || c.rays.partialFor !== -1) fillLidarRays(c.rays, c.dirs, c.rot, c.pos, rangeMin, y0, y1)
    const from = scan.count
    if (c.strategy === LidarStrategy.bvh) { castBvh(state, c, rangeMin, length, oid, lid, mask, scan, y0, y1, castN); tests += (y1 - y0) * pitchCount }
    else tests += castLists(state, c, rangeMin, rangeMax, scan, y0, y1, castN)
    if (N !== null) fillLidarAttributes(state, scan, from, c.rays.org, c.rays.dir, N, y0 * pitchCount, c.rot)
  }
  c.tests = tests
  return scan
}

/** The caster's per-ray hit normals, with room for `rays` rays. */
export function lidarHitNormals(c: LidarCaster, rays: number): Float64Array {
  if (c.hitNormals.length < 3 * rays) c.hitNormals = new Float64Array(3 * rays)
  return c.hitNormals
}

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
function chooseAndBuild(state: CollisionState, c: LidarCaster, rangeMin: number, rangeMax: number, objectId: number, localId: number, mask: number,
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

/**
 * Casts rows [y0, y1) (within the last buildSweepRows' rows) whose world rays are already in
 * c.rays (fillSweepRays): the same hits as rayTest along each ray; with `hitNormals`
 * (lidarHitNormals), each hit's world normal goes there as for castLists.
 */
export function castSweepRows(state: CollisionState, c: LidarCaster, rangeMin: number, rangeMax: number, objectId: number, localId: number, mask: number,
  scan: LidarScan, y0: number, y1: number, hitNormals: Float64Array | null): void {
  if (c.strategy === LidarStrategy.bvh) castBvh(state, c, rangeMin, rangeMax - rangeMin, objectId, localId, mask, scan, y0, y1, hitNormals)
  else castLists(state, c, rangeMin, rangeMax, scan, y0, y1, hitNormals)
}

const NONE = 0x7fffffff

/** Appends hit (ray index, range, sensor-frame direction, collider) to the scan, growing it when full. */
function pushHit(scan: LidarScan, ray: number, range: number, dx: number, dy: number, dz: number, collider: number): void {
  const i = scan.count
  if (i >= scan.rays.length) reserveLidarScan(scan, i + 1)
  scan.points[3 * i] = range * dx; scan.points[3 * i + 1] = range * dy; scan.points[3 * i + 2] = range * dz
  scan.rays[i] = ray
  scan.distances[i] = range
  if (scan.colliders !== null) scan.colliders[i] = collider
  scan.count = i + 1
}

/**
 * Casts rays of yaw rows [y0, y1) against the flat list or the buckets, nearest bound first with
 * early exit; returns the tests run. With `N`, each hit's world normal (rayColliderRay's; none for
 * a plane) goes to N at its ray's offset in c.rays.
 */
function castLists(state: CollisionState, c: LidarCaster, rangeMin: number, rangeMax: number, scan: LidarScan, y0: number, y1: number, N: Float64Array | null): number {
  // the rays' length worked out here, not passed: each ray's best distance starts from it and then
  // stays an unboxed number (from a parameter it is boxed anew on every better hit; test/lidar/alloc.test.ts)
  const length = rangeMax - rangeMin
  const d = c.dirs, b = c.buckets, k = c.cands
  const cy = d.cy, sy = d.sy, cp = d.cp, sp = d.sp, P = d.pitchCount
  const cells = c.strategy === LidarStrategy.buckets
  const E = cells ? b.everywhere : b.inBand, nE = cells ? b.everywhereCount : b.inBandCount
  const items = b.items, start = b.cellStart, rowOf = b.rowOfPitch, flipOf = b.flipOfPitch, colN = b.colOfYaw, colF = b.colOfYawFlipped, nYaw = b.nYaw
  const ceid = k.eid, clow = k.lowerT, csx = k.sx, csy = k.sy, csz = k.sz, csr2 = k.sr2, cplane = k.plane
  const u1x = k.u1x, u1y = k.u1y, u2x = k.u2x, u2y = k.u2y, wedgeSin = k.wedgeSin
  const O = c.rays.org, D = c.rays.dir
  const hit = c.hit, ray = c.ray
  let tests = 0, q = 0
  for (let y = y0; y < y1; y++) {
    const cyy = cy[y], syy = sy[y], cn = colN[y], cf = colF[y]
    for (let p = 0; p < P; p++, q += 3) {
      let i = 0, j = 0, jEnd = 0
      if (cells) { const cell = rowOf[p] * nYaw + (flipOf[p] ? cf : cn); j = start[cell]; jEnd = start[cell + 1] }
      if (j === jEnd && nE === 0) continue // nothing to test (a rotating sweep fills no world ray for it)
      const ox = O[q], oy = O[q + 1], oz = O[q + 2], nx = D[q], ny = D[q + 1], nz = D[q + 2], cpp = cp[p]
      let best = length, bestEid = -1, bnx = 0, bny = 0, bnz = 0
      for (;;) {
        const a = i < nE ? E[i] : NONE, bb = j < jEnd ? items[j] : NONE
        let ci: number
        if (a < bb) { ci = a; i++ } else if (bb !== NONE) { ci = bb; j++ } else break
        if (clow[ci] > best) break
        // the candidate's yaw wedge (the raster's test, on the sample's yaw in the sensor frame;
        // for a pitch beyond ±90° the yaw turns by π, so no test): outside it, no ray can hit
        const w1x = u1x[ci], w1y = u1y[ci]
        if ((w1x !== 0 || w1y !== 0) && cpp > 0) {
          const ws = -wedgeSin[ci]
          if (w1x * syy - w1y * cyy < ws || cyy * u2y[ci] - syy * u2x[ci] < ws) continue
        }
        const e = ceid[ci]
        // conservative bounding-sphere pre-test (padded radius; |v × n|² has no cancellation)
        const r2 = csr2[ci]
        if (r2 !== Infinity) {
          const vx = csx[ci] - ox, vy = csy[ci] - oy, vz = csz[ci] - oz
          const ex = vy * nz - vz * ny, ey = vz * nx - vx * nz, ez = vx * ny - vy * nx
          if (ex * ex + ey * ey + ez * ez > r2) continue
          const along = vx * nx + vy * ny + vz * nz // sphere wholly behind the start or beyond the best hit
          if (along < 0 ? along * along > r2 : along > best && (along - best) * (along - best) > r2) continue
        }
        tests++
        ray[6] = best
        if (!lidarTestCandidate(state, e, cplane[ci] === 1, O, D, q, ray, hit)) continue
        // rayTest's tie rule: equal distances go to the lowest entity id; a non-plane's world normal is in hit[1..3]
        const t = hit[0]
        if (t < best || bestEid < 0 || (t === best && e < bestEid)) { best = t; bestEid = e; bnx = hit[1]; bny = hit[2]; bnz = hit[3] }
      }
      if (bestEid >= 0) {
        pushHit(scan, y * P + p, rangeMin + best, cpp * cyy, cpp * syy, sp[p], bestEid)
        if (N !== null) { N[q] = bnx; N[q + 1] = bny; N[q + 2] = bnz }
      }
    }
  }
  return tests
}

/**
 * Casts rays of yaw rows [y0, y1) (in c.rays from row y0) through the collision domain's BVH
 * (exactly rayTest's closest-hit query); `N` as for castLists.
 */
function castBvh(state: CollisionState, c: LidarCaster, rangeMin: number, length: number, objectId: number, localId: number, mask: number, scan: LidarScan,
  y0: number, y1: number, N: Float64Array | null): void {
  const d = c.dirs
  const cy = d.cy, sy = d.sy, cp = d.cp, sp = d.sp, P = d.pitchCount
  const O = c.rays.org, D = c.rays.dir
  const hit = c.hit, ray = c.ray
  let q = 0
  for (let y = y0; y < y1; y++) {
    const cyy = cy[y], syy = sy[y]
    for (let p = 0; p < P; p++, q += 3) {
      if (!(D[q] === D[q])) continue // NaN: rayTest casts no such ray
      ray[0] = O[q]; ray[1] = O[q + 1]; ray[2] = O[q + 2]; ray[3] = D[q]; ray[4] = D[q + 1]; ray[5] = D[q + 2]; ray[6] = length
      const e = castRayR(state, ray, objectId, localId, mask, hit)
      if (e >= 0) {
        const cpp = cp[p]
        pushHit(scan, y * P + p, rangeMin + hit[0], cpp * cyy, cpp * syy, sp[p], e)
        if (N !== null) { N[q] = hit[1]; N[q + 1] = hit[2]; N[q + 2] = hit[3] }
      }
    }
  }
}
