/**
 * Conservative angular candidate buckets for a lidar scan: a yaw × pitch grid in the sensor frame
 * whose cells list the candidates whose angular extent (a cone around the direction to the
 * candidate's bound) can reach the cell. Candidates are given already sorted by their lower
 * bound on hit distance, and each cell lists them in that order, so a ray tests nearest first.
 * Conservative by construction: margins on every angle, every yaw at the poles, wrap-around at
 * the ±π seam, and a cone of half-angle ≥ π (the sensor inside or touching a bound) in every cell.
 */
import type { LidarCandidates } from './candidates'
import type { LidarDirections } from './directions'

const TWO_PI = 2 * Math.PI
const HALF_PI = Math.PI / 2
/** Angular margin (rad): far above the rounding of any angle or transformed direction. */
export const LIDAR_ANGLE_MARGIN = 1e-7

/** The grid, its per-ray cell lookup and its cell lists (CSR). */
export interface LidarBuckets {
  nYaw: number
  nRows: number
  pitchLo: number
  pitchHi: number
  rowScale: number
  yawScale: number
  /** Rows are the pattern's channels (at most 64, strictly monotonic): row k holds elevation rowPitch[k], ascending. */
  channelRows: boolean
  rowPitch: Float64Array
  /** Per pitch sample: its row, and whether its yaw is flipped by π (cos p < 0); `anyFlip`: some sample's is. */
  rowOfPitch: Int32Array
  flipOfPitch: Uint8Array
  anyFlip: boolean
  /** What the layout was made for: the directions' revision and the grid asked for (-1: none yet). */
  layoutRevision: number
  layoutYaw: number
  layoutRows: number
  /** Per yaw sample: its yaw column, and the column of yaw + π. */
  colOfYaw: Int32Array
  colOfYawFlipped: Int32Array
  /** Cell c lists items[cellStart[c] .. cellStart[c+1]) (candidate indices, ascending). */
  cellStart: Int32Array
  items: Int32Array
  /** Candidates in every cell, ascending. */
  everywhere: Int32Array
  everywhereCount: number
  /** Candidates inside the pattern's pitch band at all (for a flat, cell-less scan), ascending. */
  inBand: Int32Array
  inBandCount: number
  /** Sum over cells of list length (an occupancy figure for the cost model). */
  itemCount: number
  /** Per candidate: covered rows r0..r1 and yaw columns c0..c1 (c1 < c0: wrapped); r1 < r0 when none (or alpha ≥ π). */
  span: Int32Array
  /**
   * With `windowed`, only columns c with colActive[c] = 1 get cell lists (the rest are never looked
   * up): activeCols[0 .. activeBefore[nYaw]) lists them ascending, activeBefore[c] counting those before c.
   */
  windowed: boolean
  colActive: Uint8Array
  activeCols: Int32Array
  /** cellStart holds the current spans' counts (countLidarBucketCells). */
  cellsCounted: boolean
  /**
   * Per yaw sample y of the last lidarBucketRayRanges: the pitch samples rayLo[y] ..= rayHi[y]
   * (empty when lo > hi) beyond which no ray's lists hold anything.
   */
  rayLo: Int32Array
  rayHi: Int32Array
  activeBefore: Int32Array
  /** Scratch: one span's columns (spanColumns). */
  spanCols: Int32Array
  /** Scratch prefix sums: pitch samples per row, sampled yaw samples per column. */
  rowsBefore: Int32Array
  sampledBefore: Int32Array
}

/** Creates empty buckets. */
export function createLidarBuckets(): LidarBuckets {
  return {
    nYaw: 1, nRows: 1, pitchLo: 0, pitchHi: 0, rowScale: 0, yawScale: 0, channelRows: false, rowPitch: new Float64Array(64),
    rowOfPitch: new Int32Array(0), flipOfPitch: new Uint8Array(0), anyFlip: false, layoutRevision: -1, layoutYaw: 0, layoutRows: 0, colOfYaw: new Int32Array(0), colOfYawFlipped: new Int32Array(0),
    cellStart: new Int32Array(2), items: new Int32Array(0), everywhere: new Int32Array(0), everywhereCount: 0,
    inBand: new Int32Array(0), inBandCount: 0, itemCount: 0, span: new Int32Array(0), windowed: false, colActive: new Uint8Array(0), activeCols: new Int32Array(0), spanCols: new Int32Array(0),
    cellsCounted: false, rayLo: new Int32Array(0), rayHi: new Int32Array(0), activeBefore: new Int32Array(1), rowsBefore: new Int32Array(1), sampledBefore: new Int32Array(1),
  }
}

