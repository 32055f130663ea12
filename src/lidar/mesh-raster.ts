/**
 * A mesh rasterised onto a lidar's own yaw × pitch grid (candidate-major, as the raster strategy
 * bins shapes): the mesh's triangles within rangeMax of the sensor, each listed at the rays inside
 * its conservative angular rectangle (seen from the sensor, padded) whose directions also pass its
 * three padded edge planes through the sensor, nearest bound first per ray. A ray then tests only its own list's triangles with the mesh's watertight test, stopping at
 * the first whose distance bound exceeds its best hit: the same hits as rayTest (the same test, the
 * same tie rule, a superset of the triangles it can meet). Triangles within NEAR of the sensor go
 * to every ray. Built per caster for one mesh candidate when it pays (meshRasterPays), kept while
 * the caster's key stands.
 * Figures: docs/decisions/0009-meshes.md.
 */
import { ColliderKind } from '../../components/collider'
import type { CollisionState } from '../collision/state'
import type { MeshData } from '../collision/mesh-tree'
import { createMeshRayFrame, F_BEST, F_KX, F_KY, F_KZ, F_OX, F_OY, F_OZ, F_SX, F_SY, F_SZ, F_TRI, meshLeaf, setMeshRayFrame, startOnSurface } from '../collision/mesh-leaf'
import { meshFaceNormal } from '../collision/mesh'
import type { LidarDirections } from './directions'

/** Triangles whose distance bound from the sensor is within this (m) are tested by every ray. */
const NEAR = 1e-3
/** Angular padding (rad) of each rectangle: far above the rounding of directions and transforms. */
const PAD = 1e-7
/** Largest coordinate (m, sensor or mesh, in the mesh's frame) for which PAD covers the rounding. */
const MAX_SCALE = 1e5
/** At most this many entries a ray on average, else no raster (the tree or view serves). */
const MAX_ENTRIES_PER_RAY = 64
const TWO_PI = 2 * Math.PI
/** Numbers a gathered triangle keeps: its rectangle and bound (5), its three edge planes through the sensor (9) and their paddings (3). */
const RECT = 17

/** One caster's mesh raster: the mesh collider it is for (−1: none) and its per-ray lists. */
export interface LidarMeshRaster {
  /** The mesh collider rasterised, or −1 when none is (the generic test serves). */
  eid: number
  /** Its mesh data (null when none). */
  mesh: MeshData | null
  /** Triangles tested by every ray (order positions), and how many. */
  near: Int32Array
  nearCount: number
  /** Per ray r: entries cellStart[r] ..< cellStart[r + 1]. */
  cellStart: Int32Array
  /** Entries: the triangle (its index in the mesh), and its distance bound from the sensor. */
  tri: Int32Array
  lower: Float64Array
  /** Scratch of a build: gathered triangles (order positions), their rectangles and bounds. */
  gathered: Int32Array
  rect: Float64Array
  stack: Int32Array
  /** Per-vertex sensor-frame coordinates, valid where stamp equals the build's stamp. */
  vs: Float64Array
  stamp: Int32Array
  builds: number
  /** Distance-bound slack (m) for the rounding of the ray's start, and rangeMin plus it. */
  margin: number
  cut: number
  /** The ray frame and the local ray of a test. */
  F: Float64Array
  L: Float64Array
}

/** An empty mesh raster. */
export function createLidarMeshRaster(): LidarMeshRaster {
  const e = new Int32Array(0)
  return { eid: -1, mesh: null, near: e, nearCount: 0, cellStart: e, tri: e, lower: new Float64Array(0), gathered: e, rect: new Float64Array(0), stack: new Int32Array(64),
    vs: new Float64Array(0), stamp: e, builds: 0, margin: 0, cut: 0, F: createMeshRayFrame(), L: new Float64Array(11) }
}

