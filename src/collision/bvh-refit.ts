/**
 * Keeping a BVH current as its prims move: the refit pass, its rotations, and the relayout that
 * restores the node order a rotation may break (the node layout is described in bvh.ts).
 */
import { setLeafBounds, setUnionBounds, type Bvh } from './bvh'

/** Each internal node looks for a rotation once every ROTATE_EVERY = 2^ROTATE_SHIFT refits. */
const ROTATE_SHIFT = 4
const ROTATE_EVERY = 1 << ROTATE_SHIFT
/** One refit in RELAYOUT_EVERY (a power of two) may take rotations that break the node order, so the next one relays the tree out. */
const RELAYOUT_EVERY = 2

/**
 * Recomputes every node's bounds from the current aabb[] of its prims (children come after their
 * parent, so one reverse pass does it), and at one internal node in ROTATE_EVERY in turn swaps a child
 * with a grandchild, or two grandchildren, when that shrinks the tree (a rotation): the tree follows
 * its prims as they move instead of needing a rebuild.
 */
export function refitBvh(b: Bvh, aabb: Float64Array): void {
  if (!b.ordered) relayout(b)
  const B = b.bounds, first = b.first, count = b.count
  const turn = b.refits & (ROTATE_EVERY - 1)
  // (shifted by one turn per round of turns, so every node's turn comes free in its turn)
  b.mayReorder = ((b.refits + (b.refits >> ROTATE_SHIFT)) & (RELAYOUT_EVERY - 1)) === 0
  b.refits++
  const prims = b.prims
  for (let node = b.nodeCount - 1; node >= 0; node--) {
    const c = count[node]
    if (c === 1) { copyBounds(B, node * 6, aabb, prims[first[node]] * 6); continue }
    if (c > 0) { setLeafBounds(b, node, first[node], first[node] + c, aabb); continue }
    setUnionBounds(B, node, first[node])
    if ((node & (ROTATE_EVERY - 1)) === turn) rotate(b, first[node])
  }
}

// A one-prim leaf's bounds are its prim's box (setLeafBounds' result for any box without NaN).
function copyBounds(B: Float64Array, o: number, aabb: Float64Array, a: number): void {
  B[o] = aabb[a]; B[o + 1] = aabb[a + 1]; B[o + 2] = aabb[a + 2]; B[o + 3] = aabb[a + 3]; B[o + 4] = aabb[a + 4]; B[o + 5] = aabb[a + 5]
}

// Renumbers the nodes as a build lays them out (a node, then its children pair, then the left
// child's subtree, then the right one's), so every node's children come after it again. Only the
// shape moves: the refit that follows rewrites every node's bounds.
function relayout(b: Bvh): void {
  const first = b.first, count = b.count, nextFirst = b.nextFirst, nextCount = b.nextCount, todo = b.todo, todoAt = b.todoAt
  let sp = 1, next = 1
  todo[0] = 0; todoAt[0] = 0
  while (sp > 0) {
    sp--
    const old = todo[sp], at = todoAt[sp], c = count[old]
    nextCount[at] = c
    if (c > 0) { nextFirst[at] = first[old]; continue }
    const l = first[old]
    nextFirst[at] = next
    todo[sp] = l + 1; todoAt[sp] = next + 1
    todo[sp + 1] = l; todoAt[sp + 1] = next
    sp += 2
    next += 2
  }
  b.first = nextFirst; b.nextFirst = first
  b.count = nextCount; b.nextCount = count
  b.ordered = true
}