function yawCol(b: LidarBuckets, yaw: number): number {
  const c = Math.floor((yaw + Math.PI) * b.yawScale)
  return c < 0 ? 0 : c >= b.nYaw ? b.nYaw - 1 : c
}

function pitchRow(b: LidarBuckets, pitch: number): number {
  const r = Math.floor((pitch - b.pitchLo) * b.rowScale)
  return r < 0 ? 0 : r >= b.nRows ? b.nRows - 1 : r
}

/**
 * Sets the grid for a pattern: `nYaw` columns over the full turn, `nRows` rows over the pattern's
 * actual elevation band, and each sample's row/column (elevation and azimuth of the real direction,
 * so pitches beyond ±90° fold correctly). Kept while the pattern and the grid asked for stay the
 * same (a rotating sweep builds every step).
 */
export function layoutLidarBuckets(b: LidarBuckets, d: LidarDirections, nYaw: number, nRows: number): void {
  b.windowed = false
  if (b.layoutRevision === d.revision && b.layoutYaw === nYaw && b.layoutRows === nRows) return
  b.layoutRevision = d.revision; b.layoutYaw = nYaw; b.layoutRows = nRows
  const Y = d.yawCount, P = d.pitchCount
  if (b.rowOfPitch.length < P) { b.rowOfPitch = new Int32Array(P); b.flipOfPitch = new Uint8Array(P) }
  if (b.colOfYaw.length < Y) { b.colOfYaw = new Int32Array(Y); b.colOfYawFlipped = new Int32Array(Y) }
  let lo = Infinity, hi = -Infinity, up = true, down = true
  for (let p = 0; p < P; p++) {
    const e = Math.atan2(d.sp[p], Math.abs(d.cp[p]))
    if (e < lo) lo = e
    if (e > hi) hi = e
    if (p > 0) {
      const prev = Math.atan2(d.sp[p - 1], Math.abs(d.cp[p - 1]))
      if (!(e > prev)) up = false
      if (!(e < prev)) down = false
    }
  }
  b.pitchLo = lo; b.pitchHi = hi
  // a few strictly ordered channels: one row per channel, so a cone is listed only in the rows of
  // the channels it really reaches (a uniform row would also take the gaps between channels)
  b.channelRows = P > 1 && P <= 64 && (up || down)
  b.nRows = b.channelRows ? P : hi > lo ? nRows : 1
  b.rowScale = hi > lo ? b.nRows / (hi - lo) : 0
  b.nYaw = nYaw
  b.yawScale = nYaw / TWO_PI
  for (let p = 0; p < P; p++) {
    const e = Math.atan2(d.sp[p], Math.abs(d.cp[p]))
    if (b.channelRows) { const k = up ? p : P - 1 - p; b.rowOfPitch[p] = k; b.rowPitch[k] = e }
    else b.rowOfPitch[p] = pitchRow(b, e)
    b.flipOfPitch[p] = d.cp[p] < 0 ? 1 : 0
  }
  b.anyFlip = false
  for (let p = 0; p < P; p++) if (b.flipOfPitch[p] === 1) b.anyFlip = true
  for (let y = 0; y < Y; y++) {
    b.colOfYaw[y] = yawCol(b, Math.atan2(d.sy[y], d.cy[y]))
    b.colOfYawFlipped[y] = yawCol(b, Math.atan2(-d.sy[y], -d.cy[y]))
  }
  if (b.cellStart.length < b.nYaw * b.nRows + 1) b.cellStart = new Int32Array(b.nYaw * b.nRows + 1)
}

/** Limits the cell lists to the columns rays of yaw samples [y0, y1) and [z0, z1) look up (a rotating sweep's step). */
export function windowLidarBuckets(b: LidarBuckets, y0: number, y1: number, z0 = 0, z1 = 0): void {
  if (b.colActive.length < b.nYaw) b.colActive = new Uint8Array(b.nYaw)
  b.colActive.fill(0, 0, b.nYaw)
  // a flipped column is looked up only by a sample beyond ±90° of pitch
  const flips = b.anyFlip, col = b.colOfYaw, flipped = b.colOfYawFlipped, active = b.colActive
  for (let y = y0; y < y1; y++) { active[col[y]] = 1; if (flips) active[flipped[y]] = 1 }
  for (let y = z0; y < z1; y++) { active[col[y]] = 1; if (flips) active[flipped[y]] = 1 }
  if (b.activeBefore.length < b.nYaw + 1) { b.activeBefore = new Int32Array(b.nYaw + 1); b.activeCols = new Int32Array(b.nYaw) }
  const before = b.activeBefore, list = b.activeCols
  before[0] = 0
  for (let c = 0; c < b.nYaw; c++) { before[c + 1] = before[c] + active[c]; if (active[c] === 1) list[before[c]] = c }
  b.windowed = true
}