// What a build costs per triangle within range, and what a ray saves with it (ns of CPU time, on
// the meshLidar terrain: docs/decisions/0009-meshes.md), for meshRasterPays.
const BUILD_PER_TRIANGLE = 500, SAVE_PER_RAY = 400

/**
 * Whether rasterising the largest mesh among candidates eids[0 ..< n] pays for `rays` rays over
 * `scans` scans (the scans the caster's current build has served, this one included): its
 * triangles within rangeMax (estimated from its box's two largest extents) cost a build, each
 * ray saves its tree or view walk. A sensor moving every scan with a small pattern keeps the tree;
 * a standing one builds once the scans pay for it.
 */
export function meshRasterPays(state: CollisionState, eids: Int32Array, n: number, rays: number, rangeMax: number, scans: number): boolean {
  const C = state.Collider
  let m: MeshData | undefined
  for (let i = 0; i < n; i++) {
    const e = eids[i]
    if (C.kind[e] !== ColliderKind.mesh) continue
    const mm = state.meshes[C.mesh[e]]
    if (mm !== undefined && (m === undefined || mm.treeTriangles > m.treeTriangles)) m = mm
  }
  if (m === undefined) return false
  const B = m.box, x = B[3] - B[0], y = B[4] - B[1], z = B[5] - B[2]
  const area = Math.max(x * y, y * z, z * x)
  const share = area > 0 ? Math.min(1, (Math.PI * rangeMax * rangeMax) / area) : 1
  return share * m.treeTriangles * BUILD_PER_TRIANGLE <= rays * SAVE_PER_RAY * scans
}

/**
 * Builds raster mr for the largest mesh collider among candidates eids[0 ..< n] seen by the sensor
 * (rot, pos) over pattern d with ranges [rangeMin, rangeMax], or leaves mr.eid = −1 when there is
 * none or the pattern or scale is outside what the raster handles (every pitch within ±90°).
 */
