/**
 * Heightfields: validated data and the exact ray test. The ray walks the grid cells it crosses in
 * xy order (a 2D DDA); inside a cell the surface is two planar triangles split along the diagonal
 * from vertex (i, j) to (i+1, j+1), so along the ray the height difference is linear on each
 * side of the diagonal and its root is exact. Walking cells in t order makes the first root the
 * closest hit, and the pieces tile the ray with no gaps, so shared edges and vertices are never missed.
 */
import { describe, finiteNumber, finiteVector, positiveNumber } from '../validate'

/** Validated heightfield data in the collider's local frame. */
export interface HeightfieldData {
  /** Local xy of vertex (0, 0). */
  x0: number
  y0: number
  cellSize: number
  columns: number
  rows: number
  /** Heights (origin z added), row-major: vertex (i, j) at j·columns + i. */
  heights: Float64Array
  minH: number
  maxH: number
  /** (columns − 1)·cellSize and (rows − 1)·cellSize. */
  sizeX: number
  sizeY: number
}

/** Validates a heightfield shape object (errors name `name.field`). */
export function parseHeightfield(s: Record<string, unknown>, name: string): HeightfieldData {
  const origin = s.origin
  if (origin === null || typeof origin !== 'object' || typeof (origin as ArrayLike<number>).length !== 'number') {
    throw new TypeError(`${name}.origin must be [x, y] or [x, y, z], got ${describe(origin)}`)
  }
  const on = (origin as ArrayLike<number>).length
  if (on !== 2 && on !== 3) throw new RangeError(`${name}.origin must be [x, y] or [x, y, z], got ${on} numbers`)
  const o = finiteVector(origin, on, `${name}.origin`)
  const cellSize = positiveNumber(s.cellSize, `${name}.cellSize`)
  const columns = gridCount(s.columns, `${name}.columns`)
  const rows = gridCount(s.rows, `${name}.rows`)
  const h = s.heights
  if (h === null || typeof h !== 'object' || typeof (h as ArrayLike<number>).length !== 'number') {
    throw new TypeError(`${name}.heights must be an array of rows·columns numbers, got ${describe(h)}`)
  }
  const n = rows * columns
  if ((h as ArrayLike<number>).length !== n) throw new RangeError(`${name}.heights must have rows·columns = ${n} numbers, got ${(h as ArrayLike<number>).length}`)
  const z0 = on === 3 ? o[2] : 0
  const heights = new Float64Array(n)
  let minH = Infinity, maxH = -Infinity
  for (let i = 0; i < n; i++) {
    const v = finiteNumber((h as ArrayLike<number>)[i], `${name}.heights[${i}]`) + z0
    heights[i] = v
    if (v < minH) minH = v
    if (v > maxH) maxH = v
  }
  return { x0: o[0], y0: o[1], cellSize, columns, rows, heights, minH, maxH, sizeX: (columns - 1) * cellSize, sizeY: (rows - 1) * cellSize }
}

function gridCount(v: unknown, name: string): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < 2 || v > 1 << 24) throw new RangeError(`${name} must be an integer in [2, 16777216], got ${v}`)
  return v
}

/**
 * Closest hit of the local-frame ray L = [ox, oy, oz, dx, dy, dz, tMax] (t ∈ [0, tMax]) with
 * heightfield `hf`. On a hit writes t into out[0] and the unit local normal (facing the ray's
 * side) into out[1..3].
 */
export function rayHeightfield(hf: HeightfieldData, L: Float64Array, out: Float64Array): boolean {
  const ox = L[0], oy = L[1], oz = L[2], dx = L[3], dy = L[4], dz = L[5], tMax = L[6]
  const x0 = hf.x0, y0 = hf.y0, cs = hf.cellSize
  // Clip to the closed box of the field.
  let ta = 0, tb = tMax
  if (dx === 0) { if (ox < x0 || ox > x0 + hf.sizeX) return false } else {
    let t1 = (x0 - ox) / dx, t2 = (x0 + hf.sizeX - ox) / dx
    if (t1 > t2) { const s = t1; t1 = t2; t2 = s }
    if (t1 > ta) ta = t1
    if (t2 < tb) tb = t2
  }
  if (dy === 0) { if (oy < y0 || oy > y0 + hf.sizeY) return false } else {
    let t1 = (y0 - oy) / dy, t2 = (y0 + hf.sizeY - oy) / dy
    if (t1 > t2) { const s = t1; t1 = t2; t2 = s }
    if (t1 > ta) ta = t1
    if (t2 < tb) tb = t2
  }
  if (dz === 0) { if (oz < hf.minH || oz > hf.maxH) return false } else {
    let t1 = (hf.minH - oz) / dz, t2 = (hf.maxH - oz) / dz
    if (t1 > t2) { const s = t1; t1 = t2; t2 = s }
    if (t1 > ta) ta = t1
    if (t2 < tb) tb = t2
  }
  if (ta > tb) return false
  cellRay[0] = ta; cellRay[1] = tb
  if (dx === 0 && dy === 0) return rayVertical(hf, L, out)
  const cols = hf.columns, rows = hf.rows
  const i = clampCell(Math.floor((ox + ta * dx - x0) / cs), cols - 2)
  const j = clampCell(Math.floor((oy + ta * dy - y0) / cs), rows - 2)
  return walkCells(hf, i, j, L, out)
}