/**
 * Sorts the candidates' cones (unit axis ax/ay/az in the sensor frame, half-angle alpha; alpha ≥ π
 * means every direction), each also bounded to its elevation band and yaw wedge, into `inBand`
 * and `everywhere` and, with `cells`, computes each one's span and the cell list sizes
 * (cellStart); writeLidarBucketItems then fills the lists.
 */
export function fillLidarBuckets(b: LidarBuckets, k: LidarCandidates, cells: boolean): void {
  const n = k.n, ax = k.ax, ay = k.ay, az = k.az, alpha = k.alpha, elevLo = k.elevLo, elevHi = k.elevHi
  if (b.span.length < 4 * n) b.span = new Int32Array(4 * n)
  if (b.inBand.length < n) { b.inBand = new Int32Array(n); b.everywhere = new Int32Array(n) }
  const span = b.span, nYaw = b.nYaw
  let ne = 0, nb = 0, items = 0
  const M = LIDAR_ANGLE_MARGIN, windowed = b.windowed
  const before = b.activeBefore // a windowed step's active columns before each column, for the item count
  for (let i = 0; i < n; i++) {
    span[4 * i] = 1; span[4 * i + 1] = 0 // empty by default
    const a = alpha[i]
    if (a >= Math.PI) { b.everywhere[ne++] = i; b.inBand[nb++] = i; continue }
    const z = az[i] > 1 ? 1 : az[i] < -1 ? -1 : az[i]
    const phi = Math.asin(z)
    const coneLo = phi - a - M, coneHi = phi + a + M
    // the elevations some ray can hit it at: the cone's, cut to the candidate's own band
    const lo = coneLo > elevLo[i] ? coneLo : elevLo[i], hi = coneHi < elevHi[i] ? coneHi : elevHi[i]
    if (hi < lo || hi < b.pitchLo || lo > b.pitchHi) continue
    let r0: number, r1: number
    if (b.channelRows) {
      // the channels whose elevation lies in [lo, hi]; none: no ray can reach the cone
      const rp = b.rowPitch, nr = b.nRows
      r0 = 0
      while (r0 < nr && rp[r0] < lo) r0++
      r1 = nr - 1
      while (r1 >= 0 && rp[r1] > hi) r1--
      if (r1 < r0) continue
    } else { r0 = pitchRow(b, lo); r1 = pitchRow(b, hi) }
    b.inBand[nb++] = i
    if (!cells) continue
    let c0 = 0, c1 = nYaw - 1
    if (coneLo > -HALF_PI + M && coneHi < HALF_PI - M) {
      const s = Math.sin(a + M) / Math.cos(phi)
      if (s < 1) {
        const dy = Math.asin(s) + M
        const yaw0 = Math.atan2(ay[i], ax[i])
        const f0 = Math.floor((yaw0 - dy + Math.PI) * b.yawScale)
        const f1 = Math.floor((yaw0 + dy + Math.PI) * b.yawScale)
        if (f1 - f0 + 1 < nYaw) { c0 = ((f0 % nYaw) + nYaw) % nYaw; c1 = ((f1 % nYaw) + nYaw) % nYaw }
      }
    }
    if (!(k.u1x[i] === 0 && k.u1y[i] === 0)) {
      // the yaw wedge's columns, when fewer than the cone's (it is less than a half turn)
      const mu = Math.asin(k.wedgeSin[i]) + M, a1 = Math.atan2(k.u1y[i], k.u1x[i]) - mu
      let a2 = Math.atan2(k.u2y[i], k.u2x[i]) + mu
      if (a2 < a1) a2 += TWO_PI
      const f0 = Math.floor((a1 + Math.PI) * b.yawScale), f1 = Math.floor((a2 + Math.PI) * b.yawScale)
      if (f1 - f0 + 1 < (c0 <= c1 ? c1 - c0 + 1 : nYaw - c0 + c1 + 1)) { c0 = ((f0 % nYaw) + nYaw) % nYaw; c1 = ((f1 % nYaw) + nYaw) % nYaw }
    }
    span[4 * i] = r0; span[4 * i + 1] = r1; span[4 * i + 2] = c0; span[4 * i + 3] = c1
    // covering every cell: listed once in `everywhere` (its span stays, for the raster strategy)
    if (r0 === 0 && r1 === b.nRows - 1 && c0 === 0 && c1 === nYaw - 1) { b.everywhere[ne++] = i; continue }
    // its cells: rows × (active) columns
    const cols = !windowed ? (c0 <= c1 ? c1 - c0 + 1 : nYaw - c0 + c1 + 1) : c0 <= c1 ? before[c1 + 1] - before[c0] : before[nYaw] - before[c0] + before[c1 + 1]
    items += (r1 - r0 + 1) * cols
  }
  b.everywhereCount = ne
  b.inBandCount = nb
  b.itemCount = cells ? items : 0
  b.cellsCounted = false
}

