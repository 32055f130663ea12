/**
 * Rotating sweeps: a spinning head casts yaw column y at y/(yawCount·hz) s into each sweep. Each
 * step casts the columns whose times fall in the step, each from the sensor pose at its time (the
 * pose interpolated over the step: position linearly, rotation by slerp), through the BVH — the
 * sensor moves between columns, so nothing angular is cached. The columns of one step form the
 * lidar's slice; a sweep's columns collect in its building scan, which becomes the lidar's scan
 * when the sweep completes.
 */
import type { LidarState, LidarSensor } from './install'
import { buildSweepRows, fillSweepRays } from './strategy'
import { castSweepRows } from './cast-rays'
import { lidarHitNormals } from './caster'
import { updateLidarDirections } from './directions'
import { fillLidarAttributes, fillLidarTriangles } from './attributes'
import { applyLidarNoise } from './noise'
import { appendLidarScan, lidarScanShades, type LidarScan } from './scan'
import { lidarWorldPose, NO_ANCHOR } from './sensor'
import { quatFromMat3 } from '../math/quat'

/** Columns of a sweep of `columns` columns at `hz` whose times (y/(columns·hz)) are before `a` s into it. */
export function sweepColumnsBefore(a: number, columns: number, hz: number): number {
  // a column whose time lies within rounding of `a` counts as not yet reached (ties go to the next step)
  const c = Math.ceil(a * columns * hz - 1e-6)
  return c < 0 ? 0 : c > columns ? columns : c
}

/**
 * Poses of rows [y0, y1) into `out` (12 numbers a row: rotation, then position, as fillLidarRays
 * reads them): row y at fraction f = f0 + y·fStep (clamped to [0, 1]) of the way from (r0, p0)
 * to (r1, p1), position linearly, rotation by slerp of the two rotations' quaternions; equal
 * rotations give r0 exactly. `q` is scratch (8 numbers). Returns the angle (rad) of the rotation
 * from r0 to r1, so no row turns further than that from either end.
 */
export function interpolateLidarRows(r0: Float64Array, p0: Float64Array, r1: Float64Array, p1: Float64Array, f0: number, fStep: number,
  y0: number, y1: number, out: Float64Array, q: Float64Array): number {
  let same = true
  for (let i = 0; i < 9; i++) if (r0[i] !== r1[i]) same = false
  let theta = 0, sinTheta = 0, sign = 1
  if (!same) {
    quatFromMat3(q, 0, r0)
    quatFromMat3(q, 4, r1)
    let d = q[0] * q[4] + q[1] * q[5] + q[2] * q[6] + q[3] * q[7]
    if (d < 0) { d = -d; sign = -1 }
    theta = d < 1 ? Math.acos(d) : 0
    sinTheta = Math.sin(theta)
  }
  for (let y = y0; y < y1; y++) {
    const j = 12 * (y - y0), g = f0 + y * fStep, f = g <= 0 ? 0 : g >= 1 ? 1 : g
    for (let i = 0; i < 3; i++) out[j + 9 + i] = f === 0 ? p0[i] : p0[i] + f * (p1[i] - p0[i])
    if (same || f === 0) { for (let i = 0; i < 9; i++) out[j + i] = r0[i]; continue }
    // nearly equal rotations: the linear blend (normalised below) is slerp to rounding
    const w0 = theta < 1e-6 ? 1 - f : Math.sin((1 - f) * theta) / sinTheta
    const w1 = sign * (theta < 1e-6 ? f : Math.sin(f * theta) / sinTheta)
    const bx = w0 * q[0] + w1 * q[4], by = w0 * q[1] + w1 * q[5], bz = w0 * q[2] + w1 * q[6], bw = w0 * q[3] + w1 * q[7]
    // the unit quaternion's matrix (mat3FromQuat's formula, here per row without a call per row)
    const n = Math.sqrt(bx * bx + by * by + bz * bz + bw * bw), x = bx / n, yq = by / n, z = bz / n, w = bw / n
    const xx = x * x, yy = yq * yq, zz = z * z, xy = x * yq, xz = x * z, yz = yq * z, wx = w * x, wy = w * yq, wz = w * z
    out[j] = 1 - 2 * (yy + zz); out[j + 1] = 2 * (xy - wz); out[j + 2] = 2 * (xz + wy)
    out[j + 3] = 2 * (xy + wz); out[j + 4] = 1 - 2 * (xx + zz); out[j + 5] = 2 * (yz - wx)
    out[j + 6] = 2 * (xz - wy); out[j + 7] = 2 * (yz + wx); out[j + 8] = 1 - 2 * (xx + yy)
  }
  return 2 * theta
}