export function buildLidarMeshRaster(state: CollisionState, mr: LidarMeshRaster, eids: Int32Array, n: number, d: LidarDirections, rot: Float64Array, pos: Float64Array,
  rangeMin: number, rangeMax: number): void {
  mr.eid = -1
  mr.mesh = null
  const C = state.Collider
  let eid = -1, m: MeshData | undefined
  for (let i = 0; i < n; i++) {
    const e = eids[i]
    if (C.kind[e] !== ColliderKind.mesh) continue
    const mm = state.meshes[C.mesh[e]]
    if (mm !== undefined && (m === undefined || mm.treeTriangles > m.treeTriangles)) { m = mm; eid = e }
  }
  if (m === undefined || m.nodeCount === 0 || rangeMin < 0) return
  const p0 = d.pitchStart, p1 = d.pitchStart + (d.pitchCount - 1) * d.pitchIncrement
  if (!(Math.abs(p0) <= Math.PI / 2 && Math.abs(p1) <= Math.PI / 2)) return
  // the sensor in the mesh's frame, and M = Rmᵀ·Rs (sensor-frame direction → mesh frame)
  const P = C.position, R = C.rotation, r = 9 * eid
  const wx = pos[0] - P[3 * eid], wy = pos[1] - P[3 * eid + 1], wz = pos[2] - P[3 * eid + 2]
  const ax = R[r] * wx + R[r + 3] * wy + R[r + 6] * wz, ay = R[r + 1] * wx + R[r + 4] * wy + R[r + 7] * wz, az = R[r + 2] * wx + R[r + 5] * wy + R[r + 8] * wz
  const M = mr.L // scratch: M row-major, M[i][j] = Σk R[k][i]·rot[k][j]
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) M[3 * i + j] = R[r + i] * rot[j] + R[r + 3 + i] * rot[3 + j] + R[r + 6 + i] * rot[6 + j]
  const B = m.box
  const scale = Math.max(Math.abs(ax), Math.abs(ay), Math.abs(az), Math.abs(B[0]), Math.abs(B[1]), Math.abs(B[2]), Math.abs(B[3]), Math.abs(B[4]), Math.abs(B[5]))
  if (!(scale <= MAX_SCALE)) return
  mr.margin = 1e-9 * (1 + scale + rangeMax)
  mr.cut = rangeMin + mr.margin
  axisReach[0] = 1e-7 * (1 + scale)
  const count = gather(mr, m, ax, ay, az, rangeMax + mr.margin + NEAR)
  // sensor-frame corners of each gathered triangle, once per vertex
  const V = m.vertices, I = m.indices, nv = V.length / 3
  if (mr.stamp.length < nv) { mr.stamp = new Int32Array(nv); mr.vs = new Float64Array(3 * nv); mr.builds = 0 }
  const stamp = ++mr.builds, vs = mr.vs, st = mr.stamp
  const m00 = M[0], m01 = M[1], m02 = M[2], m10 = M[3], m11 = M[4], m12 = M[5], m20 = M[6], m21 = M[7], m22 = M[8]
  if (mr.rect.length < RECT * count) mr.rect = new Float64Array(RECT * count + 1024)
  const rect = mr.rect, order = m.order, g = mr.gathered
  let nearCount = 0
  for (let i = 0; i < count; i++) {
    const t = order[g[i]]
    for (let c = 0; c < 3; c++) {
      const v = I[3 * t + c]
      if (st[v] === stamp) continue
      st[v] = stamp
      const x = V[3 * v] - ax, y = V[3 * v + 1] - ay, z = V[3 * v + 2] - az
      vs[3 * v] = m00 * x + m10 * y + m20 * z; vs[3 * v + 1] = m01 * x + m11 * y + m21 * z; vs[3 * v + 2] = m02 * x + m12 * y + m22 * z
    }
    triangleRect(vs, 3 * I[3 * t], 3 * I[3 * t + 1], 3 * I[3 * t + 2], rect, RECT * i)
    if (rect[RECT * i + 4] <= NEAR) nearCount++
  }
  if (mr.near.length < nearCount) mr.near = new Int32Array(nearCount + 16)
  // count the entries per ray, then place them (each ray's entries then sorted nearest first)
  const Y = d.yawCount, Pc = d.pitchCount, rays = Y * Pc
  if (mr.cellStart.length < rays + 1) mr.cellStart = new Int32Array(rays + 1)
  const cs = mr.cellStart
  cs.fill(0, 0, rays + 1)
  let total = 0
  for (let i = 0; i < count; i++) {
    const o = RECT * i
    if (rect[o + 4] <= NEAR || rect[o + 4] > rangeMax + mr.margin) continue
    total += place(d, rect, o, cs, null, null, null, 0)
    if (total > MAX_ENTRIES_PER_RAY * rays) return
  }
  for (let k = 1; k < rays; k++) cs[k] += cs[k - 1]
  cs[rays] = total
  if (mr.tri.length < total) { mr.tri = new Int32Array(total + (total >> 3)); mr.lower = new Float64Array(total + (total >> 3)) }
  // cs[k] is the end of ray k's entries: filled downwards, it ends as their start
  nearCount = 0
  for (let i = 0; i < count; i++) {
    const o = RECT * i, low = rect[o + 4]
    if (low <= NEAR) { mr.near[nearCount++] = g[i]; continue }
    if (low > rangeMax + mr.margin) continue
    place(d, rect, o, null, cs, mr.tri, mr.lower, order[g[i]])
  }
  mr.nearCount = nearCount
  const tri = mr.tri, lower = mr.lower
  for (let k = 0; k < rays; k++) {
    for (let e = cs[k] + 1, end = cs[k + 1]; e < end; e++) {
      const l = lower[e], n = tri[e]
      let j = e - 1
      while (j >= cs[k] && lower[j] > l) { lower[j + 1] = lower[j]; tri[j + 1] = tri[j]; j-- }
      lower[j + 1] = l; tri[j + 1] = n
    }
  }
  mr.eid = eid
  mr.mesh = m
}