/**
 * The columns of span [c0, c1] (wrapped when c1 < c0) that get cell lists, into out[0 .. return):
 * all of them, or a windowed step's active ones only.
 */
function spanColumns(b: LidarBuckets, c0: number, c1: number, out: Int32Array): number {
  const nYaw = b.nYaw
  let m = 0
  if (!b.windowed) {
    if (c0 <= c1) for (let c = c0; c <= c1; c++) out[m++] = c
    else { for (let c = c0; c < nYaw; c++) out[m++] = c; for (let c = 0; c <= c1; c++) out[m++] = c }
    return m
  }
  const before = b.activeBefore, list = b.activeCols
  if (c0 <= c1) for (let k = before[c0]; k < before[c1 + 1]; k++) out[m++] = list[k]
  else { for (let k = before[c0]; k < before[nYaw]; k++) out[m++] = list[k]; for (let k = 0; k < before[c1 + 1]; k++) out[m++] = list[k] }
  return m
}

/**
 * Counts each cell's list length into cellStart (as prefix sums) from the spans fillLidarBuckets
 * found for its `n` candidates: what writeLidarBucketItems and a ray's list lookup read (the
 * raster and the cost model need only the spans).
 */
export function countLidarBucketCells(b: LidarBuckets, n: number): void {
  const span = b.span, nYaw = b.nYaw, nCells = nYaw * b.nRows, start = b.cellStart, ne = b.everywhereCount
  start.fill(0, 0, nCells + 1)
  if (b.spanCols.length < nYaw) b.spanCols = new Int32Array(nYaw)
  const cols = b.spanCols
  for (let i = 0, e = 0; i < n; i++) {
    if (e < ne && b.everywhere[e] === i) { e++; continue } // listed in `everywhere`, not in cells
    const r0 = span[4 * i], r1 = span[4 * i + 1], m = spanColumns(b, span[4 * i + 2], span[4 * i + 3], cols)
    for (let r = r0; r <= r1; r++) {
      const row = r * nYaw + 1
      for (let k = 0; k < m; k++) start[row + cols[k]]++
    }
  }
  for (let c = 0; c < nCells; c++) start[c + 1] += start[c]
  b.cellsCounted = true
}

/**
 * Mean over the rays of yaw samples [y0, y1) (sampling at most ~256 of them) of the length of
 * their cell's list, for the `n` candidates' spans: Σ over candidates of (pitch samples in its
 * rows) × (sampled yaw samples in its columns), over the rays sampled — the same integers as
 * summing the counted cells, so the same figure, without counting them. With flipped pitch
 * samples (another column per sample) it counts the cells and reads them.
 */