/** Swaps the buffers and counts of two scans carrying the same arrays (no copy, no allocation). */
function swapScans(a: LidarScan, b: LidarScan): void {
  const count = a.count, points = a.points, rays = a.rays, distances = a.distances, colliders = a.colliders, objects = a.objects
  const localIds = a.localIds, triangles = a.triangles, normals = a.normals, cosines = a.cosines, intensities = a.intensities, times = a.times
  a.count = b.count; a.points = b.points; a.rays = b.rays; a.distances = b.distances; a.colliders = b.colliders; a.objects = b.objects
  a.localIds = b.localIds; a.triangles = b.triangles; a.normals = b.normals; a.cosines = b.cosines; a.intensities = b.intensities; a.times = b.times
  b.count = count; b.points = points; b.rays = rays; b.distances = distances; b.colliders = colliders; b.objects = objects
  b.localIds = localIds; b.triangles = triangles; b.normals = normals; b.cosines = cosines; b.intensities = intensities; b.times = times
}

/**
 * The runs of columns a step casts: the head at phase `a` s into its sweep steps `dt` s, so it
 * finishes the sweep and starts the next as often as the step spans. Writes into `out` (grown when
 * short; returned) out[0] = the phase after the step, out[1] = the number of runs, then per run
 * [y0, y1, offset, completes]: columns [y0, y1) (possibly none), column y cast at step time
 * offset + y/(columns·hz), and 1 when the sweep completes with the run.
 */
export function sweepRuns(a: number, dt: number, columns: number, hz: number, out: Float64Array): Float64Array {
  const period = 1 / hz
  let n = 0, elapsed = 0 // elapsed: the step time the phase `a` corresponds to
  for (;;) {
    const end = a + (dt - elapsed) // the phase the step ends at, in this sweep
    const completes = end >= period * (1 - 1e-9)
    if (out.length < 2 + 4 * (n + 1)) { const grown = new Float64Array(2 * out.length + 8); grown.set(out); out = grown }
    const o = 2 + 4 * n++
    out[o] = sweepColumnsBefore(a, columns, hz); out[o + 1] = completes ? columns : sweepColumnsBefore(end, columns, hz)
    out[o + 2] = elapsed - a; out[o + 3] = completes ? 1 : 0
    if (!completes) { a = end; break }
    elapsed += period - a
    a = 0
    if (elapsed >= dt) break
  }
  out[0] = a; out[1] = n
  return out
}

/**
 * One step of a rotating lidar: the step runs from sim time `time` to time + dt, the head from
 * Lidar.accum s into its sweep. Casts the step's columns into the slice (and the building sweep),
 * completing sweeps on the way, against one build for the whole step; `scanNumber` keys the noise.
 * Leaves the end pose in Lidar.pose / Lidar.origin (the next step's start pose) and the head's new
 * phase in Lidar.accum.
 */