/** Gathers into mr.gathered the order positions of the triangles in leaves within `reach` of (ax, ay, az); returns how many. */
function gather(mr: LidarMeshRaster, m: MeshData, ax: number, ay: number, az: number, reach: number): number {
  const B = m.bounds, nodes = m.nodes, r2 = reach * reach
  if (mr.gathered.length < m.treeTriangles) mr.gathered = new Int32Array(m.treeTriangles)
  const g = mr.gathered
  let n = 0, sp = 0, stack = mr.stack
  stack[sp++] = 0
  while (sp > 0) {
    const node = stack[--sp], o = 6 * node
    const gx = Math.max(0, B[o] - ax, ax - B[o + 3]), gy = Math.max(0, B[o + 1] - ay, ay - B[o + 4]), gz = Math.max(0, B[o + 2] - az, az - B[o + 5])
    if (gx * gx + gy * gy + gz * gz > r2) continue
    const f = nodes[2 * node], c = nodes[2 * node + 1]
    if (c > 0) { for (let k = f; k < f + c; k++) g[n++] = k; continue }
    if (sp + 2 > stack.length) { const s = new Int32Array(2 * stack.length); s.set(stack); stack = mr.stack = s }
    stack[sp++] = f + 1; stack[sp++] = f
  }
  return n
}

/**
 * The sensor-frame angular rectangle of the triangle with corners vs[a], vs[b], vs[c]:
 * out[o..o+4] = yaw low, yaw high (high − low ≥ 2π: every yaw), pitch low, pitch high, and a lower
 * bound on its distance from the sensor. Yaw's extremes over a convex set clear of the vertical
 * axis are at its corners; pitch is bounded by z's range over the horizontal distance's range.
 */
function triangleRect(vs: Float64Array, a: number, b: number, c: number, out: Float64Array, o: number): void {
  const x0 = vs[a], y0 = vs[a + 1], z0 = vs[a + 2], x1 = vs[b], y1 = vs[b + 1], z1 = vs[b + 2], x2 = vs[c], y2 = vs[c + 1], z2 = vs[c + 2]
  const zmin = Math.min(z0, z1, z2), zmax = Math.max(z0, z1, z2)
  // the planes through the sensor and each edge: a ray's line meets the triangle only where its
  // direction lies on one side of all three (within the padding, PAD·|n| on n·d)
  edgePlane(vs, a, b, out, o, 0)
  edgePlane(vs, b, c, out, o, 1)
  edgePlane(vs, c, a, out, o, 2)
  const rhoMax = Math.sqrt(Math.max(x0 * x0 + y0 * y0, x1 * x1 + y1 * y1, x2 * x2 + y2 * y2))
  originDistance2D(vs, a, b, c)
  const rhoMin = dist2D[0]
  const zd = zmin > 0 ? zmin : zmax < 0 ? -zmax : 0
  out[o + 4] = Math.sqrt(rhoMin * rhoMin + zd * zd) * (1 - 1e-12)
  out[o + 2] = (zmin < 0 ? Math.atan2(zmin, rhoMin) : Math.atan2(zmin, rhoMax)) - PAD
  out[o + 3] = (zmax >= 0 ? Math.atan2(zmax, rhoMin) : Math.atan2(zmax, rhoMax)) + PAD
  // near the vertical axis (the projection within the padding's reach of it): every yaw
  // (a yaw's rounding is about the coordinates' rounding over the horizontal distance)
  if (rhoMin <= 1e-6 * rhoMax || rhoMin <= axisReach[0]) { out[o] = -Math.PI; out[o + 1] = 3 * Math.PI; return }
  const a0 = Math.atan2(y0, x0)
  let d1 = Math.atan2(y1, x1) - a0, d2 = Math.atan2(y2, x2) - a0
  if (d1 > Math.PI) d1 -= TWO_PI; else if (d1 < -Math.PI) d1 += TWO_PI
  if (d2 > Math.PI) d2 -= TWO_PI; else if (d2 < -Math.PI) d2 += TWO_PI
  out[o] = a0 + Math.min(0, d1, d2) - PAD
  out[o + 1] = a0 + Math.max(0, d1, d2) + PAD
}

