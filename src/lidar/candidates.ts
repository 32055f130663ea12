/**
 * The candidate colliders of one lidar scan: every live collider that passes the group mask and
 * self-filter and whose bound can reach the range shell [rangeMin, rangeMax] around the sensor,
 * with a conservative cone (sensor frame) enclosing its angular extent, sorted by a lower bound on
 * the hit distance along any ray (ties by entity id, so the order is fixed by the scene alone).
 */
import { ColliderKind } from '../../components/collider'
import { broadphaseStale, updateBroadphase, type CollisionState } from '../collision/state'

/** Candidates of a scan, sorted (index i is the i-th nearest bound). */
export interface LidarCandidates {
  n: number
  /** Collider entity. */
  eid: Int32Array
  /** Lower bound on the hit distance from a ray's start (rangeMin already taken off, padded down). */
  lowerT: Float64Array
  /** Cone enclosing the collider as seen from the sensor: unit axis and half-angle (≥ π: everywhere). */
  ax: Float64Array
  ay: Float64Array
  az: Float64Array
  alpha: Float64Array
  /** World bounding sphere (centre, padded radius²; Infinity for unbounded shapes) for a cheap per-ray pre-test. */
  sx: Float64Array
  sy: Float64Array
  sz: Float64Array
  sr2: Float64Array
  /** 1 for a plane (the cast tests it through rayPlane directly), else 0. */
  plane: Uint8Array
  /**
   * Capsules and cylinders lie within radius r of their axis line (centre s·, world unit axis
   * lx/ly/lz): a ray whose line passes farther cannot hit them. lineR2 = r² padded up (−1: no
   * such bound), lineSlack an absolute allowance for rounding (m) in the raster's pre-test.
   */
  lx: Float64Array
  ly: Float64Array
  lz: Float64Array
  lineR2: Float64Array
  lineSlack: Float64Array
  /**
   * Elevations (rad, sensor frame) between which every point of the collider lies, seen from any
   * sensor position and rotation the candidates hold for (padded): a ray outside cannot hit it.
   * Much tighter than the cone for long flat shapes (a car seen from another car's roof).
   * −π/2 … π/2 for a plane.
   */
  elevLo: Float64Array
  elevHi: Float64Array
  /**
   * The yaw wedge every point of the collider lies in, likewise: from direction (u1x, u1y)
   * counter-clockwise to (u2x, u2y) in the sensor's xy plane (less than a half turn; unit
   * vectors), `wedgeSin` the sine of its angular margin. u1 = u2 = 0: no wedge (any yaw).
   */
  u1x: Float64Array
  u1y: Float64Array
  u2x: Float64Array
  u2y: Float64Array
  wedgeSin: Float64Array
  /** Tree nodes still to visit while collecting, and the sensor frame being collected for (scratch). */
  stack: Int32Array
  frame: Float64Array
  // unsorted scratch, the sort permutation and the sort's scratch
  order: Int32Array
  orderScratch: Int32Array
  rawEid: Int32Array
  rawLower: Float64Array
  rawAx: Float64Array
  rawAy: Float64Array
  rawAz: Float64Array
  rawAlpha: Float64Array
  rawSphere: Float64Array
  rawLine: Float64Array
  rawElev: Float64Array
  rawWedge: Float64Array
  /** sensorFrameBox's result (scratch). */
  box: Float64Array
}

/** Creates an empty candidate set. */
export function createLidarCandidates(): LidarCandidates {
  const c = {
    n: 0, eid: new Int32Array(0), lowerT: new Float64Array(0), ax: new Float64Array(0), ay: new Float64Array(0), az: new Float64Array(0), alpha: new Float64Array(0),
    sx: new Float64Array(0), sy: new Float64Array(0), sz: new Float64Array(0), sr2: new Float64Array(0), plane: new Uint8Array(0), rawSphere: new Float64Array(0),
    lx: new Float64Array(0), ly: new Float64Array(0), lz: new Float64Array(0), lineR2: new Float64Array(0), lineSlack: new Float64Array(0), rawLine: new Float64Array(0),
    elevLo: new Float64Array(0), elevHi: new Float64Array(0), rawElev: new Float64Array(0), box: new Float64Array(6),
    u1x: new Float64Array(0), u1y: new Float64Array(0), u2x: new Float64Array(0), u2y: new Float64Array(0), wedgeSin: new Float64Array(0), rawWedge: new Float64Array(0), stack: new Int32Array(64), frame: new Float64Array(17),
    order: new Int32Array(0), orderScratch: new Int32Array(0), rawEid: new Int32Array(0), rawLower: new Float64Array(0), rawAx: new Float64Array(0), rawAy: new Float64Array(0), rawAz: new Float64Array(0), rawAlpha: new Float64Array(0),
  } as LidarCandidates
  return c
}