export function sweepLidar(state: LidarState, eid: number, sensor: LidarSensor, time: number, dt: number, scanNumber: number): void {
  const { Lidar } = state.components
  const caster = state.casters[eid], scan = state.scans[eid], slice = sensor.slice!, building = sensor.building!
  if (!caster || !scan) return
  const m = 9 * eid, o = 3 * eid, W = Lidar.pose, X = Lidar.origin
  // the start pose: where the last step left the sensor (none yet: the end pose)
  const r0 = caster.startRot, p0 = caster.startPos
  for (let i = 0; i < 9; i++) r0[i] = W[m + i]
  for (let i = 0; i < 3; i++) p0[i] = X[o + i]
  const objectId = lidarWorldPose(state, eid)
  slice.count = 0
  if (objectId === NO_ANCHOR) return
  const r1 = caster.endRot, p1 = caster.endPos
  for (let i = 0; i < 9; i++) r1[i] = W[m + i]
  for (let i = 0; i < 3; i++) p1[i] = X[o + i]
  if (!(p0[0] === p0[0])) { r0.set(r1); p0.set(p1) }
  const hz = Lidar.hz[eid], Y = Lidar.yawCount[eid], P = Lidar.pitchCount[eid]
  const rangeMin = Lidar.rangeMin[eid], rangeMax = Lidar.rangeMax[eid], mask = Lidar.collisionMask[eid], localId = objectId >= 0 ? 0 : -1
  const d = caster.dirs
  updateLidarDirections(d, Lidar.yawStart[eid], Lidar.yawIncrement[eid], Y, Lidar.pitchStart[eid], Lidar.pitchIncrement[eid], P)
  const noisy = sensor.sigma > 0 || sensor.dropout > 0 || sensor.intensityDropout > 0
  if (caster.rowPoses.length < 12 * Y) caster.rowPoses = new Float64Array(12 * Y)
  const rows = caster.rowPoses, rays = caster.rays, colTime = 1 / hz / Y
  const runs = caster.runs = sweepRuns(Lidar.accum[eid], dt, Y, hz, caster.runs), nRuns = runs[1]
  let built = false
  for (let k = 0; k < nRuns; k++) {
    const j = 2 + 4 * k, y0 = runs[j], y1 = runs[j + 1], offset = runs[j + 2]
    const sliceFrom = slice.count
    if (y1 > y0) {
      // column y is cast at step time offset + y·colTime, from the pose interpolated to it
      const turn = interpolateLidarRows(r0, p0, r1, p1, dt > 0 ? offset / dt : 1, dt > 0 ? colTime / dt : 0, y0, y1, rows, caster.quat)
      if (!built) {
        // every column's pose is within the step's motion of the end pose: candidates padded by it serve the whole step
        const slack = Math.sqrt((p1[0] - p0[0]) ** 2 + (p1[1] - p0[1]) ** 2 + (p1[2] - p0[2]) ** 2)
        // the step's columns: one run, or the end of a sweep and the start of the next; a step longer than a sweep: all
        const whole = nRuns > 2, two = nRuns === 2
        buildSweepRows(state.collision, caster, r1, p1, slack > 0 ? slack * (1 + 1e-9) + 1e-9 : 0, turn > 0 ? turn * (1 + 1e-9) + 1e-9 : 0,
          rangeMin, rangeMax, objectId, localId, mask, whole ? 0 : runs[2], whole ? Y : runs[3], two ? runs[6] : 0, two ? runs[7] : 0)
        built = true
      }
      fillSweepRays(caster, r1, p1, rangeMin, y0, y1, rows)
      const N = slice.colliders === null ? null : lidarHitNormals(caster, (y1 - y0) * P)
      castSweepRows(state.collision, caster, rangeMin, rangeMax, objectId, localId, mask, slice, y0, y1, lidarScanShades(slice) ? N : null)
      if (N !== null) fillLidarAttributes(state.collision, slice, sliceFrom, rays.org, rays.dir, N, y0 * P, r1, rows, P)
      if (slice.triangles !== null) fillLidarTriangles(state.collision, slice, sliceFrom, rays.org, rays.dir, y0 * P, rangeMin)
      const times = slice.times!, start = time + offset
      // points come in ray order: each column's time is worked out once, at its first point
      for (let i = sliceFrom, colEnd = 0, t = 0; i < slice.count; i++) {
        const ray = slice.rays[i]
        if (ray >= colEnd) { const y = (ray / P) | 0; colEnd = (y + 1) * P; t = start + y * colTime }
        times[i] = t
      }
      if (noisy) applyLidarNoise(slice, sliceFrom, sensor.sigma, sensor.dropout, sensor.intensityDropout, sensor.seed, scanNumber)
      appendLidarScan(building, slice, sliceFrom, slice.count - sliceFrom)
    }
    if (runs[j + 3] === 1) {
      swapScans(scan, building)
      building.count = 0
    }
  }
  Lidar.accum[eid] = runs[0]
}