/** Edge `slot`'s plane through the sensor (normal at out[o + 5 + 3·slot], padding at out[o + 14 + slot]). */
function edgePlane(vs: Float64Array, a: number, b: number, out: Float64Array, o: number, slot: number): void {
  // corners read here, not passed: a double argument of a call not inlined is boxed
  const x0 = vs[a], y0 = vs[a + 1], z0 = vs[a + 2], x1 = vs[b], y1 = vs[b + 1], z1 = vs[b + 2]
  const nx = y0 * z1 - z0 * y1, ny = z0 * x1 - x0 * z1, nz = x0 * y1 - y0 * x1, k = o + 5 + 3 * slot
  out[k] = nx; out[k + 1] = ny; out[k + 2] = nz
  // padded by PAD·|v0|·|v1| ≥ PAD·|n|: an edge seen end-on has a short n whose rounding is not
  out[o + 14 + slot] = PAD * Math.sqrt((x0 * x0 + y0 * y0 + z0 * z0) * (x1 * x1 + y1 * y1 + z1 * z1))
}

// the horizontal distance from the vertical axis within which a triangle takes every yaw (set per build)
const axisReach = new Float64Array(1)
// scratch: originDistance2D's result (numbers returned from calls not inlined are boxed)
const dist2D = new Float64Array(1)

/** Into dist2D[0]: the distance from the origin to the horizontal projection of the triangle vs[a], vs[b], vs[c] (0 when inside). */
function originDistance2D(vs: Float64Array, a: number, b: number, c: number): void {
  const x0 = vs[a], y0 = vs[a + 1], x1 = vs[b], y1 = vs[b + 1], x2 = vs[c], y2 = vs[c + 1]
  const c0 = x0 * y1 - y0 * x1, c1 = x1 * y2 - y1 * x2, c2 = x2 * y0 - y2 * x0
  if ((c0 >= 0 && c1 >= 0 && c2 >= 0) || (c0 <= 0 && c1 <= 0 && c2 <= 0)) { dist2D[0] = 0; return }
  let best = Infinity
  for (let k = 0; k < 3; k++) {
    const p = k === 0 ? a : k === 1 ? b : c, q = k === 0 ? b : k === 1 ? c : a
    const px = vs[p], py = vs[p + 1], ex = vs[q] - px, ey = vs[q + 1] - py, l2 = ex * ex + ey * ey
    let f = l2 > 0 ? -(px * ex + py * ey) / l2 : 0
    f = f < 0 ? 0 : f > 1 ? 1 : f
    const hx = px + f * ex, hy = py + f * ey, h2 = hx * hx + hy * hy
    if (h2 < best) best = h2
  }
  dist2D[0] = Math.sqrt(best)
}

/**
 * The rays of pattern d inside rectangle rect[o..o+3] (yaw range wrapped over whole turns): counts
 * them into counts (when given), or writes (tri, its bound rect[o + 4]) below each ray's end cursor. Returns the count.
 */