function reserve(c: LidarCandidates, n: number): void {
  if (c.eid.length >= n) return
  const m = Math.max(n, 2 * c.eid.length, 64)
  c.eid = new Int32Array(m); c.lowerT = new Float64Array(m)
  c.ax = new Float64Array(m); c.ay = new Float64Array(m); c.az = new Float64Array(m); c.alpha = new Float64Array(m)
  c.order = new Int32Array(m); c.orderScratch = new Int32Array(m); c.rawEid = new Int32Array(m); c.rawLower = new Float64Array(m)
  c.rawAx = new Float64Array(m); c.rawAy = new Float64Array(m); c.rawAz = new Float64Array(m); c.rawAlpha = new Float64Array(m)
  c.sx = new Float64Array(m); c.sy = new Float64Array(m); c.sz = new Float64Array(m); c.sr2 = new Float64Array(m); c.plane = new Uint8Array(m); c.rawSphere = new Float64Array(4 * m)
  c.lx = new Float64Array(m); c.ly = new Float64Array(m); c.lz = new Float64Array(m); c.lineR2 = new Float64Array(m); c.lineSlack = new Float64Array(m); c.rawLine = new Float64Array(5 * m)
  c.elevLo = new Float64Array(m); c.elevHi = new Float64Array(m); c.rawElev = new Float64Array(2 * m)
  c.u1x = new Float64Array(m); c.u1y = new Float64Array(m); c.u2x = new Float64Array(m); c.u2y = new Float64Array(m); c.wedgeSin = new Float64Array(m); c.rawWedge = new Float64Array(5 * m)
}

/**
 * Sorts c.order[0, n) by (rawLower, rawEid), nearest bound first, then entity id: a total order,
 * so one result whatever the sort. A bottom-up merge sort through c.orderScratch, allocating
 * nothing (a typed array's sort with a comparator copies it and calls the comparator per pair).
 */
function sortCandidates(c: LidarCandidates, n: number): void {
  const low = c.rawLower, eid = c.rawEid
  let src = c.order, dst = c.orderScratch
  for (let w = 1; w < n; w *= 2) {
    for (let lo = 0; lo < n; lo += 2 * w) {
      const mid = Math.min(lo + w, n), hi = Math.min(lo + 2 * w, n)
      let i = lo, j = mid, k = lo
      while (i < mid && j < hi) {
        const a = src[i], b = src[j]
        if (low[b] < low[a] || (low[b] === low[a] && eid[b] < eid[a])) { dst[k++] = b; j++ } else { dst[k++] = a; i++ }
      }
      while (i < mid) dst[k++] = src[i++]
      while (j < hi) dst[k++] = src[j++]
    }
    const t = src; src = dst; dst = t
  }
  if (src !== c.order) for (let i = 0; i < n; i++) c.order[i] = src[i]
}

/** Elevation (rad) beyond which a collider gets no yaw wedge (its rays have cos p > 0.009). */
const NEAR_VERTICAL = Math.PI / 2 - 0.01

/**
 * Collider e's (kind k) bounding box in the sensor frame of c.frame's rotation `f`: centre
 * out[0..2] (the caller puts its position there; a heightfield's is its world box's) and extents
 * along the sensor axes into out[3..5] — computeAabb's rules with the shape's rotation seen from
 * the sensor (Rsᵀ·R), so a box turned like the sensor's car gets its own size back. Numbers pass
 * through `out`, not as arguments (test/lidar/alloc.test.ts).
 */