/**
 * The ray L through the cells from (i, j) on, in t order (a 2D DDA), over cellRay's span, to its
 * first root. An axis the ray does not cross is left at the span's end, tb, not at Infinity: with
 * Infinity among its numbers V8's optimised loop boxed every one of them, ≈ 40 KB a step of
 * full20Terrain (test/perf/perf.test.ts "full20Terrain steady" fails without it).
 */
function walkCells(hf: HeightfieldData, i: number, j: number, L: Float64Array, out: Float64Array): boolean {
  const ox = L[0], oy = L[1], dx = L[3], dy = L[4]
  const x0 = hf.x0, y0 = hf.y0, cs = hf.cellSize, cols = hf.columns, rows = hf.rows
  const si = dx > 0 ? 1 : dx < 0 ? -1 : 0
  const sj = dy > 0 ? 1 : dy < 0 ? -1 : 0
  let tStart = cellRay[0]
  const tb = cellRay[1]
  for (;;) {
    // where the ray leaves the cell across x and across y
    const tx = si > 0 ? (x0 + (i + 1) * cs - ox) / dx : si < 0 ? (x0 + i * cs - ox) / dx : tb
    const ty = sj > 0 ? (y0 + (j + 1) * cs - oy) / dy : sj < 0 ? (y0 + j * cs - oy) / dy : tb
    let tEnd = tx < ty ? tx : ty
    if (tEnd > tb) tEnd = tb
    if (tEnd < tStart) tEnd = tStart
    cellRay[0] = tStart; cellRay[1] = tEnd
    if (rayCell(hf, i, j, L, out)) return true
    if (tEnd >= tb) return false
    // the next cell (across both axes at a corner)
    if (tx <= ty) i += si
    if (ty <= tx) j += sj
    if (i < 0 || j < 0 || i > cols - 2 || j > rows - 2) return false
    tStart = tEnd
  }
}

/**
 * rayHeightfield for a ray along ±z (a wheel's or an axle's ray on level-ish ground): the one cell
 * under it and the triangle on its side of the diagonal (heightfieldBelow), the same arithmetic as
 * rayCell and rayTriangle with the ray's xy terms (zero) left out, so the same bits; its span
 * [ta, tb] in cellRay.
 */
function rayVertical(hf: HeightfieldData, L: Float64Array, out: Float64Array): boolean {
  const oz = L[2], dz = L[5], ta = cellRay[0], tb = cellRay[1]
  if (!heightfieldBelow(hf, L, out)) return false
  const f0 = oz - out[0]
  const fa = f0 + dz * ta, fb = f0 + dz * tb
  if ((fa > 0 && fb > 0) || (fa < 0 && fb < 0)) return false
  let t = fa === 0 || dz === 0 ? ta : ta - fa / dz
  if (t < ta) t = ta
  if (t > tb) t = tb
  // the normal turned to face the ray
  if (out[3] * dz > 0) { out[1] = -out[1]; out[2] = -out[2]; out[3] = -out[3] }
  out[0] = t
  return true
}

/**
 * The surface of heightfield `hf` straight under the local point (L[0], L[1]): the one cell there
 * and the triangle on its side of the diagonal, its height at the point into out[0] and its unit
 * upward normal into out[1..3]; false outside the field's closed xy box (NaN included).
 */
export function heightfieldBelow(hf: HeightfieldData, L: Float64Array, out: Float64Array): boolean {
  const x = L[0], y = L[1], x0 = hf.x0, y0 = hf.y0, cs = hf.cellSize
  if (!(x >= x0 && x <= x0 + hf.sizeX && y >= y0 && y <= y0 + hf.sizeY)) return false
  const cols = hf.columns, H = hf.heights
  const i = clampCell(Math.floor((x - x0) / cs), cols - 2)
  const j = clampCell(Math.floor((y - y0) / cs), hf.rows - 2)
  const k = j * cols + i
  const h00 = H[k]
  const fx0 = (x - (x0 + i * cs)) / cs, fy0 = (y - (y0 + j * cs)) / cs
  // the diagonal side fx − fy (≥ 0: triangle A = (00, 10, 11), else B = (00, 11, 01)): plane a + b·fx + c·fy
  const b = fx0 - fy0 >= 0 ? H[k + 1] - h00 : H[k + cols + 1] - H[k + cols]
  const c = fx0 - fy0 >= 0 ? H[k + cols + 1] - H[k + 1] : H[k + cols] - h00
  // plane normal ∝ (−b/cs, −c/cs, 1)
  let nx = -b / cs, ny = -c / cs, nz = 1
  const inv = 1 / Math.sqrt(nx * nx + ny * ny + 1)
  nx *= inv; ny *= inv; nz *= inv
  out[0] = h00 + b * fx0 + c * fy0; out[1] = nx; out[2] = ny; out[3] = nz
  return true
}