function place(d: LidarDirections, rect: Float64Array, o: number, counts: Int32Array | null, end: Int32Array | null, triOut: Int32Array | null, lowOut: Float64Array | null,
  tri: number): number {
  const Pc = d.pitchCount, Y = d.yawCount
  // the pitch samples inside [lo, hi]
  let j0 = 0, j1 = Pc - 1
  const ps = d.pitchStart, pi = d.pitchIncrement, plo = rect[o + 2], phi = rect[o + 3]
  if (pi === 0) { if (!(ps >= plo && ps <= phi)) return 0 } else {
    const u = (plo - ps) / pi, v = (phi - ps) / pi
    j0 = Math.max(0, Math.ceil(Math.min(u, v))); j1 = Math.min(Pc - 1, Math.floor(Math.max(u, v)))
    if (j0 > j1) return 0
  }
  const ylo = rect[o], yhi = rect[o + 1], ys = d.yawStart, yi = d.yawIncrement
  let n = 0
  if (yhi - ylo >= TWO_PI || yi === 0) {
    if (yi === 0 && yhi - ylo < TWO_PI) { const k = Math.ceil((ylo - ys) / TWO_PI); if (!(ys + k * TWO_PI <= yhi)) return 0 }
    for (let i = 0; i < Y; i++) n += column(d, i, j0, j1, rect, o, counts, end, triOut, lowOut, tri)
    return n
  }
  // whole turns k with [ylo, yhi] + 2πk meeting the pattern's yaw span
  const a = Math.min(ys, ys + (Y - 1) * yi), b = Math.max(ys, ys + (Y - 1) * yi)
  for (let k = Math.ceil((a - yhi) / TWO_PI); ylo + k * TWO_PI <= b; k++) {
    const u = (ylo + k * TWO_PI - ys) / yi, v = (yhi + k * TWO_PI - ys) / yi
    const i0 = Math.max(0, Math.ceil(Math.min(u, v))), i1 = Math.min(Y - 1, Math.floor(Math.max(u, v)))
    for (let i = i0; i <= i1; i++) n += column(d, i, j0, j1, rect, o, counts, end, triOut, lowOut, tri)
  }
  return n
}

/** The rays of yaw sample i, pitch samples j0..j1, whose direction passes the triangle's padded edge planes: counted or written as for place. */
function column(d: LidarDirections, i: number, j0: number, j1: number, rect: Float64Array, o: number, counts: Int32Array | null, end: Int32Array | null,
  triOut: Int32Array | null, lowOut: Float64Array | null, tri: number): number {
  // the bound read here, not passed: a double argument of a call not inlined is boxed
  const low = rect[o + 4]
  const cyi = d.cy[i], syi = d.sy[i], cp = d.cp, sp = d.sp, base = i * d.pitchCount
  const ax = rect[o + 5], ay = rect[o + 6], az = rect[o + 7], bx = rect[o + 8], by = rect[o + 9], bz = rect[o + 10], cx = rect[o + 11], cy = rect[o + 12], cz = rect[o + 13]
  const pa = rect[o + 14], pb = rect[o + 15], pc = rect[o + 16]
  let n = 0
  for (let j = j0; j <= j1; j++) {
    const dx = cp[j] * cyi, dy = cp[j] * syi, dz = sp[j]
    const sa = ax * dx + ay * dy + az * dz, sb = bx * dx + by * dy + bz * dz, sc = cx * dx + cy * dy + cz * dz
    if (!((sa >= -pa && sb >= -pb && sc >= -pc) || (sa <= pa && sb <= pb && sc <= pc))) continue
    n++
    if (counts !== null) counts[base + j]++
    else { const e = --end![base + j]; triOut![e] = tri; lowOut![e] = low }
  }
  return n
}

/**
 * rayColliderRay for raster mr's mesh collider along the world ray org[o..o+2] + t·dir[o..o+2]
 * (ray index `ray` of the pattern, its start rangeMin along the line from the sensor) within
 * tMax[6] (numbers pass in arrays: a double argument of a call not inlined is boxed): the same local ray, the same watertight test (meshLeaf's, written out here for the single
 * triangles of a list) of every triangle the ray can meet, the same tie rule, so the same t (hit[0])
 * and triangle (hit[4]); with `normal`, the same world normal (hit[1..3]). True on a hit.
 */