function sensorFrameBox(state: CollisionState, e: number, k: number, f: Float64Array, out: Float64Array): void {
  const C = state.Collider, prm = C.params, q = 4 * e
  if (k === ColliderKind.heightfield || k === ColliderKind.mesh || k === ColliderKind.sphere) {
    let hx = prm[q], hy = hx, hz = hx, sx = out[0], sy = out[1], sz = out[2]
    if (k !== ColliderKind.sphere) {
      // its world box, turned to the sensor frame
      const A = C.aabb, o = 6 * e
      const wx = (A[o + 3] - A[o]) / 2, wy = (A[o + 4] - A[o + 1]) / 2, wz = (A[o + 5] - A[o + 2]) / 2
      const vx = (A[o] + A[o + 3]) / 2 - f[9], vy = (A[o + 1] + A[o + 4]) / 2 - f[10], vz = (A[o + 2] + A[o + 5]) / 2 - f[11]
      sx = f[0] * vx + f[3] * vy + f[6] * vz; sy = f[1] * vx + f[4] * vy + f[7] * vz; sz = f[2] * vx + f[5] * vy + f[8] * vz
      hx = Math.abs(f[0]) * wx + Math.abs(f[3]) * wy + Math.abs(f[6]) * wz
      hy = Math.abs(f[1]) * wx + Math.abs(f[4]) * wy + Math.abs(f[7]) * wz
      hz = Math.abs(f[2]) * wx + Math.abs(f[5]) * wy + Math.abs(f[8]) * wz
    }
    out[0] = sx; out[1] = sy; out[2] = sz; out[3] = hx; out[4] = hy; out[5] = hz
    return
  }
  // M = Rsᵀ·R: the shape's local axes in the sensor frame (column j: local axis j)
  const R = C.rotation, r = 9 * e
  for (let i = 0; i < 3; i++) {
    const m0 = f[i] * R[r] + f[3 + i] * R[r + 3] + f[6 + i] * R[r + 6]
    const m1 = f[i] * R[r + 1] + f[3 + i] * R[r + 4] + f[6 + i] * R[r + 7]
    const m2 = f[i] * R[r + 2] + f[3 + i] * R[r + 5] + f[6 + i] * R[r + 8]
    let ext: number
    if (k === ColliderKind.box) ext = Math.abs(m0) * prm[q] + Math.abs(m1) * prm[q + 1] + Math.abs(m2) * prm[q + 2]
    else if (k === ColliderKind.capsule) ext = Math.abs(m2) * prm[q + 1] + prm[q]
    else ext = Math.abs(m2) * prm[q + 1] + prm[q] * Math.sqrt(Math.max(0, 1 - m2 * m2)) // cylinder
    out[3 + i] = ext
  }
}

/** Relative and absolute padding of bounds (m): far above the rounding of any transform. */
const REL = 1e-9, ABS = 1e-9

/**
 * Collects the candidates for sensor rotation `rot` (orthonormal, row-major) at `pos`, ranges and
 * filter, into `c` (sorted). With `slack` (m) and `turn` (rad), the candidates hold for any
 * sensor within `slack` of `pos` and rotated by at most `turn` from `rot` (a rotating sweep's
 * columns over a step): every bound grows by slack and every cone by turn. Only colliders whose
 * tree box meets the cube of half-side rangeMax + slack (and a metre) round `pos` are looked at:
 * any other lies wholly beyond every ray's reach. Returns the number of tree nodes visited.
 */
