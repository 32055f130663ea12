/**
 * A mesh seen from one point (its anchor): the mesh's leaves binned by the directions they cover
 * from there, on a cube map of VIEW_G × VIEW_G cells a face, each cell's leaves nearest first.
 * A ray whose line passes through the anchor (its start, or a lidar's sensor behind its start)
 * walks only its direction's cell, stopping at the first leaf farther than its best hit: the
 * exact test of a superset of the leaves it can meet, so the same hits as the tree. Built when
 * enough rays in a row share an anchor (a lidar's scan, rayTest's runs from one start), kept
 * while they do. Figures: docs/decisions/0009-meshes.md.
 */
import type { MeshData, MeshView } from './mesh-tree'
import { F_AX, F_AY, F_AZ } from './mesh-leaf'

/** Cells along each side of a cube face. */
export const VIEW_G = 64
/** Cell padding (in cells) for the rounding of a box's and a ray's projections. */
const PAD_CELLS = 1e-4
/** Leaves within this distance (m) of the anchor are tested by every ray (their directions are not binned). */
export const VIEW_NEAR = 1e-3
/** At most this many cell entries per leaf (or 8 a cell, if more), else no view (a big mesh wrapped round the anchor at close range). */
const MAX_ENTRIES_PER_LEAF = 24

/**
 * Rays in a row from one anchor before a view is built: enough that it pays. A build costs about
 * what a ray's savings are worth over two rays a leaf, so a sensor moving every scan (a new anchor
 * each time) keeps the tree, and a standing one gets its view within a scan or two.
 */
function streakNeeded(leaves: number): number {
  return Math.max(2048, 2 * leaves)
}

/**
 * The view for the anchor in frame F (F_AX..F_AZ) when one is current or now due (this ray
 * extends a long enough streak), else null. Counts the streak.
 */
export function meshViewFor(m: MeshData, F: Float64Array): MeshView | null {
  const ax = F[F_AX], ay = F[F_AY], az = F[F_AZ]
  const c = m.viewCache, v = c.view
  if (v !== null && v.ax === ax && v.ay === ay && v.az === az) return v
  const k = c.key
  if (k[0] !== ax || k[1] !== ay || k[2] !== az) { k[0] = ax; k[1] = ay; k[2] = az; c.streak = 0; c.refused = false }
  if (c.refused || ++c.streak < streakNeeded(m.leafCount)) return null
  c.view = buildMeshView(m, ax, ay, az)
  c.refused = c.view === null
  return c.view
}

/** The cube-map cell of ray L's direction L[3..5] (not zero): face by its largest axis and sign, then u, v. */
export function viewCell(L: Float64Array): number {
  const dx = L[3], dy = L[4], dz = L[5]
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz)
  let f: number, z: number, u: number, v: number
  if (ax >= ay && ax >= az) { f = dx > 0 ? 0 : 1; z = ax; u = dy; v = dz } else if (ay >= az) { f = dy > 0 ? 2 : 3; z = ay; u = dz; v = dx } else { f = dz > 0 ? 4 : 5; z = az; u = dx; v = dy }
  let iu = Math.floor((u / z + 1) * (VIEW_G / 2)), iv = Math.floor((v / z + 1) * (VIEW_G / 2))
  if (iu >= VIEW_G) iu = VIEW_G - 1
  if (iv >= VIEW_G) iv = VIEW_G - 1
  return (f * VIEW_G + iv) * VIEW_G + iu
}

const box = new Float64Array(6)

/**
 * The cube-map cells the box (relative to the anchor, in `box`) can be seen in: on each face, the
 * exact range of u = b/z and v = c/z over the box's part in front (z > 0), padded by PAD_CELLS.
 * Counts them into `counts`, or (counts null) appends (leaf, lower) at each cell's `cursor`.
 * Returns the number of cells.
 */
