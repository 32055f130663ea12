/**
 * Ground queries for wheels: the colliders a car may stand on near it (gathered once per host
 * step from both trees: not planes, which every query tests, and never a car's chassis), and the
 * closest hit of a wheel's ray among the planes and those candidates: the same narrowphase and tie
 * rule as castRay, so the same hit castRay would give without the chassis.
 */
import type { CollisionState } from './state'
import { broadphaseStale, GROUND_LIST, updateBroadphase } from './state'
import type { Bvh } from './bvh'
import { castPlanes } from './query'
import { rayColliderRay } from './narrowphase'
import { heightfieldBelow } from './heightfield'
import { ColliderKind } from '../../components/collider'

/** The box a gather looks in: [minX, minY, minZ, maxX, maxY, maxZ]. */
export const groundBox = new Float64Array(6)

/**
 * Writes into `out` (from index 0; it must hold every collider) the colliders in `mask` wheels may
 * stand on whose boxes meet groundBox, in tree order; returns how many. No allocation.
 */
export function gatherGround(state: CollisionState, mask: number, out: Int32Array): number {
  if (state.groundBodies === 0) return 0
  const K = state.Collider, group = K.group, ground = state.groundBody
  const q = groundBox
  let n = 0
  if (state.groundBodies <= GROUND_LIST) {
    // a few of them (a terrain, some ramps and kerbs): each one's box (always current: a pose write updates it)
    if (state.groundListDirty) listGround(state)
    const list = state.groundList, box = K.aabb
    for (let k = 0; k < state.groundBodies; k++) {
      const e = list[k], o = e * 6
      if ((group[e] & mask) === 0 || box[o] > q[3] || box[o + 3] < q[0] || box[o + 1] > q[4] || box[o + 4] < q[1] || box[o + 2] > q[5] || box[o + 5] < q[2]) continue
      out[n++] = e
    }
    return n
  }
  if (broadphaseStale(state)) updateBroadphase(state)
  for (let tree = 0; tree < 2; tree++) {
    const b: Bvh = tree === 0 ? state.staticTree : state.dynamicTree
    if (b.nodeCount === 0) continue
    const B = b.bounds, first = b.first, count = b.count, prims = b.prims, stack = b.stack
    let sp = 0
    stack[sp++] = 0
    while (sp > 0) {
      const node = stack[--sp]
      const o = node * 6
      if (B[o] > q[3] || B[o + 3] < q[0] || B[o + 1] > q[4] || B[o + 4] < q[1] || B[o + 2] > q[5] || B[o + 5] < q[2]) continue
      const c = count[node]
      if (c === 0) { stack[sp++] = first[node]; stack[sp++] = first[node] + 1; continue }
      for (let k = first[node]; k < first[node] + c; k++) {
        const e = prims[k]
        if (ground[e] === 1 && (group[e] & mask) !== 0) out[n++] = e
      }
    }
  }
  return n
}

// Lists the colliders wheels may stand on in ascending id order (at most GROUND_LIST of them).
function listGround(state: CollisionState): void {
  let n = 0
  const ground = state.groundBody, list = state.groundList
  for (let e = 0; e <= state.maxEid && n < list.length; e++) if (ground[e] === 1) list[n++] = e
  state.groundListDirty = false
}

/**
 * The closest hit of the ray `ray` = [ox, oy, oz, dx, dy, dz, tMax] (d unit) among the planes in
 * `mask` and the `n` gathered colliders `cands` (already of the mask), or −1; ray[6] ends as the
 * best t, `out` holds t and the normal (facing the ray's start) as castRay's does, with its tie
 * rule. A gathered solid the ray starts inside (a wall taller than where a wheel's ray starts) is
 * not ground under the wheel and is passed over; a plane the ray starts under still is (t = 0).
 * A ray straight down (an axle's, a car being placed) onto a heightfield whose up axis is the
 * world's reads the surface under it directly (heightfieldDown).
 */
export function castGround(state: CollisionState, ray: Float64Array, mask: number, cands: Int32Array, n: number, out: Float64Array): number {
  let best = castPlanes(state, ray, -1, -1, mask, out)
  const h = state.hitScratch
  const kind = state.Collider.kind, R = state.Collider.rotation
  const down = ray[3] === 0 && ray[4] === 0 && ray[5] === -1
  for (let k = 0; k < n; k++) {
    const e = cands[k]
    if (down && kind[e] === ColliderKind.heightfield && R[e * 9 + 8] === 1 ? !heightfieldDown(state, e, ray, h) : !rayColliderRay(state, e, ray, h)) continue
    const t = h[0]
    if (t === 0 || (best >= 0 && (t > ray[6] || (t === ray[6] && e > best)))) continue
    ray[6] = t
    out[0] = t; out[1] = h[1]; out[2] = h[2]; out[3] = h[3]
    best = e
  }
  return best
}

/**
 * True when castGround's answer for a ray straight down among `cands[0..n)` is heightfieldDown's
 * for cands[0]: no planes, and one candidate, a heightfield whose up axis is the world's (the
 * usual terrain world). Its hit is then heightfieldDown's, unless at t = 0 (castGround passes over it).
 */
export function loneHeightfield(state: CollisionState, cands: Int32Array, n: number): boolean {
  if (n !== 1 || state.planeCount !== 0) return false
  const e = cands[0]
  return state.Collider.kind[e] === ColliderKind.heightfield && state.Collider.rotation[e * 9 + 8] === 1
}

/**
 * The ray `ray` straight down onto heightfield `e`, whose up axis is the world's: the surface at
 * its start's xy (heightfieldBelow), a hit when it lies within the ray (t in [0, ray[6]]); `out`
 * as rayColliderRay's. No ray set-up, box clip or cell walk.
 */
export function heightfieldDown(state: CollisionState, e: number, ray: Float64Array, out: Float64Array): boolean {
  const K = state.Collider, slot = K.heightfield[e]
  const hf = slot >= 0 ? state.heightfields[slot] : undefined
  if (hf === undefined) return false
  const P = K.position, R = K.rotation, p = e * 3, r = e * 9, L = state.localRay
  const wx = ray[0] - P[p], wy = ray[1] - P[p + 1]
  L[0] = R[r] * wx + R[r + 3] * wy; L[1] = R[r + 1] * wx + R[r + 4] * wy
  if (!heightfieldBelow(hf, L, out)) return false
  const t = ray[2] - P[p + 2] - out[0]
  if (!(t >= 0 && t <= ray[6])) return false
  const nx = out[1], ny = out[2], nz = out[3]
  out[0] = t
  out[1] = R[r] * nx + R[r + 1] * ny + R[r + 2] * nz
  out[2] = R[r + 3] * nx + R[r + 4] * ny + R[r + 5] * nz
  out[3] = R[r + 6] * nx + R[r + 7] * ny + R[r + 8] * nz
  out[4] = -1
  return true
}