// The rotations at the children pair (left, left + 1) of an internal node: with R internal, L may swap
// with either child of R (R then bounds L and the other one); with L internal, R may swap with either
// child of L; with both internal, a child of L may swap with a child of R. Applies the one that
// shrinks the changed children's areas most, if any does. Swapping two nodes' records swaps their
// whole subtrees; a swap that leaves a node after its children is taken only when b.mayReorder, and
// then the next refit relays the tree out first.
// Numbers go through b.areas, not arguments or results, and every array read and sum comes before the
// branches that pick a rotation (a branch first taken mid-race would otherwise throw the optimised code
// away): the steady and frames guards of test/perf/perf.test.ts count every boxed number.
function rotate(b: Bvh, left: number): void {
  const B = b.bounds, first = b.first, count = b.count, a = b.areas
  const right = left + 1
  const rl = count[right] === 0 ? first[right] : -1, ll = count[left] === 0 ? first[left] : -1
  if (rl < 0 && ll < 0) return // two leaves: no grandchild to swap with
  unionArea(B, left, left, a, 0)
  unionArea(B, right, right, a, 1)
  const ownL = a[0], ownR = a[1]
  const rr = rl + 1, lr = ll + 1, free = b.mayReorder
  let best = 0, from = -1, to = -1
  if (rl >= 0) {
    unionArea(B, left, rr, a, 0)
    unionArea(B, left, rl, a, 1)
    const toRl = ownR - a[0], toRr = ownR - a[1], okRl = free || !breaksOrder(b, left, rl), okRr = free || !breaksOrder(b, left, rr)
    if (toRl > best && okRl) { best = toRl; from = left; to = rl }
    if (toRr > best && okRr) { best = toRr; from = left; to = rr }
  }
  if (ll >= 0) {
    unionArea(B, right, lr, a, 0)
    unionArea(B, right, ll, a, 1)
    const toLl = ownL - a[0], toLr = ownL - a[1], okLl = free || !breaksOrder(b, right, ll), okLr = free || !breaksOrder(b, right, lr)
    if (toLl > best && okLl) { best = toLl; from = right; to = ll }
    if (toLr > best && okLr) { best = toLr; from = right; to = lr }
  }
  if (rl >= 0 && ll >= 0) {
    // LL <-> RL: L bounds RL and LR, R bounds LL and RR; LL <-> RR: L bounds RR and LR, R bounds RL and LL
    unionArea(B, rl, lr, a, 0)
    unionArea(B, ll, rr, a, 1)
    unionArea(B, rr, lr, a, 2)
    unionArea(B, rl, ll, a, 3)
    const own = ownL + ownR
    const llRl = own - a[0] - a[1], llRr = own - a[2] - a[3], okLlRl = free || !breaksOrder(b, ll, rl), okLlRr = free || !breaksOrder(b, ll, rr)
    if (llRl > best && okLlRl) { best = llRl; from = ll; to = rl }
    if (llRr > best && okLlRr) { best = llRr; from = ll; to = rr }
  }
  if (from < 0) return
  if (breaksOrder(b, from, to)) b.ordered = false
  swapNodes(b, from, to)
  if (count[left] === 0) setUnionBounds(B, left, first[left])
  if (count[right] === 0) setUnionBounds(B, right, first[right])
}

/** Whether swapping nodes i and j puts a node after its children: the one that moves up the arrays is internal and its children come before its new place. */
function breaksOrder(b: Bvh, i: number, j: number): boolean {
  const lo = i < j ? i : j, hi = i < j ? j : i
  return b.count[lo] === 0 && b.first[lo] < hi
}

/** out[k] = the surface area of the box around nodes i and j. */
function unionArea(B: Float64Array, i: number, j: number, out: Float64Array, k: number): void {
  const a = i * 6, c = j * 6
  const x = (B[a + 3] > B[c + 3] ? B[a + 3] : B[c + 3]) - (B[a] < B[c] ? B[a] : B[c])
  const y = (B[a + 4] > B[c + 4] ? B[a + 4] : B[c + 4]) - (B[a + 1] < B[c + 1] ? B[a + 1] : B[c + 1])
  const z = (B[a + 5] > B[c + 5] ? B[a + 5] : B[c + 5]) - (B[a + 2] < B[c + 2] ? B[a + 2] : B[c + 2])
  out[k] = x < 0 ? 0 : x * y + y * z + z * x
}

function swapNodes(b: Bvh, i: number, j: number): void {
  const B = b.bounds, first = b.first, count = b.count
  for (let k = 0; k < 6; k++) { const t = B[i * 6 + k]; B[i * 6 + k] = B[j * 6 + k]; B[j * 6 + k] = t }
  let t = first[i]; first[i] = first[j]; first[j] = t
  t = count[i]; count[i] = count[j]; count[j] = t
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
