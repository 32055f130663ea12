/**
 * A flat bounding-volume hierarchy over collider AABBs (f64, so no rounding can hide a hit).
 * Nodes live in typed arrays: bounds (6 per node), `first` (leaf: first index into `prims`;
 * internal: index of the left child, the right child is first + 1), `count` (leaf: number of
 * prims, internal: 0) and `parent` (−1 at the root, node 0); `leafOf` gives each prim slot's leaf,
 * and `leafBox` each prim's leaf box by entity id (the refit reads it beside the prim's own box).
 * Built top-down with a binned surface-area heuristic; memory grows only when the leaf count does.
 * A tree of moving colliders (one prim per leaf, boxes padded by `margin`) is kept current by
 * refitBvh (bvh-refit.ts): only a leaf whose prim left its padded box changes, and its rotations
 * keep the tree good without rebuilds (a rebuild runs too rarely to be optimised code, and
 * unoptimised it allocates for every number).
 */

const BINS = 12
/** Nodes of at most this many prims split at the median, not by binned SAH. */
const MEDIAN_SPLIT_MAX = 4

/** A BVH (fields are read directly by the traversal in query.ts). */
export interface Bvh {
  /** Most prims a leaf holds at build. */
  maxLeaf: number
  /** How far a leaf's box reaches beyond its prims' boxes on every side (0: exact). */
  margin: number
  /** Prims (entity ids) in leaf order. */
  prims: Int32Array
  primCount: number
  bounds: Float64Array
  first: Int32Array
  count: Int32Array
  /** Each node's parent (−1 for the root). */
  parent: Int32Array
  /** The leaf node holding each prim slot. */
  leafOf: Int32Array
  /** Per node: its box's surface area (kept by refitBvh, for its rotations). */
  area: Float64Array
  /** The prims (entity ids) in the order the build was given them. */
  members: Int32Array
  /** Per entity id of a prim: its slot in `prims`, its leaf's box (6 numbers), its own box's low corner (3) when that leaf box was set and b.refits then (its motion since, refitBvh). */
  slotOf: Int32Array
  leafBox: Float64Array
  anchor: Float64Array
  anchorAt: Int32Array
  nodeCount: number
  /** Traversal stacks (node index, entry t): one entry per node, as rotations may deepen the tree. */
  stack: Int32Array
  stackT: Float64Array
  /** Refits so far (picks the nodes that look for a rotation). */
  refits: number
  /** Leaf boxes refitBvh has set afresh so far (a prim left its box), and ancestors it grew to hold them. */
  leavesPadded: number
  nodesGrown: number
  /** refitBvh scratch: the areas of a rotation's candidate nodes. */
  areas: Float64Array
  // build scratch
  cent: Float64Array
  binOf: Int32Array
  binMin: Float64Array
  binMax: Float64Array
  binCount: Int32Array
  rightArea: Float64Array
  leftArea: Float64Array
  sweep: Float64Array
}

/** An empty BVH whose leaves hold up to `maxLeaf` prims, their boxes padded by `margin` on every side. */
export function createBvh(maxLeaf: number, margin = 0): Bvh {
  return {
    maxLeaf, margin, prims: new Int32Array(0), primCount: 0,
    bounds: new Float64Array(0), first: new Int32Array(0), count: new Int32Array(0), parent: new Int32Array(0), leafOf: new Int32Array(0), area: new Float64Array(0),
    members: new Int32Array(0), slotOf: new Int32Array(0), leafBox: new Float64Array(0), anchor: new Float64Array(0), anchorAt: new Int32Array(0), nodeCount: 0,
    stack: new Int32Array(0), stackT: new Float64Array(0), refits: 0, leavesPadded: 0, nodesGrown: 0, areas: new Float64Array(4),
    cent: new Float64Array(0), binOf: new Int32Array(0), binMin: new Float64Array(BINS * 3), binMax: new Float64Array(BINS * 3),
    binCount: new Int32Array(BINS), rightArea: new Float64Array(BINS), leftArea: new Float64Array(BINS), sweep: new Float64Array(2),
  }
}

