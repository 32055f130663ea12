/**
 * Keeping a BVH current as its prims move (the node layout is described in bvh.ts). Leaf boxes are
 * padded (b.margin, and the prim's recent motion ahead of it), so a prim that moves a little costs
 * one containment test; a leaf whose prim left its box is padded afresh and its ancestors grow to
 * hold it. Boxes never shrink on the way up: a node shrinks round its children at its turn, one
 * refit in ROTATE_EVERY, when it also looks for a rotation, which keeps the tree close to a fresh
 * build without rebuilds.
 */
import { copyLeafBox, setArea, setLeafBounds, type Bvh } from './bvh'

/** A leaf box set afresh reaches this many refits' worth of its prim's recent motion ahead of it (beyond the margin). */
const LOOKAHEAD = 16
/** …but at most this far (m): a prim that jumped is not expected to keep jumping. */
const MAX_AHEAD = 10

/** Each internal node has its turn one refit in ROTATE_EVERY = 2^ROTATE_EVERY_LOG2. */
const ROTATE_EVERY_LOG2 = 4
const ROTATE_EVERY = 1 << ROTATE_EVERY_LOG2

/**
 * Brings the tree round its prims' current aabb[] boxes: each prim outside its leaf box gets its
 * leaf padded afresh, and the leaf's ancestors grow to hold it up to the first that already does.
 * Then the internal nodes of this refit's turn shrink round their children and swap a child with a
 * grandchild, or two grandchildren, when that shrinks the tree (a rotation): the tree follows its
 * prims instead of needing a rebuild.
 */
export function refitBvh(b: Bvh, aabb: Float64Array): void {
  const members = b.members, box = b.leafBox, slotOf = b.slotOf, B = b.bounds, parent = b.parent
  b.refits++
  // by entity id, so both boxes sit at the same place in their arrays
  for (let i = 0; i < b.primCount; i++) {
    const e = members[i], a = e * 6
    if (aabb[a] >= box[a] && aabb[a + 1] >= box[a + 1] && aabb[a + 2] >= box[a + 2] && aabb[a + 3] <= box[a + 3] && aabb[a + 4] <= box[a + 4] && aabb[a + 5] <= box[a + 5]) continue
    // the leaf padded afresh, its ancestors grown until one already holds it. Inline in this loop,
    // which runs every refit: a function of its own runs too rarely in a small race to be optimised
    // early, and unoptimised it allocates for every number (test/perf/perf.test.ts "race frames")
    const leaf = b.leafOf[slotOf[e]]
    b.leavesPadded++
    if (b.count[leaf] === 1) padLeaf(b, leaf, e, aabb)
    else { setLeafBounds(b, leaf, b.first[leaf], b.first[leaf] + b.count[leaf], aabb); copyLeafBox(b, leaf) }
    setArea(b, leaf)
    for (let p = parent[leaf]; p >= 0 && grewToHold(B, p, leaf); p = parent[p]) { b.nodesGrown++; setArea(b, p) }
  }
  // this refit's turn: one ROTATE_EVERY-th of the nodes, side by side in the node arrays (children
  // are laid out near their parents), so the pass reads whole cache lines rather than one node of each
  const count = b.count, first = b.first, block = (b.nodeCount + ROTATE_EVERY - 1) >> ROTATE_EVERY_LOG2
  const from = (b.refits & (ROTATE_EVERY - 1)) * block, to = from + block < b.nodeCount ? from + block : b.nodeCount
  for (let node = from; node < to; node++) {
    if (count[node] !== 0) continue
    if (unionChanged(b.bounds, node, first[node])) setArea(b, node)
    rotate(b, first[node])
  }
}