function boxCells(counts: Int32Array | null, cursor: Int32Array | null, leafOut: Int32Array | null, lowerOut: Float64Array | null, leaf: number, lower: number): number {
  let n = 0
  for (let f = 0; f < 6; f++) {
    const a = f >> 1, s = f & 1 ? -1 : 1, b = a === 0 ? 1 : a === 1 ? 2 : 0, c = a === 0 ? 2 : a === 1 ? 0 : 1
    const zlo = s > 0 ? box[a] : -box[3 + a], zhi = s > 0 ? box[3 + a] : -box[a]
    if (!(zhi > 0)) continue
    const b0 = box[b], b1 = box[3 + b], c0 = box[c], c1 = box[3 + c]
    const u0 = b0 >= 0 ? b0 / zhi : zlo > 0 ? b0 / zlo : -Infinity, u1 = b1 <= 0 ? b1 / zhi : zlo > 0 ? b1 / zlo : Infinity
    const v0 = c0 >= 0 ? c0 / zhi : zlo > 0 ? c0 / zlo : -Infinity, v1 = c1 <= 0 ? c1 / zhi : zlo > 0 ? c1 / zlo : Infinity
    if (u0 > 1 || u1 < -1 || v0 > 1 || v1 < -1) continue
    const iu0 = Math.max(0, Math.floor((u0 + 1) * (VIEW_G / 2) - PAD_CELLS)), iu1 = Math.min(VIEW_G - 1, Math.floor((u1 + 1) * (VIEW_G / 2) + PAD_CELLS))
    const iv0 = Math.max(0, Math.floor((v0 + 1) * (VIEW_G / 2) - PAD_CELLS)), iv1 = Math.min(VIEW_G - 1, Math.floor((v1 + 1) * (VIEW_G / 2) + PAD_CELLS))
    for (let iv = iv0; iv <= iv1; iv++) {
      for (let iu = iu0; iu <= iu1; iu++) {
        const cell = (f * VIEW_G + iv) * VIEW_G + iu
        if (counts !== null) counts[cell]++
        else { const e = cursor![cell]++; leafOut![e] = leaf; lowerOut![e] = lower }
        n++
      }
    }
  }
  return n
}

/** Builds the view of mesh m from anchor (ax, ay, az), or null when it would hold too many entries. */
export function buildMeshView(m: MeshData, ax: number, ay: number, az: number): MeshView | null {
  const B = m.bounds, nodes = m.nodes, cells = 6 * VIEW_G * VIEW_G, N = m.nodeCount
  const maxEntries = Math.max(MAX_ENTRIES_PER_LEAF * m.leafCount, 8 * cells)
  // each leaf's distance from the anchor (NaN for inner nodes); the near ones apart
  const dist = new Float64Array(N).fill(NaN), counts = new Int32Array(cells + 1)
  const near: number[] = []
  let total = 0
  for (let i = 0; i < N; i++) {
    if (nodes[2 * i + 1] === 0) continue
    const o = 6 * i
    const gx = Math.max(0, B[o] - ax, ax - B[o + 3]), gy = Math.max(0, B[o + 1] - ay, ay - B[o + 4]), gz = Math.max(0, B[o + 2] - az, az - B[o + 5])
    const d = Math.sqrt(gx * gx + gy * gy + gz * gz) * (1 - 1e-12)
    if (d <= VIEW_NEAR) { near.push(i); continue }
    dist[i] = d
    setBox(B, o, ax, ay, az)
    total += boxCells(counts, null, null, null, 0, 0)
    if (total > maxEntries) return null
  }
  const cellStart = new Int32Array(cells + 1)
  for (let c = 0; c < cells; c++) cellStart[c + 1] = cellStart[c] + counts[c]
  const cursor = cellStart.slice(0, cells), leaf = new Int32Array(total), lower = new Float64Array(total)
  for (let i = 0; i < N; i++) {
    if (!(dist[i] >= 0)) continue
    setBox(B, 6 * i, ax, ay, az)
    boxCells(null, cursor, leaf, lower, i, dist[i])
  }
  // each cell nearest first (insertion sort: cells hold a few entries, in tree order, which is nearly sorted already)
  for (let c = 0; c < cells; c++) {
    for (let e = cellStart[c] + 1, end = cellStart[c + 1]; e < end; e++) {
      const l = lower[e], n = leaf[e]
      let j = e - 1
      while (j >= cellStart[c] && lower[j] > l) { lower[j + 1] = lower[j]; leaf[j + 1] = leaf[j]; j-- }
      lower[j + 1] = l; leaf[j + 1] = n
    }
  }
  return { ax, ay, az, cellStart, leaf, lower, near: Int32Array.from(near) }
}

function setBox(B: Float32Array, o: number, ax: number, ay: number, az: number): void {
  box[0] = B[o] - ax; box[1] = B[o + 1] - ay; box[2] = B[o + 2] - az
  box[3] = B[o + 3] - ax; box[4] = B[o + 4] - ay; box[5] = B[o + 5] - az
}