function reserve(b: Bvh, n: number): void {
  if (b.prims.length < n) {
    const cap = Math.max(16, n, b.prims.length * 2)
    b.prims = new Int32Array(cap)
    b.cent = new Float64Array(cap * 3)
    b.binOf = new Int32Array(cap)
    b.leafOf = new Int32Array(cap)
    b.members = new Int32Array(cap)
    const nodes = 2 * cap
    b.bounds = new Float64Array(nodes * 6)
    b.first = new Int32Array(nodes)
    b.count = new Int32Array(nodes)
    b.parent = new Int32Array(nodes)
    b.area = new Float64Array(nodes)
    b.stack = new Int32Array(nodes)
    b.stackT = new Float64Array(nodes)
  }
}

/** Builds `b` over the `n` entity ids in `eids`, whose boxes are aabb[6·eid …] (min xyz, max xyz). */
export function buildBvh(b: Bvh, eids: ArrayLike<number>, n: number, aabb: Float64Array): void {
  reserve(b, n)
  let maxEid = -1
  for (let i = 0; i < n; i++) if (eids[i] > maxEid) maxEid = eids[i]
  if (b.slotOf.length <= maxEid) {
    const cap = Math.max(16, maxEid + 1, b.slotOf.length * 2)
    b.slotOf = new Int32Array(cap); b.leafBox = new Float64Array(cap * 6); b.anchor = new Float64Array(cap * 3); b.anchorAt = new Int32Array(cap)
  }
  const prims = b.prims, cent = b.cent
  for (let i = 0; i < n; i++) {
    const e = eids[i]
    prims[i] = e
    b.members[i] = e
    cent[i * 3] = aabb[e * 6] + aabb[e * 6 + 3]
    cent[i * 3 + 1] = aabb[e * 6 + 1] + aabb[e * 6 + 4]
    cent[i * 3 + 2] = aabb[e * 6 + 2] + aabb[e * 6 + 5]
  }
  b.primCount = n
  b.nodeCount = 0
  if (n === 0) return
  b.nodeCount = 1
  b.parent[0] = -1
  buildNode(b, 0, 0, n, aabb)
}

/** Copies leaf `node`'s box into its prims' leafBox entries. */
export function copyLeafBox(b: Bvh, node: number): void {
  const B = b.bounds, o = node * 6, box = b.leafBox, f = b.first[node]
  for (let i = f; i < f + b.count[node]; i++) {
    const a = b.prims[i] * 6
    box[a] = B[o]; box[a + 1] = B[o + 1]; box[a + 2] = B[o + 2]; box[a + 3] = B[o + 3]; box[a + 4] = B[o + 4]; box[a + 5] = B[o + 5]
  }
}

/** Sets leaf `node`'s box to the box round prims [start, end) padded by b.margin. */
export function setLeafBounds(b: Bvh, node: number, start: number, end: number, aabb: Float64Array): void {
  const B = b.bounds, o = node * 6, prims = b.prims, m = b.margin
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity
  for (let i = start; i < end; i++) {
    const a = prims[i] * 6
    if (aabb[a] < x0) x0 = aabb[a]
    if (aabb[a + 1] < y0) y0 = aabb[a + 1]
    if (aabb[a + 2] < z0) z0 = aabb[a + 2]
    if (aabb[a + 3] > x1) x1 = aabb[a + 3]
    if (aabb[a + 4] > y1) y1 = aabb[a + 4]
    if (aabb[a + 5] > z1) z1 = aabb[a + 5]
  }
  B[o] = x0 - m; B[o + 1] = y0 - m; B[o + 2] = z0 - m; B[o + 3] = x1 + m; B[o + 4] = y1 + m; B[o + 5] = z1 + m
}

// An internal node's bounds: the box round its children's.
export function setUnionBounds(B: Float64Array, node: number, left: number): void {
  const o = node * 6, l = left * 6, r = l + 6
  B[o] = B[r] < B[l] ? B[r] : B[l]
  B[o + 1] = B[r + 1] < B[l + 1] ? B[r + 1] : B[l + 1]
  B[o + 2] = B[r + 2] < B[l + 2] ? B[r + 2] : B[l + 2]
  B[o + 3] = B[r + 3] > B[l + 3] ? B[r + 3] : B[l + 3]
  B[o + 4] = B[r + 4] > B[l + 4] ? B[r + 4] : B[l + 4]
  B[o + 5] = B[r + 5] > B[l + 5] ? B[r + 5] : B[l + 5]
}

