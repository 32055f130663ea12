/**
 * A mesh's own tree, built once in the collider's frame: a binned SAH split on the node's longest
 * centroid axis, leaves of at most MAX_LEAF triangles, children stored side by side. Boxes are
 * f32, padded by a millionth of the mesh's size and rounded outwards, so no rounding can put a
 * triangle's point outside its leaf's box (the exact test is on the f64 vertices).
 * Layout and figures: docs/decisions/0009-meshes.md.
 */
/** Validated mesh data in the collider's local frame, with its tree. */
export interface MeshData {
  /** Vertex coordinates (xyz triples), copied from the shape. */
  vertices: Float64Array
  /** Vertex indices (three a triangle, the shape's order, zero-area triangles included), copied. */
  indices: Uint32Array
  /** Triangles in the shape (zero-area ones included: RayHit.triangle counts them). */
  triangleCount: number
  /** Triangles in the tree (zero-area ones left out). */
  treeTriangles: number
  /** The tree's triangle indices in leaf order: leaf (first, count) covers order[first ..< first + count]. */
  order: Int32Array
  /** Node boxes: 6 numbers a node (min xyz, max xyz), rounded outwards and padded (never hide a hit). */
  bounds: Float32Array
  /** Nodes: 2 numbers a node, [first, count]: count > 0 a leaf of order[first ..< first + count], else children first and first + 1. */
  nodes: Int32Array
  nodeCount: number
  /** The exact local box of the tree's triangles (min xyz, max xyz; empty: +∞ … −∞). */
  box: Float64Array
  /** Leaves in the tree. */
  leafCount: number
  /** The mesh as seen from an anchor many rays share (mesh-view.ts). */
  viewCache: MeshViewCache
  /** meshDigest's value once worked out, else −1. */
  digest: number
  /** Traversal scratch (deep enough for the tree). */
  stack: Int32Array
  stackT: Float64Array
}

/** The view of a mesh from one anchor. */
export interface MeshView {
  /** The anchor (local frame). */
  ax: number
  ay: number
  az: number
  /** Cell c's entries are [cellStart[c], cellStart[c + 1]). */
  cellStart: Int32Array
  /** Entries: leaf node and its distance from the anchor (a lower bound), nearest first in each cell. */
  leaf: Int32Array
  lower: Float64Array
  /** Leaves within VIEW_NEAR of the anchor (every ray tests them). */
  near: Int32Array
}

/** Streak bookkeeping of a mesh's view: the anchor rays have shared lately, how many, and whether a view was refused for it. */
export interface MeshViewCache {
  view: MeshView | null
  key: Float64Array
  streak: number
  refused: boolean
}

/** An empty view cache. */
export function createMeshViewCache(): MeshViewCache {
  return { view: null, key: new Float64Array([NaN, NaN, NaN]), streak: 0, refused: false }
}

/** Bins of the SAH sweep. */
const BINS = 16
/** Most triangles in a leaf (fewer where the SAH says a split pays). */
const MAX_LEAF = 4
/** Box padding per unit of the mesh's largest coordinate (far above f32 rounding, which is 6e-8 of it). */
const PAD = 1e-6
/** The cost of visiting a node, in triangle tests. */
const TRAVERSAL = 1