export function lidarMeshRasterTest(state: CollisionState, mr: LidarMeshRaster, ray: number, org: Float64Array, dir: Float64Array, o: number, tMax: Float64Array,
  hit: Float64Array, normal: boolean): boolean {
  const e = mr.eid, C = state.Collider, P = C.position, R = C.rotation, r = 9 * e, L = mr.L, F = mr.F
  const m = mr.mesh!
  const r0 = R[r], r1 = R[r + 1], r2 = R[r + 2], r3 = R[r + 3], r4 = R[r + 4], r5 = R[r + 5], r6 = R[r + 6], r7 = R[r + 7], r8 = R[r + 8]
  const dx = dir[o], dy = dir[o + 1], dz = dir[o + 2]
  const wx = org[o] - P[3 * e], wy = org[o + 1] - P[3 * e + 1], wz = org[o + 2] - P[3 * e + 2]
  L[0] = r0 * wx + r3 * wy + r6 * wz; L[1] = r1 * wx + r4 * wy + r7 * wz; L[2] = r2 * wx + r5 * wy + r8 * wz
  L[3] = r0 * dx + r3 * dy + r6 * dz; L[4] = r1 * dx + r4 * dy + r7 * dz; L[5] = r2 * dx + r5 * dy + r8 * dz
  L[6] = tMax[6]
  setMeshRayFrame(F, L)
  const near = mr.near
  for (let i = 0; i < mr.nearCount; i++) meshLeaf(m, near[i], 1, F)
  const tri = mr.tri, lower = mr.lower, cut = mr.cut
  const V = m.vertices, I = m.indices
  const okx = F[F_OX], oky = F[F_OY], okz = F[F_OZ], sx = F[F_SX], sy = F[F_SY], sz = F[F_SZ]
  const kx = F[F_KX], ky = F[F_KY], kz = F[F_KZ]
  let best = F[F_BEST], bestTri = F[F_TRI]
  for (let k = mr.cellStart[ray], end = mr.cellStart[ray + 1]; k < end; k++) {
    if (lower[k] > cut + best) break
    const t3 = tri[k], a = 3 * I[3 * t3], b = 3 * I[3 * t3 + 1], c = 3 * I[3 * t3 + 2]
    const Az = V[a + kz] - okz, Bz = V[b + kz] - okz, Cz = V[c + kz] - okz
    const Ax = V[a + kx] - okx - sx * Az, Ay = V[a + ky] - oky - sy * Az
    const Bx = V[b + kx] - okx - sx * Bz, By = V[b + ky] - oky - sy * Bz
    const Cx = V[c + kx] - okx - sx * Cz, Cy = V[c + ky] - oky - sy * Cz
    const U = Cx * By - Cy * Bx, W = Ax * Cy - Ay * Cx, X = Bx * Ay - By * Ax
    if ((U < 0 || W < 0 || X < 0) && (U > 0 || W > 0 || X > 0)) continue
    const det = U + W + X
    if (det === 0) continue
    const num = (U * Az + W * Bz + X * Cz) * sz
    let t = num / det
    if (!(t > 0)) {
      // meshLeaf's rule: behind the start, or on the surface (rounding may put it a hair behind): 0, never −0
      if (t < 0 && !startOnSurface(num, sz, Ax, Ay, Az, Bx, By, Bz, Cx, Cy, Cz)) continue
      t = 0
    }
    if (t > best || (t === best && bestTri >= 0 && t3 > bestTri)) continue
    best = t; bestTri = t3
  }
  if (bestTri < 0) return false
  hit[0] = best; hit[4] = bestTri
  if (!normal) return true
  meshFaceNormal(m, bestTri, L, hit)
  const nx = hit[1], ny = hit[2], nz = hit[3]
  hit[1] = r0 * nx + r1 * ny + r2 * nz
  hit[2] = r3 * nx + r4 * ny + r5 * nz
  hit[3] = r6 * nx + r7 * ny + r8 * nz
  return true
}
