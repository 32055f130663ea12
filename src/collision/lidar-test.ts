/** The exact test of one candidate along one ray, shared by every list and raster strategy. */
import { rayColliderRay } from './narrowphase'
import type { CollisionState } from './state'

/**
 * Distance along the world ray org[o..o+2] + t·dir[o..o+2] to collider `e` within tMax, or −1:
 * exactly rayColliderRay. A plane (the ground, tested by half of all rays) takes rayColliderRay's
 * own transform of the two local components rayPlane reads, and rayPlane's rule, without the rest
 * of the generic path. `ray` and `hit` are scratch.
 */
export function lidarTestCandidate(state: CollisionState, e: number, plane: boolean, org: Float64Array, dir: Float64Array, o: number,
  ray: Float64Array, tMax: number, hit: Float64Array): number {
  if (plane) {
    const C = state.Collider, P = C.position, R = C.rotation, r = 9 * e
    return lidarTestPlane(P[3 * e], P[3 * e + 1], P[3 * e + 2], R[r + 2], R[r + 5], R[r + 8], org, dir, o, tMax)
  }
  ray[0] = org[o]; ray[1] = org[o + 1]; ray[2] = org[o + 2]; ray[3] = dir[o]; ray[4] = dir[o + 1]; ray[5] = dir[o + 2]; ray[6] = tMax
  return rayColliderRay(state, e, ray, hit) ? hit[0] : -1
}

/**
 * lidarTestCandidate for a plane whose position (px, py, pz) and rotation's third column
 * (n2, n5, n8) the caller has read (hoisted out of a loop over rays): rayColliderRay's transform of
 * the two local components rayPlane reads, then rayPlane's rule (planeHitT).
 */
export function lidarTestPlane(px: number, py: number, pz: number, n2: number, n5: number, n8: number, org: Float64Array, dir: Float64Array, o: number, tMax: number): number {
  const wx = org[o] - px, wy = org[o + 1] - py, wz = org[o + 2] - pz
  return planeHitT(n2 * wx + n5 * wy + n8 * wz, n2 * dir[o] + n5 * dir[o + 1] + n8 * dir[o + 2], tMax)
}

/**
 * rayPlane's rule on plain numbers (local start height oz, local direction z dz): 0 when the start
 * is on or below the plane, −1 for a miss (dz ≥ 0, or beyond tMax), else t = −oz/dz — the same
 * operations in the same order, so the same bits (test/lidar/plane-rule.test.ts checks it against
 * rayPlane). Small enough for V8 to inline, so its doubles are never boxed, and without rayPlane's
 * round trip through arrays the ground (tested by half of all rays) costs about a third less.
 */
export function planeHitT(oz: number, dz: number, tMax: number): number {
  if (oz <= 0) return 0
  if (dz >= 0) return -1
  const t = -oz / dz
  return t > tMax ? -1 : t
}