/** Builds the tree of `indices`' triangles over `vertices` (both validated, owned by the result). */
export function buildMeshTree(vertices: Float64Array, indices: Uint32Array): MeshData {
  const T = indices.length / 3
  let scale = 0
  for (let i = 0; i < vertices.length; i++) { const a = Math.abs(vertices[i]); if (a > scale) scale = a }
  const pad = PAD * scale + 1e-30
  // per kept triangle: its padded f32 box and its centroid; the exact f64 box of them all
  const ids = new Int32Array(T), tb = new Float32Array(6 * T), cen = new Float32Array(3 * T)
  const box = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity])
  let n = 0
  for (let t = 0; t < T; t++) {
    const a = 3 * indices[3 * t], b = 3 * indices[3 * t + 1], c = 3 * indices[3 * t + 2]
    const e1x = vertices[b] - vertices[a], e1y = vertices[b + 1] - vertices[a + 1], e1z = vertices[b + 2] - vertices[a + 2]
    const e2x = vertices[c] - vertices[a], e2y = vertices[c + 1] - vertices[a + 1], e2z = vertices[c + 2] - vertices[a + 2]
    // zero area (collinear or repeated corners): no ray can hit it, so it stays out of the tree
    if (e1y * e2z - e1z * e2y === 0 && e1z * e2x - e1x * e2z === 0 && e1x * e2y - e1y * e2x === 0) continue
    ids[n++] = t
    for (let k = 0; k < 3; k++) {
      const va = vertices[a + k], vb = vertices[b + k], vc = vertices[c + k]
      const lo = Math.min(va, vb, vc), hi = Math.max(va, vb, vc)
      if (lo < box[k]) box[k] = lo
      if (hi > box[3 + k]) box[3 + k] = hi
      tb[6 * t + k] = Math.fround(lo - pad); tb[6 * t + 3 + k] = Math.fround(hi + pad)
      cen[3 * t + k] = (lo + hi) / 2
    }
  }
  const cap = Math.max(1, 2 * n - 1)
  let bounds = new Float32Array(6 * cap), nodes = new Int32Array(2 * cap)
  let nodeCount = 0, maxDepth = 0, leafCount = 0
  if (n > 0) {
    nodeCount = 1
    // work items (node, start, end, depth)
    let work = new Int32Array(4 * 64), w = 0
    work[0] = 0; work[1] = 0; work[2] = n; work[3] = 0; w = 1
    const binN = new Int32Array(BINS), binB = new Float32Array(6 * BINS), rightArea = new Float64Array(BINS)
    while (w > 0) {
      w--
      const node = work[4 * w], start = work[4 * w + 1], end = work[4 * w + 2], depth = work[4 * w + 3]
      if (depth > maxDepth) maxDepth = depth
      // the node's box and its centroids' box
      let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity
      let cx0 = Infinity, cy0 = Infinity, cz0 = Infinity, cx1 = -Infinity, cy1 = -Infinity, cz1 = -Infinity
      for (let i = start; i < end; i++) {
        const t = ids[i], o = 6 * t, q = 3 * t
        if (tb[o] < x0) x0 = tb[o]
        if (tb[o + 1] < y0) y0 = tb[o + 1]
        if (tb[o + 2] < z0) z0 = tb[o + 2]
        if (tb[o + 3] > x1) x1 = tb[o + 3]
        if (tb[o + 4] > y1) y1 = tb[o + 4]
        if (tb[o + 5] > z1) z1 = tb[o + 5]
        const px = cen[q], py = cen[q + 1], pz = cen[q + 2]
        if (px < cx0) cx0 = px
        if (px > cx1) cx1 = px
        if (py < cy0) cy0 = py
        if (py > cy1) cy1 = py
        if (pz < cz0) cz0 = pz
        if (pz > cz1) cz1 = pz
      }
      const bo = 6 * node
      bounds[bo] = x0; bounds[bo + 1] = y0; bounds[bo + 2] = z0; bounds[bo + 3] = x1; bounds[bo + 4] = y1; bounds[bo + 5] = z1
      const count = end - start
      const ex = cx1 - cx0, ey = cy1 - cy0, ez = cz1 - cz0
      const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2
      const lo = axis === 0 ? cx0 : axis === 1 ? cy0 : cz0, extent = axis === 0 ? ex : axis === 1 ? ey : ez
      let mid = -1
      if (count > 2 && extent > 0) {
        const k = BINS / extent
        binN.fill(0)
        for (let b = 0; b < BINS; b++) { binB[6 * b] = binB[6 * b + 1] = binB[6 * b + 2] = Infinity; binB[6 * b + 3] = binB[6 * b + 4] = binB[6 * b + 5] = -Infinity }
        for (let i = start; i < end; i++) {
          const t = ids[i], o = 6 * t
          let b = ((cen[3 * t + axis] - lo) * k) | 0
          if (b >= BINS) b = BINS - 1
          binN[b]++
          const p = 6 * b
          if (tb[o] < binB[p]) binB[p] = tb[o]
          if (tb[o + 1] < binB[p + 1]) binB[p + 1] = tb[o + 1]
          if (tb[o + 2] < binB[p + 2]) binB[p + 2] = tb[o + 2]
          if (tb[o + 3] > binB[p + 3]) binB[p + 3] = tb[o + 3]
          if (tb[o + 4] > binB[p + 4]) binB[p + 4] = tb[o + 4]
          if (tb[o + 5] > binB[p + 5]) binB[p + 5] = tb[o + 5]
        }
        // right-to-left areas, then the left-to-right sweep for the cheapest split after bin s
        let rx0 = Infinity, ry0 = Infinity, rz0 = Infinity, rx1 = -Infinity, ry1 = -Infinity, rz1 = -Infinity
        for (let b = BINS - 1; b > 0; b--) {
          const p = 6 * b
          if (binN[b] > 0) {
            if (binB[p] < rx0) rx0 = binB[p]
            if (binB[p + 1] < ry0) ry0 = binB[p + 1]
            if (binB[p + 2] < rz0) rz0 = binB[p + 2]
            if (binB[p + 3] > rx1) rx1 = binB[p + 3]
            if (binB[p + 4] > ry1) ry1 = binB[p + 4]
            if (binB[p + 5] > rz1) rz1 = binB[p + 5]
          }
          rightArea[b] = area(rx0, ry0, rz0, rx1, ry1, rz1)
        }
        let lx0 = Infinity, ly0 = Infinity, lz0 = Infinity, lx1 = -Infinity, ly1 = -Infinity, lz1 = -Infinity
        let nl = 0, bestCost = Infinity, bestBin = -1
        for (let b = 0; b < BINS - 1; b++) {
          const p = 6 * b
          if (binN[b] > 0) {
            if (binB[p] < lx0) lx0 = binB[p]
            if (binB[p + 1] < ly0) ly0 = binB[p + 1]
            if (binB[p + 2] < lz0) lz0 = binB[p + 2]
            if (binB[p + 3] > lx1) lx1 = binB[p + 3]
            if (binB[p + 4] > ly1) ly1 = binB[p + 4]
            if (binB[p + 5] > lz1) lz1 = binB[p + 5]
          }
          nl += binN[b]
          if (nl === 0 || nl === count) continue
          const cost = area(lx0, ly0, lz0, lx1, ly1, lz1) * nl + rightArea[b + 1] * (count - nl)
          if (cost < bestCost) { bestCost = cost; bestBin = b }
        }
        const a = area(x0, y0, z0, x1, y1, z1)
        // a leaf when small enough and no split beats testing every triangle
        if (bestBin >= 0 && (count > MAX_LEAF || TRAVERSAL + bestCost / a < count)) {
          // partition: bins ≤ bestBin to the left (the same bin formula, so the same sides)
          let i = start, j = end - 1
          while (i <= j) {
            const t = ids[i]
            let b = ((cen[3 * t + axis] - lo) * k) | 0
            if (b >= BINS) b = BINS - 1
            if (b <= bestBin) i++
            else { ids[i] = ids[j]; ids[j] = t; j-- }
          }
          mid = i
        }
      }
      if (mid < 0 && count > MAX_LEAF) mid = start + (count >> 1) // all centroids alike: halves in list order
      if (mid < 0) { nodes[2 * node] = start; nodes[2 * node + 1] = count; leafCount++; continue }
      const left = nodeCount
      nodeCount += 2
      nodes[2 * node] = left; nodes[2 * node + 1] = 0
      if (4 * (w + 2) > work.length) { const grown = new Int32Array(work.length * 2); grown.set(work); work = grown }
      work[4 * w] = left + 1; work[4 * w + 1] = mid; work[4 * w + 2] = end; work[4 * w + 3] = depth + 1; w++
      work[4 * w] = left; work[4 * w + 1] = start; work[4 * w + 2] = mid; work[4 * w + 3] = depth + 1; w++
    }
  }
  if (nodeCount < cap) { bounds = bounds.slice(0, 6 * nodeCount); nodes = nodes.slice(0, 2 * nodeCount) }
  return {
    vertices, indices, triangleCount: T, treeTriangles: n, order: n === T ? ids : ids.slice(0, n), bounds, nodes, nodeCount, box,
    leafCount, viewCache: createMeshViewCache(), digest: -1, stack: new Int32Array(maxDepth + 1), stackT: new Float64Array(maxDepth + 1),
  }
}

function area(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  const dx = x1 - x0, dy = y1 - y0, dz = z1 - z0
  return dx * dy + dy * dz + dz * dx
}
