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
import { mat3FromQuat } from '../math/mat3'
import { assertLidarScan, lidarScanShades, reserveLidarScan, type LidarScan } from './scan'
import { updateLidarDirections } from './directions'
import { fillLidarAttributes, fillLidarTriangles } from './attributes'
import { rasterLidar } from './raster'
import { writeRasterHits } from './raster-hits'
import { prepareLidarRaster } from './raster-spans'
import { fillLidarRays, lidarRaysCurrent, LIDAR_RAY_CACHE_MAX } from './rays'
import { broadphaseStale, updateBroadphase, type CollisionState } from '../collision/state'
import { lidarHitNormals, LidarStrategy, type LidarCaster } from './caster'
import { chooseAndBuild } from './strategy'
import { castBvh, castLists } from './cast-rays'
import { buildLidarMeshRaster, meshRasterPays } from './mesh-raster'

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
    c.meshRasterStale = true
    c.meshRaster.eid = -1
  }
  c.scansSinceBuild++
  reserveLidarScan(scan, Math.min(yawCount * pitchCount, 1 << 16))
  // whole patterns up to the cache limit keep their world rays; larger ones go in chunks of rows
  const rowsPerChunk = yawCount * pitchCount <= LIDAR_RAY_CACHE_MAX ? yawCount : Math.max(1, Math.floor(LIDAR_RAY_CACHE_MAX / pitchCount))
  const N = scan.colliders === null ? null : lidarHitNormals(c, rowsPerChunk * pitchCount)
  // the casts keep each hit's normal only for a scan that shades its points
  const castN = lidarScanShades(scan) ? N : null
  let tests = 0
  // every ray of the scan lies on a line through the sensor, at or behind its start (meshes use it)
  const anchor = state.anchor
  if (rangeMin >= 0) { anchor[0] = c.pos[0]; anchor[1] = c.pos[1]; anchor[2] = c.pos[2]; anchor[3] = 1 }
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
    if (scan.triangles !== null) fillLidarTriangles(state, scan, 0, rays.org, rays.dir, 0, rangeMin)
    anchor[3] = 0
    return scan
  }
  // a mesh candidate rasterised onto the whole pattern (list strategies, the pattern in one chunk)
  const wholePattern = rowsPerChunk === yawCount && c.strategy !== LidarStrategy.bvh
  if (wholePattern && c.meshRasterStale && meshRasterPays(state, c.cands.eid, c.cands.n, yawCount * pitchCount, rangeMax, c.scansSinceBuild)) {
    buildLidarMeshRaster(state, c.meshRaster, c.cands.eid, c.cands.n, c.dirs, c.rot, c.pos, rangeMin, rangeMax)
    c.meshRasterStale = false
  }
  const meshRaster = wholePattern && c.meshRaster.eid >= 0 ? c.meshRaster : null
  for (let y0 = 0; y0 < yawCount; y0 += rowsPerChunk) {
    const y1 = Math.min(yawCount, y0 + rowsPerChunk)
    if (!lidarRaysCurrent(c.rays, c.dirs, c.rot, c.pos, rangeMin, y0, y1) || c.rays.partialFor !== -1) fillLidarRays(c.rays, c.dirs, c.rot, c.pos, rangeMin, y0, y1)
    const from = scan.count
    if (c.strategy === LidarStrategy.bvh) { castBvh(state, c, rangeMin, length, oid, lid, mask, scan, y0, y1, castN); tests += (y1 - y0) * pitchCount }
    else tests += castLists(state, c, rangeMin, rangeMax, scan, y0, y1, castN, meshRaster)
    if (N !== null) fillLidarAttributes(state, scan, from, c.rays.org, c.rays.dir, N, y0 * pitchCount, c.rot)
    if (scan.triangles !== null) fillLidarTriangles(state, scan, from, c.rays.org, c.rays.dir, y0 * pitchCount, rangeMin)
  }
  c.tests = tests
  anchor[3] = 0
  return scan
}