// A build runs rarely (a membership change), so mostly as unoptimised code, which allocates for every
// number it works out: it reads as few as it can (leaves only get a pass over their prims, internal
// bounds come from the children, empty bins are skipped) and passes none as an argument or a result.
// No test checks this now: the race of test/perf/perf.test.ts no longer rebuilds (see bvh-refit.ts).

function buildNode(b: Bvh, node: number, start: number, end: number, aabb: Float64Array): void {
  const n = end - start
  if (n <= b.maxLeaf) {
    setLeafBounds(b, node, start, end, aabb)
    b.first[node] = start; b.count[node] = n
    for (let i = start; i < end; i++) {
      const e = b.prims[i]
      b.leafOf[i] = node
      b.slotOf[e] = i
      b.anchor[e * 3] = aabb[e * 6]; b.anchor[e * 3 + 1] = aabb[e * 6 + 1]; b.anchor[e * 3 + 2] = aabb[e * 6 + 2]
      b.anchorAt[e] = b.refits
    }
    copyLeafBox(b, node)
    setArea(b, node)
    return
  }
  const axis = centroidAxis(b, start, end)
  let mid = -1
  // a few prims split at the median of the widest centroid axis (binning them costs far more)
  if (b.sweep[1] > 0 && n > MEDIAN_SPLIT_MAX) {
    const split = binnedSplit(b, start, end, axis, aabb)
    if (split >= 0) {
      // partition by the bin index computed in binnedSplit (both sides non-empty by construction)
      const bins = b.binOf
      let i = start, j = end - 1
      while (i <= j) {
        if (bins[i] < split) i++
        else { swap(b, i, j); j-- }
      }
      if (i > start && i < end) mid = i
    }
  }
  if (mid < 0) { mid = start + (n >> 1); nthElement(b, start, end, mid, axis) }
  const left = b.nodeCount
  b.nodeCount += 2
  b.first[node] = left
  b.count[node] = 0
  b.parent[left] = node; b.parent[left + 1] = node
  buildNode(b, left, start, mid, aabb)
  buildNode(b, left + 1, mid, end, aabb)
  setUnionBounds(b.bounds, node, left)
  setArea(b, node)
}

/** b.area[node] = the surface area of node's box (0 for an empty one). */
export function setArea(b: Bvh, node: number): void {
  const B = b.bounds, o = node * 6
  const x = B[o + 3] - B[o], y = B[o + 4] - B[o + 1], z = B[o + 5] - B[o + 2]
  b.area[node] = x < 0 ? 0 : x * y + y * z + z * x
}

/** The axis of the widest centroid extent over prims [start, end); leaves that axis' low end and extent in b.sweep[0], b.sweep[1]. */
function centroidAxis(b: Bvh, start: number, end: number): number {
  const cent = b.cent
  let c0x = Infinity, c0y = Infinity, c0z = Infinity, c1x = -Infinity, c1y = -Infinity, c1z = -Infinity
  for (let i = start; i < end; i++) {
    const cx = cent[i * 3], cy = cent[i * 3 + 1], cz = cent[i * 3 + 2]
    if (cx < c0x) c0x = cx
    if (cx > c1x) c1x = cx
    if (cy < c0y) c0y = cy
    if (cy > c1y) c1y = cy
    if (cz < c0z) c0z = cz
    if (cz > c1z) c1z = cz
  }
  const ex = c1x - c0x, ey = c1y - c0y, ez = c1z - c0z
  const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2
  b.sweep[0] = axis === 0 ? c0x : axis === 1 ? c0y : c0z
  b.sweep[1] = axis === 0 ? ex : axis === 1 ? ey : ez
  return axis
}

/**
 * Best SAH split bin boundary (1..BINS-1) on `axis` (low end and extent in b.sweep[0], b.sweep[1]),
 * or −1 when none; leaves each prim's bin in b.binOf.
 */