// Grows node p's box to hold node n's; whether it had to.
function grewToHold(B: Float64Array, p: number, n: number): boolean {
  const o = p * 6, l = n * 6
  if (B[l] >= B[o] && B[l + 1] >= B[o + 1] && B[l + 2] >= B[o + 2] && B[l + 3] <= B[o + 3] && B[l + 4] <= B[o + 4] && B[l + 5] <= B[o + 5]) return false
  if (B[l] < B[o]) B[o] = B[l]
  if (B[l + 1] < B[o + 1]) B[o + 1] = B[l + 1]
  if (B[l + 2] < B[o + 2]) B[o + 2] = B[l + 2]
  if (B[l + 3] > B[o + 3]) B[o + 3] = B[l + 3]
  if (B[l + 4] > B[o + 4]) B[o + 4] = B[l + 4]
  if (B[l + 5] > B[o + 5]) B[o + 5] = B[l + 5]
  return true
}

// Sets one-prim leaf `node`'s box (prim e) round the prim's box padded by the margin, and
// stretched along each axis by its motion per refit since the box was last set, LOOKAHEAD times.
function padLeaf(b: Bvh, node: number, e: number, aabb: Float64Array): void {
  const B = b.bounds, box = b.leafBox, o = node * 6, a = e * 6, anchor = b.anchor, s = e * 3, m = b.margin
  const steps = b.refits - b.anchorAt[e]
  const ahead = steps > 0 ? LOOKAHEAD / steps : 0
  for (let i = 0; i < 3; i++) {
    const lo = aabb[a + i], hi = aabb[a + 3 + i]
    let d = (lo - anchor[s + i]) * ahead
    d = d > MAX_AHEAD ? MAX_AHEAD : d < -MAX_AHEAD ? -MAX_AHEAD : d
    anchor[s + i] = lo
    const x0 = lo - m + (d < 0 ? d : 0), x1 = hi + m + (d > 0 ? d : 0)
    // a box with NaN in it holds nothing (as setLeafBounds leaves it)
    if (x0 <= x1) { B[o + i] = x0; B[o + 3 + i] = x1 } else { B[o + i] = Infinity; B[o + 3 + i] = -Infinity }
    box[a + i] = B[o + i]; box[a + 3 + i] = B[o + 3 + i]
  }
  b.anchorAt[e] = b.refits
}

// Sets node's box round its children (left, left + 1); whether any bound changed.
function unionChanged(B: Float64Array, node: number, left: number): boolean {
  const o = node * 6, l = left * 6, r = l + 6
  const x0 = B[r] < B[l] ? B[r] : B[l], y0 = B[r + 1] < B[l + 1] ? B[r + 1] : B[l + 1], z0 = B[r + 2] < B[l + 2] ? B[r + 2] : B[l + 2]
  const x1 = B[r + 3] > B[l + 3] ? B[r + 3] : B[l + 3], y1 = B[r + 4] > B[l + 4] ? B[r + 4] : B[l + 4], z1 = B[r + 5] > B[l + 5] ? B[r + 5] : B[l + 5]
  if (x0 === B[o] && y0 === B[o + 1] && z0 === B[o + 2] && x1 === B[o + 3] && y1 === B[o + 4] && z1 === B[o + 5]) return false
  B[o] = x0; B[o + 1] = y0; B[o + 2] = z0; B[o + 3] = x1; B[o + 4] = y1; B[o + 5] = z1
  return true
}

