/** The exact test of one candidate along one ray, shared by every list and raster strategy. */
import { ColliderKind } from '../../components/collider'
import { rayBox, rayCapsule, rayColliderRay, rayCylinder, raySphere } from '../collision/narrowphase'
import type { CollisionState } from '../collision/state'

/**
 * Tests collider `e` along the world ray org[o..o+2] + t·dir[o..o+2] within tMax = ray[6] (the
 * caller sets it): exactly rayColliderRay. True on a hit, its distance then in hit[0] (and, for any
 * collider but a plane, rayColliderRay's world normal in hit[1..3]). A plane (the ground, tested
 * by half of all rays) takes rayColliderRay's own transform of the two local components rayPlane
 * reads, and rayPlane's rule, without the rest of the generic path. Numbers go in and out through
 * `ray` and `hit`, so a call allocates nothing (test/lidar/alloc.test.ts). `ray` is scratch.
 */
export function lidarTestCandidate(state: CollisionState, e: number, plane: boolean, org: Float64Array, dir: Float64Array, o: number,
  ray: Float64Array, hit: Float64Array): boolean {
  if (plane) {
    const C = state.Collider, P = C.position, R = C.rotation, r = 9 * e
    const t = lidarTestPlane(P[3 * e], P[3 * e + 1], P[3 * e + 2], R[r + 2], R[r + 5], R[r + 8], org, dir, o, ray[6])
    hit[0] = t
    return t >= 0
  }
  ray[0] = org[o]; ray[1] = org[o + 1]; ray[2] = org[o + 2]; ray[3] = dir[o]; ray[4] = dir[o + 1]; ray[5] = dir[o + 2]
  return rayColliderRay(state, e, ray, hit)
}

/**
 * Puts the ray start org[o..o+2] in collider e's frame into L[0..2], exactly as rayColliderRay
 * does (local = Rᵀ·(start − position)): done once per candidate when every ray shares the start.
 */
export function lidarLocalStart(state: CollisionState, e: number, org: Float64Array, o: number, L: Float64Array): void {
  const C = state.Collider, P = C.position, R = C.rotation, r = 9 * e
  const wx = org[o] - P[3 * e], wy = org[o + 1] - P[3 * e + 1], wz = org[o + 2] - P[3 * e + 2]
  L[0] = R[r] * wx + R[r + 3] * wy + R[r + 6] * wz; L[1] = R[r + 1] * wx + R[r + 4] * wy + R[r + 7] * wz; L[2] = R[r + 2] * wx + R[r + 5] * wy + R[r + 8] * wz
}

/**
 * rayColliderRay's distance for a sphere, box, capsule or cylinder e (`kind`), with the local start
 * already in L[0..2] (lidarLocalStart) and tMax in L[6]: the same transform of the direction
 * dir[o..o+2] and the same shape test, so the same t, but no normal (the lidar reads only t) and
 * no per-ray start transform. Returns t, or −1 for a miss. `hit` is scratch.
 */
export function lidarTestShape(state: CollisionState, e: number, kind: number, dir: Float64Array, o: number, L: Float64Array, hit: Float64Array): number {
  const C = state.Collider, R = C.rotation, r = 9 * e, dx = dir[o], dy = dir[o + 1], dz = dir[o + 2]
  L[3] = R[r] * dx + R[r + 3] * dy + R[r + 6] * dz; L[4] = R[r + 1] * dx + R[r + 4] * dy + R[r + 7] * dz; L[5] = R[r + 2] * dx + R[r + 5] * dy + R[r + 8] * dz
  const p = C.params, q = 4 * e
  const res = kind === ColliderKind.sphere ? raySphere(L, p, q, hit) : kind === ColliderKind.box ? rayBox(L, p, q, hit)
    : kind === ColliderKind.capsule ? rayCapsule(L, p, q, hit) : rayCylinder(L, p, q, hit)
  // narrowphase results: 0 miss, 2 start inside (t = 0), else hit[0]
  return res === 0 ? -1 : res === 2 ? 0 : hit[0]
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
 * rayPlane), on numbers instead of rayPlane's arrays.
 */
export function planeHitT(oz: number, dz: number, tMax: number): number {
  if (oz <= 0) return 0
  if (dz >= 0) return -1
  const t = -oz / dz
  return t > tMax ? -1 : t
}
