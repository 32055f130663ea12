/**
 * The raster's ray spans: per candidate, the rays its bound can reach (per yaw sample of its bucket
 * columns inside its yaw wedge, the pitch samples of its elevation band inside its cone), the rows
 * those rays lie in, and per row the run of rays a plane (the ground) reaches alone.
 */
import type { LidarBuckets } from './buckets'
import { LIDAR_ANGLE_MARGIN } from './buckets'
import type { LidarCandidates } from './candidates'
import type { LidarDirections } from './directions'
import type { LidarRaster } from './types'

/** Index range [lo, hi] of pitch samples whose angle lies in [a, b] (padded); lo > hi when none. */
function pitchRange(d: LidarDirections, a: number, b: number, out: Int32Array): void {
  const P = d.pitchCount, s = d.pitchStart, inc = d.pitchIncrement
  if (P === 1 || inc === 0) {
    const inside = s >= a && s <= b
    out[0] = inside ? 0 : 1; out[1] = inside ? P - 1 : 0
    return
  }
  let lo = (a - s) / inc, hi = (b - s) / inc
  if (inc < 0) { const t = lo; lo = hi; hi = t }
  const pl = Math.ceil(lo - 1e-6), ph = Math.floor(hi + 1e-6)
  out[0] = pl < 0 ? 0 : pl
  out[1] = ph > P - 1 ? P - 1 : ph
}

/**
 * Solves, for every candidate, the rays its cone can reach (per yaw sample in its bucket columns,
 * the pitch samples of its elevation band with cos p·A + sin p·B ≥ cos α, padded) into r.spanOf /
 * r.spanQ, in the order the rays are then tested.
 */
function solveSpans(r: LidarRaster, d: LidarDirections, b: LidarBuckets, k: LidarCandidates): void {
  const P = d.pitchCount, Y = d.yawCount, rays = Y * P, n = k.n
  if (r.spanOf.length < n + 1) r.spanOf = new Int32Array(n + 1)
  if (r.rowLo.length < Y) { r.rowLo = new Int32Array(Y); r.rowHi = new Int32Array(Y) }
  r.spansValid = true
  r.layout = nextLayout++
  const spanOf = r.spanOf, span = b.span, start = r.colStart, colYaw = r.colYaw, nYaw = b.nYaw
  const cy = d.cy, sy = d.sy, cp = d.cp, sp = d.sp, M = LIDAR_ANGLE_MARGIN
  const range = rangeScratch, rowLo = r.rowLo, rowHi = r.rowHi
  rowLo.fill(P, 0, Y)
  rowHi.fill(-1, 0, Y)
  let Q = r.spanQ, m = 0
  for (let i = 0; i < n; i++) {
    spanOf[i] = m
    const alpha = k.alpha[i]
    if (alpha >= Math.PI) {
      if (Q.length < 2 * m + 2) Q = growSpans(r, 2 * m + 2)
      Q[2 * m] = 0; Q[2 * m + 1] = rays - 1; m++
      rowLo.fill(0, 0, Y)
      rowHi.fill(P - 1, 0, Y)
      continue
    }
    const r0 = span[4 * i], r1 = span[4 * i + 1], c0 = span[4 * i + 2], c1 = span[4 * i + 3]
    if (r1 < r0) continue
    // the pitch samples of the candidate's elevation band, then per yaw sample those inside the
    // cone: cos θ = cos p·A + sin p·B ≥ cos(α + 2M), with A, B the axis against the sample's yaw
    // plane (an angular margin of 2M: the interval padded by M in pitch lies inside it)
    pitchRange(d, k.elevLo[i], k.elevHi[i], range)
    const pA = range[0], pB = range[1]
    if (pA > pB) continue
    const ax = k.ax[i], ay = k.ay[i], B = k.az[i], ca = Math.cos(alpha + 2 * M)
    // the candidate's yaw wedge (none: every yaw passes): sin(angle from its edges) ≥ −margin
    const u1x = k.u1x[i], u1y = k.u1y[i], u2x = k.u2x[i], u2y = k.u2y[i], ws = u1x === 0 && u1y === 0 ? -2 : -k.wedgeSin[i]
    const wrap = c1 < c0
    for (let pass = 0; pass < (wrap ? 2 : 1); pass++) {
      const j0 = pass === 0 ? start[c0] : 0, j1 = pass === 0 && wrap ? start[nYaw] : start[c1 + 1]
      for (let j = j0; j < j1; j++) {
        const y = colYaw[j], vx = cy[y], vy = sy[y]
        if (u1x * vy - u1y * vx < ws || vx * u2y - vy * u2x < ws) continue
        const A = ax * vx + ay * vy
        // the samples inside form one interval (a cone meets a yaw plane in one arc)
        let lo = pA, hi = pB
        while (lo <= hi && cp[lo] * A + sp[lo] * B < ca) lo++
        if (lo > hi) continue
        while (cp[hi] * A + sp[hi] * B < ca) hi--
        if (Q.length < 2 * m + 2) Q = growSpans(r, 2 * m + 2)
        Q[2 * m] = y * P + lo; Q[2 * m + 1] = y * P + hi; m++
        if (lo < rowLo[y]) rowLo[y] = lo
        if (hi > rowHi[y]) rowHi[y] = hi
      }
    }
  }
  spanOf[n] = m
  let touched = 0
  for (let y = 0; y < Y; y++) if (rowHi[y] >= rowLo[y]) touched += rowHi[y] - rowLo[y] + 1
  r.touched = touched
  findSolePlaneRuns(r, d, k)
}

/**
 * Per yaw sample, the longest run of rays reached by one plane candidate alone (a hemisphere
 * cone, so one span per row) — the ground below the horizon wherever no shape's cone reaches.
 */