// The rotations at the children pair (left, left + 1) of an internal node: with R internal, L may swap
// with either child of R (R then bounds L and the other one); with L internal, R may swap with either
// child of L; with both internal, a child of L may swap with a child of R. Applies the one that
// shrinks the changed children's areas most, if any does. Swapping two nodes' records swaps their
// whole subtrees. A box round two nodes is at least as large as either, so a swap whose bound from the
// kept areas gains nothing is not worked out.
// Numbers go through b.areas, not arguments or results: the steady and frames guards of
// test/perf/perf.test.ts count every boxed number.
function rotate(b: Bvh, left: number): void {
  const B = b.bounds, first = b.first, count = b.count, area = b.area, a = b.areas
  const right = left + 1
  const rl = count[right] === 0 ? first[right] : -1, ll = count[left] === 0 ? first[left] : -1
  if (rl < 0 && ll < 0) return // two leaves: no grandchild to swap with
  const ownL = area[left], ownR = area[right]
  let best = 0, from = -1, to = -1
  // L <-> RL leaves R round L and RR (and L <-> RR round RL); R <-> LL, R <-> LR alike
  for (let side = 0; side < 2; side++) {
    const stay = side === 0 ? left : right, g = side === 0 ? rl : ll, own = side === 0 ? ownR : ownL
    if (g < 0 || own - area[stay] <= best) continue
    unionArea(B, stay, g + 1, a, 0)
    unionArea(B, stay, g, a, 1)
    const toFirst = own - a[0], toSecond = own - a[1]
    if (toFirst > best) { best = toFirst; from = stay; to = g }
    if (toSecond > best) { best = toSecond; from = stay; to = g + 1 }
  }
  if (rl >= 0 && ll >= 0) {
    // LL <-> RL: L bounds RL and LR, R bounds LL and RR; LL <-> RR: L bounds RR and LR, R bounds RL and LL
    const rr = rl + 1, lr = ll + 1, own = ownL + ownR
    const big = (area[rl] > area[rr] ? area[rl] : area[rr]) + (area[ll] > area[lr] ? area[ll] : area[lr])
    if (own - big > best) {
      unionArea(B, rl, lr, a, 0)
      unionArea(B, ll, rr, a, 1)
      unionArea(B, rr, lr, a, 2)
      unionArea(B, rl, ll, a, 3)
      const llRl = own - a[0] - a[1], llRr = own - a[2] - a[3]
      if (llRl > best) { best = llRl; from = ll; to = rl }
      if (llRr > best) { best = llRr; from = ll; to = rr }
    }
  }
  if (from < 0) return
  swapNodes(b, from, to)
  if (count[left] === 0) { unionChanged(B, left, first[left]); setArea(b, left) }
  if (count[right] === 0) { unionChanged(B, right, first[right]); setArea(b, right) }
}

/** out[k] = the surface area of the box around nodes i and j. */
function unionArea(B: Float64Array, i: number, j: number, out: Float64Array, k: number): void {
  const a = i * 6, c = j * 6
  const x = (B[a + 3] > B[c + 3] ? B[a + 3] : B[c + 3]) - (B[a] < B[c] ? B[a] : B[c])
  const y = (B[a + 4] > B[c + 4] ? B[a + 4] : B[c + 4]) - (B[a + 1] < B[c + 1] ? B[a + 1] : B[c + 1])
  const z = (B[a + 5] > B[c + 5] ? B[a + 5] : B[c + 5]) - (B[a + 2] < B[c + 2] ? B[a + 2] : B[c + 2])
  out[k] = x < 0 ? 0 : x * y + y * z + z * x
}

// Swaps the records of nodes i and j (neither an ancestor of the other), and so their subtrees.
function swapNodes(b: Bvh, i: number, j: number): void {
  const B = b.bounds, first = b.first, count = b.count
  for (let k = 0; k < 6; k++) { const t = B[i * 6 + k]; B[i * 6 + k] = B[j * 6 + k]; B[j * 6 + k] = t }
  let t = first[i]; first[i] = first[j]; first[j] = t
  t = count[i]; count[i] = count[j]; count[j] = t
  const s = b.area[i]; b.area[i] = b.area[j]; b.area[j] = s
  adopt(b, i)
  adopt(b, j)
}

// Points the children (or the prim slots) of the record now at `node` back at it.
function adopt(b: Bvh, node: number): void {
  const f = b.first[node], c = b.count[node]
  if (c === 0) { b.parent[f] = node; b.parent[f + 1] = node; return }
  for (let k = f; k < f + c; k++) b.leafOf[k] = node
}

/** Sum of the surface areas of the internal nodes (the SAH traversal cost, up to a constant). */
export function treeCost(b: Bvh): number {
  const B = b.bounds, count = b.count
  let s = 0
  for (let node = 0; node < b.nodeCount; node++) {
    if (count[node] > 0) continue
    const o = node * 6
    const x = B[o + 3] - B[o], y = B[o + 4] - B[o + 1], z = B[o + 5] - B[o + 2]
    s += x < 0 ? 0 : x * y + y * z + z * x
  }
  return s
}