function clampCell(i: number, max: number): number {
  return i < 0 ? 0 : i > max ? max : i
}

// rayCell's span [ta, tb] of the ray (numbers pass through here and L: a call's double arguments
// would be boxed, an allocation per cell a wheel's ray crosses)
const cellRay = new Float64Array(2)

/** Root of the local-frame ray L against the two triangles of cell (i, j) for t in cellRay's [ta, tb]. */
function rayCell(hf: HeightfieldData, i: number, j: number, L: Float64Array, out: Float64Array): boolean {
  const ox = L[0], oy = L[1], oz = L[2], dx = L[3], dy = L[4], dz = L[5], ta = cellRay[0], tb = cellRay[1]
  const cs = hf.cellSize, cols = hf.columns, H = hf.heights
  const k = j * cols + i
  const h00 = H[k], h10 = H[k + 1], h01 = H[k + cols], h11 = H[k + cols + 1]
  // Cell-local coordinates along the ray: f = (x − cellX0) / cs = fx0 + t·fxd; likewise y.
  const fx0 = (ox - (hf.x0 + i * cs)) / cs, fxd = dx / cs
  const fy0 = (oy - (hf.y0 + j * cs)) / cs, fyd = dy / cs
  // Diagonal side g = fx − fy (≥ 0: triangle A = (00, 10, 11); ≤ 0: triangle B = (00, 11, 01)).
  const ga = fx0 - fy0 + ta * (fxd - fyd), gb = fx0 - fy0 + tb * (fxd - fyd)
  let tSplit = tb
  if ((ga > 0 && gb < 0) || (ga < 0 && gb > 0)) tSplit = ta + (tb - ta) * (ga / (ga - gb))
  const firstA = ga > 0 || (ga === 0 && gb >= 0)
  tri[3] = cs; tri[4] = fx0; tri[5] = fxd; tri[6] = fy0; tri[7] = fyd; tri[8] = oz; tri[9] = dz
  // triangle A = (00, 10, 11), B = (00, 11, 01): each one's plane and span written into tri
  if (firstA) {
    tri[0] = h00; tri[1] = h10 - h00; tri[2] = h11 - h10; tri[10] = ta; tri[11] = tSplit
    if (rayTriangle(out)) return true
    if (!(tSplit < tb)) return false
    tri[0] = h00; tri[1] = h11 - h01; tri[2] = h01 - h00; tri[10] = tSplit; tri[11] = tb
    return rayTriangle(out)
  }
  tri[0] = h00; tri[1] = h11 - h01; tri[2] = h01 - h00; tri[10] = ta; tri[11] = tSplit
  if (rayTriangle(out)) return true
  if (!(tSplit < tb)) return false
  tri[0] = h00; tri[1] = h10 - h00; tri[2] = h11 - h10; tri[10] = tSplit; tri[11] = tb
  return rayTriangle(out)
}

// rayTriangle's numbers: [a, b, c, cs, fx0, fxd, fy0, fyd, oz, dz, ta, tb] (see cellRay)
const tri = new Float64Array(12)

/** Root in [ta, tb] of z(t) − (a + b·fx(t) + c·fy(t)), the ray against one triangle's plane (its numbers in tri). */
function rayTriangle(out: Float64Array): boolean {
  const a = tri[0], b = tri[1], c = tri[2], cs = tri[3], fx0 = tri[4], fxd = tri[5], fy0 = tri[6], fyd = tri[7], oz = tri[8], dz = tri[9], ta = tri[10], tb = tri[11]
  const f0 = oz - (a + b * fx0 + c * fy0)
  const k = dz - (b * fxd + c * fyd)
  const fa = f0 + k * ta, fb = f0 + k * tb
  if ((fa > 0 && fb > 0) || (fa < 0 && fb < 0)) return false
  let t = fa === 0 || k === 0 ? ta : ta - fa / k
  if (t < ta) t = ta
  if (t > tb) t = tb
  // Plane normal ∝ (−b/cs, −c/cs, 1), turned to face the ray.
  let nx = -b / cs, ny = -c / cs, nz = 1
  const inv = 1 / Math.sqrt(nx * nx + ny * ny + 1)
  nx *= inv; ny *= inv; nz *= inv
  if (nx * fxd * cs + ny * fyd * cs + nz * dz > 0) { nx = -nx; ny = -ny; nz = -nz }
  out[0] = t; out[1] = nx; out[2] = ny; out[3] = nz
  return true
}