export function meanLidarCellLength(b: LidarBuckets, d: LidarDirections, n: number, y0: number, y1: number): number {
  const nYaw = b.nYaw, P = d.pitchCount, stride = Math.max(1, Math.floor((y1 - y0) / 256))
  let sum = 0, rays = 0
  if (b.anyFlip) {
    if (!b.cellsCounted) countLidarBucketCells(b, n)
    const start = b.cellStart
    for (let p = 0; p < P; p++) {
      const row = b.rowOfPitch[p] * nYaw, cols = b.flipOfPitch[p] ? b.colOfYawFlipped : b.colOfYaw
      for (let y = y0; y < y1; y += stride) { sum += start[row + cols[y] + 1] - start[row + cols[y]]; rays++ }
    }
    return rays === 0 ? 0 : sum / rays
  }
  // pitch samples per row and sampled yaw samples per column, as prefix sums
  if (b.rowsBefore.length < b.nRows + 1) b.rowsBefore = new Int32Array(b.nRows + 1)
  if (b.sampledBefore.length < nYaw + 1) b.sampledBefore = new Int32Array(nYaw + 1)
  const rowsBefore = b.rowsBefore, sampled = b.sampledBefore
  rowsBefore.fill(0, 0, b.nRows + 1)
  sampled.fill(0, 0, nYaw + 1)
  for (let p = 0; p < P; p++) rowsBefore[b.rowOfPitch[p] + 1]++
  let ys = 0
  for (let y = y0; y < y1; y += stride) { sampled[b.colOfYaw[y] + 1]++; ys++ }
  for (let r = 0; r < b.nRows; r++) rowsBefore[r + 1] += rowsBefore[r]
  for (let c = 0; c < nYaw; c++) sampled[c + 1] += sampled[c]
  const span = b.span, ne = b.everywhereCount
  for (let i = 0, e = 0; i < n; i++) {
    if (e < ne && b.everywhere[e] === i) { e++; continue }
    const r0 = span[4 * i], r1 = span[4 * i + 1], c0 = span[4 * i + 2], c1 = span[4 * i + 3]
    if (r1 < r0) continue
    const inCols = c0 <= c1 ? sampled[c1 + 1] - sampled[c0] : sampled[nYaw] - sampled[c0] + sampled[c1 + 1]
    sum += (rowsBefore[r1 + 1] - rowsBefore[r0]) * inCols
  }
  rays = P * ys
  return rays === 0 ? 0 : sum / rays
}

/**
 * Writes the cell lists of the spans fillLidarBuckets (cells mode) found for its `n` candidates, in
 * candidate order (the raster strategy needs only the spans and skips this).
 */
export function writeLidarBucketItems(b: LidarBuckets, n: number): void {
  if (!b.cellsCounted) countLidarBucketCells(b, n)
  const span = b.span, nYaw = b.nYaw, nCells = nYaw * b.nRows, start = b.cellStart, ne = b.everywhereCount
  const total = b.itemCount
  if (b.items.length < total) b.items = new Int32Array(Math.max(total, 2 * b.items.length))
  // start[c] is used as the cursor and restored afterwards by shifting
  const items = b.items, cols = b.spanCols
  for (let i = 0, e = 0; i < n; i++) {
    if (e < ne && b.everywhere[e] === i) { e++; continue } // listed in `everywhere`, not in cells
    const r0 = span[4 * i], r1 = span[4 * i + 1], m = spanColumns(b, span[4 * i + 2], span[4 * i + 3], cols)
    for (let r = r0; r <= r1; r++) {
      const row = r * nYaw
      for (let k = 0; k < m; k++) items[start[row + cols[k]]++] = i
    }
  }
  for (let c = nCells; c > 0; c--) start[c] = start[c - 1]
  start[0] = 0
}

/**
 * After writeLidarBucketItems: for each yaw sample y in [y0, y1), the first and last pitch sample
 * whose ray has something in its lists (its cell or `everywhere`) into b.rayLo[y] / b.rayHi[y]
 * (lo > hi: none), so only those rays need their world ray (fillLidarRays' rowLo / rowHi).
 */
export function lidarBucketRayRanges(b: LidarBuckets, d: LidarDirections, y0: number, y1: number): void {
  const Y = d.yawCount, P = d.pitchCount
  if (b.rayLo.length < Y) { b.rayLo = new Int32Array(Y); b.rayHi = new Int32Array(Y) }
  const lo = b.rayLo, hi = b.rayHi, start = b.cellStart, rowOf = b.rowOfPitch, flipOf = b.flipOfPitch, nYaw = b.nYaw
  const all = b.everywhereCount > 0
  for (let y = y0; y < y1; y++) {
    if (all) { lo[y] = 0; hi[y] = P - 1; continue }
    const cn = b.colOfYaw[y], cf = b.colOfYawFlipped[y]
    let first = P, last = -1
    for (let p = 0; p < P; p++) {
      const cell = rowOf[p] * nYaw + (flipOf[p] ? cf : cn)
      if (start[cell + 1] > start[cell]) { if (first === P) first = p; last = p }
    }
    lo[y] = first; hi[y] = last
  }
}