function binnedSplit(b: Bvh, start: number, end: number, axis: number, aabb: Float64Array): number {
  const bmin = b.binMin, bmax = b.binMax, bcount = b.binCount, right = b.rightArea, bins = b.binOf
  // plain loops: TypedArray fill is a runtime call, which cost more than these 12-bin resets
  for (let k = 0; k < BINS; k++) bcount[k] = 0
  for (let m = 0; m < BINS * 3; m++) { bmin[m] = Infinity; bmax[m] = -Infinity }
  const lo = b.sweep[0], scale = BINS / b.sweep[1], cent = b.cent, prims = b.prims
  for (let i = start; i < end; i++) {
    let k = Math.floor((cent[i * 3 + axis] - lo) * scale)
    if (k >= BINS) k = BINS - 1
    bins[i] = k
    bcount[k]++
    const a = prims[i] * 6, m = k * 3
    let v = aabb[a]
    if (v < bmin[m]) bmin[m] = v
    v = aabb[a + 1]
    if (v < bmin[m + 1]) bmin[m + 1] = v
    v = aabb[a + 2]
    if (v < bmin[m + 2]) bmin[m + 2] = v
    v = aabb[a + 3]
    if (v > bmax[m]) bmax[m] = v
    v = aabb[a + 4]
    if (v > bmax[m + 1]) bmax[m + 1] = v
    v = aabb[a + 5]
    if (v > bmax[m + 2]) bmax[m + 2] = v
  }
  sweepCosts(b, b.rightArea, -1)
  sweepCosts(b, b.leftArea, 1)
  // the cheapest boundary that leaves both sides non-empty
  const n = end - start, left = b.leftArea
  let best = -1, bestCost = Infinity, cnt = 0
  for (let k = 1; k < BINS; k++) {
    cnt += bcount[k - 1]
    if (cnt === n) break
    if (cnt === 0) continue
    const cost = left[k] + right[k]
    if (cost < bestCost) { bestCost = cost; best = k }
  }
  return best
}

// out[k] = surface area × prim count of the bins on one side of boundary k (1..BINS-1): bins k..BINS-1
// for dir −1 (swept from the right), bins 0..k-1 for dir +1 (from the left). An empty bin changes
// neither, so its boundary repeats the previous figure.
function sweepCosts(b: Bvh, out: Float64Array, dir: number): void {
  const bmin = b.binMin, bmax = b.binMax, bcount = b.binCount
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity
  let cnt = 0
  const first = dir < 0 ? BINS - 1 : 1
  for (let k = first; k > 0 && k < BINS; k += dir) {
    const bin = dir < 0 ? k : k - 1
    if (bcount[bin] === 0) { out[k] = k === first ? 0 : out[k - dir]; continue }
    const m = bin * 3
    let v = bmin[m]
    if (v < x0) x0 = v
    v = bmin[m + 1]
    if (v < y0) y0 = v
    v = bmin[m + 2]
    if (v < z0) z0 = v
    v = bmax[m]
    if (v > x1) x1 = v
    v = bmax[m + 1]
    if (v > y1) y1 = v
    v = bmax[m + 2]
    if (v > z1) z1 = v
    cnt += bcount[bin]
    const x = x1 - x0, y = y1 - y0, z = z1 - z0
    out[k] = (x < 0 ? 0 : x * y + y * z + z * x) * cnt
  }
}

function swap(b: Bvh, i: number, j: number): void {
  const prims = b.prims, cent = b.cent, bins = b.binOf
  const t = prims[i]; prims[i] = prims[j]; prims[j] = t
  const k = bins[i]; bins[i] = bins[j]; bins[j] = k
  let s = cent[i * 3]; cent[i * 3] = cent[j * 3]; cent[j * 3] = s
  s = cent[i * 3 + 1]; cent[i * 3 + 1] = cent[j * 3 + 1]; cent[j * 3 + 1] = s
  s = cent[i * 3 + 2]; cent[i * 3 + 2] = cent[j * 3 + 2]; cent[j * 3 + 2] = s
}

// Quickselect so that [start, mid) ≤ [mid, end) on axis: the median fallback when binning cannot split.
function nthElement(b: Bvh, start: number, end: number, mid: number, axis: number): void {
  const cent = b.cent
  let lo = start, hi = end - 1
  while (lo < hi) {
    const pivot = cent[((lo + hi) >> 1) * 3 + axis]
    let i = lo, j = hi
    while (i <= j) {
      while (cent[i * 3 + axis] < pivot) i++
      while (cent[j * 3 + axis] > pivot) j--
      if (i <= j) { swap(b, i, j); i++; j-- }
    }
    if (mid <= j) hi = j
    else if (mid >= i) lo = i
    else return
  }
}