function findSolePlaneRuns(r: LidarRaster, d: LidarDirections, k: LidarCandidates): void {
  const P = d.pitchCount, Y = d.yawCount, rays = Y * P, n = k.n, spanOf = r.spanOf, Q = r.spanQ
  if (r.soleCand.length < Y) { r.soleCand = new Int32Array(Y); r.soleLo = new Int32Array(Y); r.soleHi = new Int32Array(Y) }
  if (P <= MASK_PITCHES) { findSolePlaneRunsByMasks(r, d, k); return }
  if (r.owner.length < rays) r.owner = new Int32Array(rays)
  const owner = r.owner, soleCand = r.soleCand, soleLo = r.soleLo, soleHi = r.soleHi
  owner.fill(-1, 0, rays)
  for (let i = 0; i < n; i++) {
    // a candidate reaching every ray (alpha ≥ π) owns nothing alone unless it is the only one
    const eligible = k.plane[i] === 1 && k.alpha[i] < Math.PI
    for (let s = spanOf[i]; s < spanOf[i + 1]; s++) {
      for (let q = Q[2 * s], qEnd = Q[2 * s + 1]; q <= qEnd; q++) owner[q] = owner[q] === -1 && eligible ? i : -2
    }
  }
  soleCand.fill(-1, 0, Y)
  soleLo.fill(1, 0, Y)
  soleHi.fill(0, 0, Y)
  for (let y = 0; y < Y; y++) {
    let bestLen = 0
    for (let p = 0, q = y * P; p < P;) {
      const o = owner[q]
      if (o < 0) { p++; q++; continue }
      let p1 = p
      while (p1 + 1 < P && owner[q + p1 + 1 - p] === o) p1++
      if (p1 - p + 1 > bestLen) { bestLen = p1 - p + 1; soleCand[y] = o; soleLo[y] = p; soleHi[y] = p1 }
      q += p1 + 1 - p; p = p1 + 1
    }
  }
}

/** Patterns of at most this many pitch samples find their sole-plane runs with one bit per sample. */
const MASK_PITCHES = 30

/**
 * findSolePlaneRuns with a row's rays as bits (pitch sample p: bit p): per row, the rays some span
 * covers once and those covered twice or more, and the rays of the first plane candidate to reach
 * the row; its sole run is the longest run of its rays no other span covers (the first, on a tie).
 * A second plane's rays in the same row are not considered (any run reached by one plane alone
 * serves; the ground is the only plane of a usual scene).
 */
function findSolePlaneRunsByMasks(r: LidarRaster, d: LidarDirections, k: LidarCandidates): void {
  const P = d.pitchCount, Y = d.yawCount, n = k.n, spanOf = r.spanOf, Q = r.spanQ
  if (r.coverOnce.length < Y) { r.coverOnce = new Int32Array(Y); r.coverTwice = new Int32Array(Y); r.planeBits = new Int32Array(Y) }
  const once = r.coverOnce, twice = r.coverTwice, planeBits = r.planeBits, soleCand = r.soleCand, soleLo = r.soleLo, soleHi = r.soleHi
  once.fill(0, 0, Y); twice.fill(0, 0, Y); planeBits.fill(0, 0, Y)
  soleCand.fill(-1, 0, Y)
  soleLo.fill(1, 0, Y)
  soleHi.fill(0, 0, Y)
  for (let i = 0; i < n; i++) {
    // a candidate reaching every ray (alpha ≥ π) leaves no ray to a plane alone
    if (k.alpha[i] >= Math.PI) { soleCand.fill(-1, 0, Y); return }
    const eligible = k.plane[i] === 1
    for (let s = spanOf[i]; s < spanOf[i + 1]; s++) {
      const y = (Q[2 * s] / P) | 0, a = Q[2 * s] - y * P, b = Q[2 * s + 1] - y * P
      const bits = ((1 << (b + 1)) - 1) ^ ((1 << a) - 1)
      twice[y] |= once[y] & bits
      once[y] |= bits
      if (eligible && (soleCand[y] === -1 || soleCand[y] === i)) { soleCand[y] = i; planeBits[y] |= bits }
    }
  }
  for (let y = 0; y < Y; y++) {
    if (soleCand[y] < 0) continue
    const sole = planeBits[y] & ~twice[y], low = sole & -sole
    if (sole === 0) { soleCand[y] = -1; continue }
    if ((sole & (sole + low)) === 0) {
      // one run of set bits (the usual case): its ends at once
      soleLo[y] = 31 - Math.clz32(low); soleHi[y] = 31 - Math.clz32(sole)
      continue
    }
    let bestLen = 0
    for (let p = 0; p < P;) {
      if ((sole & (1 << p)) === 0) { p++; continue }
      let p1 = p
      while (p1 + 1 < P && (sole & (1 << (p1 + 1))) !== 0) p1++
      if (p1 - p + 1 > bestLen) { bestLen = p1 - p + 1; soleLo[y] = p; soleHi[y] = p1 }
      p = p1 + 1
    }
    if (bestLen === 0) soleCand[y] = -1
  }
}

/** Solves the spans (and the rows they reach: rowLo / rowHi) unless they are current. */
export function prepareLidarRaster(r: LidarRaster, d: LidarDirections, b: LidarBuckets, k: LidarCandidates): void {
  if (!r.spansValid) solveSpans(r, d, b, k)
}

let nextLayout = 0

/** Grows r.spanQ (doubling, keeping contents) to hold at least `n` entries; returns it. */
function growSpans(r: LidarRaster, n: number): Int32Array {
  const next = new Int32Array(Math.max(n, 2 * r.spanQ.length, 1024))
  next.set(r.spanQ)
  r.spanQ = next
  return next
}

const rangeScratch = new Int32Array(2)