export function collectLidarCandidates(state: CollisionState, c: LidarCandidates, rot: Float64Array, pos: Float64Array, rangeMin: number, rangeMax: number, objectId: number, localId: number, mask: number,
  slack = 0, turn = 0): number {
  if (broadphaseStale(state)) updateBroadphase(state)
  reserve(c, state.maxEid + 1)
  const f = c.frame
  for (let i = 0; i < 9; i++) f[i] = rot[i]
  f[9] = pos[0]; f[10] = pos[1]; f[11] = pos[2]; f[12] = rangeMin; f[13] = rangeMax; f[14] = slack; f[15] = turn
  // the largest |start coordinate| sum a ray can have (for the line pre-test's rounding allowance)
  f[16] = Math.abs(pos[0]) + Math.abs(pos[1]) + Math.abs(pos[2]) + Math.abs(rangeMin)
  let n = 0, visited = 0
  for (let i = 0; i < state.planeCount; i++) n = considerCollider(state, c, state.planes[i], n, objectId, localId, mask)
  const reach = rangeMax + slack + 1
  const x0 = pos[0] - reach, y0 = pos[1] - reach, z0 = pos[2] - reach, x1 = pos[0] + reach, y1 = pos[1] + reach, z1 = pos[2] + reach
  for (let tree = 0; tree < 2; tree++) {
    const b = tree === 0 ? state.staticTree : state.dynamicTree
    if (b.nodeCount === 0) continue
    const B = b.bounds, first = b.first, count = b.count, prims = b.prims
    if (c.stack.length < b.nodeCount) c.stack = new Int32Array(b.nodeCount)
    const stack = c.stack
    let sp = 0
    stack[sp++] = 0
    while (sp > 0) {
      const node = stack[--sp], o = 6 * node
      visited++
      if (B[o] > x1 || B[o + 3] < x0 || B[o + 1] > y1 || B[o + 4] < y0 || B[o + 2] > z1 || B[o + 5] < z0) continue
      const k = count[node]
      if (k > 0) for (let j = first[node], end = j + k; j < end; j++) n = considerCollider(state, c, prims[j], n, objectId, localId, mask)
      else { stack[sp++] = first[node]; stack[sp++] = first[node] + 1 }
    }
  }
  const order = c.order
  for (let i = 0; i < n; i++) order[i] = i
  // the order is fixed by (lower bound, entity id) alone, whatever order the trees gave
  sortCandidates(c, n)
  const kind = state.Collider.kind, { rawEid, rawLower, rawAx, rawAy, rawAz, rawAlpha, rawSphere, rawLine, rawElev, rawWedge } = c
  for (let i = 0; i < n; i++) {
    const j = order[i]
    c.eid[i] = rawEid[j]
    // lower bound along the ray from its start (rangeMin out along the direction), padded down
    c.lowerT[i] = rawLower[j] - rangeMin - (REL * (rawLower[j] + Math.abs(rangeMin)) + ABS)
    c.ax[i] = rawAx[j]; c.ay[i] = rawAy[j]; c.az[i] = rawAz[j]; c.alpha[i] = rawAlpha[j]
    c.plane[i] = kind[rawEid[j]] === ColliderKind.plane ? 1 : 0
    c.sx[i] = rawSphere[4 * j]; c.sy[i] = rawSphere[4 * j + 1]; c.sz[i] = rawSphere[4 * j + 2]; c.sr2[i] = rawSphere[4 * j + 3]
    c.lx[i] = rawLine[5 * j]; c.ly[i] = rawLine[5 * j + 1]; c.lz[i] = rawLine[5 * j + 2]; c.lineR2[i] = rawLine[5 * j + 3]; c.lineSlack[i] = rawLine[5 * j + 4]
    c.elevLo[i] = rawElev[2 * j]; c.elevHi[i] = rawElev[2 * j + 1]
    c.u1x[i] = rawWedge[5 * j]; c.u1y[i] = rawWedge[5 * j + 1]; c.u2x[i] = rawWedge[5 * j + 2]; c.u2y[i] = rawWedge[5 * j + 3]; c.wedgeSin[i] = rawWedge[5 * j + 4]
  }
  c.n = n
  return visited
}

/**
 * Adds collider e as candidate n when it passes the filters and its bound can reach the range
 * shell, for the sensor frame in c.frame (rotation, position, rangeMin, rangeMax, slack, turn, the
 * start size); returns the new candidate count.
 */
function considerCollider(state: CollisionState, c: LidarCandidates, e: number, n: number, objectId: number, localId: number, mask: number): number {
  const C = state.Collider, k = C.kind[e]
  if (state.live[e] === 0 || k === ColliderKind.none || (C.group[e] & mask) === 0) return n
  if (objectId >= 0 && localId >= 0 && C.object[e] === objectId && C.localId[e] === localId) return n
  const P = C.position, R = C.rotation, prm = C.params, box = C.aabb, f = c.frame
  const r0 = f[0], r1 = f[1], r2 = f[2], r3 = f[3], r4 = f[4], r5 = f[5], r6 = f[6], r7 = f[7], r8 = f[8]
  const px = f[9], py = f[10], pz = f[11], rangeMin = f[12], rangeMax = f[13], slack = f[14], turn = f[15], startSize = f[16]
  let lower = 0, ax = 0, ay = 0, az = 0, alpha = 0, elevLo = -Math.PI / 2, elevHi = Math.PI / 2, u1x = 0, u1y = 0, u2x = 0, u2y = 0
  let bx = 0, by = 0, bz = 0, br2 = Infinity, lineR2 = -1, lineSlack = 0
  if (k === ColliderKind.plane) {
    // half-space local z ≤ 0: world normal is the rotation's third column
    const nx = R[9 * e + 2], ny = R[9 * e + 5], nz = R[9 * e + 8]
    const h = nx * (px - P[3 * e]) + ny * (py - P[3 * e + 1]) + nz * (pz - P[3 * e + 2])
    const pad = slack + REL * (Math.abs(px) + Math.abs(py) + Math.abs(pz) + Math.abs(P[3 * e]) + Math.abs(P[3 * e + 1]) + Math.abs(P[3 * e + 2])) + ABS
    if (h <= pad) { lower = 0; ax = 1; ay = 0; az = 0; alpha = 4 } else {
      lower = h - pad
      // reachable only by directions going against the normal: the hemisphere around −n
      ax = -(r0 * nx + r3 * ny + r6 * nz); ay = -(r1 * nx + r4 * ny + r7 * nz); az = -(r2 * nx + r5 * ny + r8 * nz)
      alpha = Math.PI / 2 + turn
    }
  } else {
    let cx: number, cy: number, cz: number, rad: number
    const q = 4 * e, o = 6 * e
    if (k === ColliderKind.heightfield || k === ColliderKind.mesh) {
      cx = (box[o] + box[o + 3]) / 2; cy = (box[o + 1] + box[o + 4]) / 2; cz = (box[o + 2] + box[o + 5]) / 2
      const hx = box[o + 3] - cx, hy = box[o + 4] - cy, hz = box[o + 5] - cz
      rad = Math.sqrt(hx * hx + hy * hy + hz * hz)
      if (!(rad >= 0)) return n // empty heightfield or mesh box
    } else {
      cx = P[3 * e]; cy = P[3 * e + 1]; cz = P[3 * e + 2]
      if (k === ColliderKind.sphere) rad = prm[q]
      else if (k === ColliderKind.box) rad = Math.sqrt(prm[q] * prm[q] + prm[q + 1] * prm[q + 1] + prm[q + 2] * prm[q + 2])
      else if (k === ColliderKind.capsule) rad = prm[q] + prm[q + 1]
      else rad = Math.sqrt(prm[q] * prm[q] + prm[q + 1] * prm[q + 1])
    }
    const wx = cx - px, wy = cy - py, wz = cz - pz
    // far beyond rangeMax (twice the padded reach: no rounding can matter): dropped before the exact bound below
    const reach = 2 * (rangeMax + rad + slack) + 1
    if (wx * wx + wy * wy + wz * wz > reach * reach) return n
    const sx = r0 * wx + r3 * wy + r6 * wz, sy = r1 * wx + r4 * wy + r7 * wz, sz = r2 * wx + r5 * wy + r8 * wz
    const d = Math.sqrt(sx * sx + sy * sy + sz * sz)
    const pr = rad + slack + REL * (rad + d + Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + Math.abs(px) + Math.abs(py) + Math.abs(pz)) + ABS
    if (d + pr < rangeMin) return n // wholly inside the blind ball
    bx = cx; by = cy; bz = cz; br2 = pr * pr
    if (k === ColliderKind.capsule || k === ColliderKind.cylinder) {
      // both lie within prm[q] of the axis line through the centre along local z (R's third column)
      const r = prm[q]
      lineR2 = r * r * (1 + 1e-9)
      lineSlack = REL * (r + 2 * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + startSize)) + ABS
    }
    if (d <= pr) { lower = 0; ax = 1; ay = 0; az = 0; alpha = 4 } // the sensor is inside or touching the bound
    else { lower = d - pr; ax = sx / d; ay = sy / d; az = sz / d; alpha = Math.asin(pr / d) + turn }
    if (!(box[o] <= box[o + 3])) return n // an empty box (a heightfield without data): nothing to hit
    // the collider's box in the sensor frame (sensorFrameBox), grown by slack: the highest and
    // lowest points' elevations, and the yaw wedge its xy rectangle spans
    const B = c.box
    B[0] = sx; B[1] = sy; B[2] = sz
    sensorFrameBox(state, e, k, f, B)
    const ux = B[0], uy = B[1], uz = B[2]
    const bpad = REL * (Math.abs(ux) + Math.abs(uy) + Math.abs(uz) + B[3] + B[4] + B[5] + Math.abs(px) + Math.abs(py) + Math.abs(pz)) + ABS
    const ex = B[3] + slack + bpad, ey = B[4] + slack + bpad, ez = B[5] + slack + bpad
    const xLo = ux - ex, xHi = ux + ex, yLo = uy - ey, yHi = uy + ey, zLo = uz - ez, zHi = uz + ez
    const gx = xLo > 0 ? xLo : xHi < 0 ? -xHi : 0, gy = yLo > 0 ? yLo : yHi < 0 ? -yHi : 0
    const nearH = Math.sqrt(gx * gx + gy * gy), farH = Math.sqrt(Math.max(xLo * xLo, xHi * xHi) + Math.max(yLo * yLo, yHi * yHi))
    const M = 1e-7 + turn
    if (nearH > 0) {
      elevHi = (zHi >= 0 ? Math.atan2(zHi, nearH) : Math.atan2(zHi, farH)) + M
      elevLo = (zLo <= 0 ? Math.atan2(zLo, nearH) : Math.atan2(zLo, farH)) - M
      // the rectangle misses the sensor's vertical, so its corners span less than a half turn:
      // the two extreme ones bound every point's heading (rays within a hair of the vertical,
      // whose heading rounding can turn far, get no wedge)
      if (elevHi < NEAR_VERTICAL && elevLo > -NEAR_VERTICAL) {
        u1x = u2x = xLo; u1y = u2y = yLo
        for (let j = 1; j < 4; j++) {
          const qx = j & 1 ? xHi : xLo, qy = j & 2 ? yHi : yLo
          if (u1x * qy - u1y * qx < 0) { u1x = qx; u1y = qy }
          if (u2x * qy - u2y * qx > 0) { u2x = qx; u2y = qy }
        }
        const l1 = Math.sqrt(u1x * u1x + u1y * u1y), l2 = Math.sqrt(u2x * u2x + u2y * u2y)
        u1x /= l1; u1y /= l1; u2x /= l2; u2y /= l2
      }
    } else {
      if (zHi < 0) elevHi = Math.atan2(zHi, farH) + M
      if (zLo > 0) elevLo = Math.atan2(zLo, farH) - M
    }
  }
  if (lower > rangeMax) return n
  const { rawEid, rawLower, rawAx, rawAy, rawAz, rawAlpha, rawSphere, rawLine, rawElev, rawWedge } = c
  rawEid[n] = e; rawLower[n] = lower; rawAx[n] = ax; rawAy[n] = ay; rawAz[n] = az; rawAlpha[n] = alpha
  rawSphere[4 * n] = bx; rawSphere[4 * n + 1] = by; rawSphere[4 * n + 2] = bz; rawSphere[4 * n + 3] = br2
  rawLine[5 * n] = R[9 * e + 2]; rawLine[5 * n + 1] = R[9 * e + 5]; rawLine[5 * n + 2] = R[9 * e + 8]; rawLine[5 * n + 3] = lineR2; rawLine[5 * n + 4] = lineSlack
  rawElev[2 * n] = elevLo; rawElev[2 * n + 1] = elevHi
  rawWedge[5 * n] = u1x; rawWedge[5 * n + 1] = u1y; rawWedge[5 * n + 2] = u2x; rawWedge[5 * n + 3] = u2y; rawWedge[5 * n + 4] = Math.sin(2e-7 + turn)
  return n + 1
}
