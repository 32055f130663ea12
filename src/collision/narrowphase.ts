/**
 * Exact ray–collider intersection, in f64. rayCollider is THE per-collider test: rayTest and the
 * lidar both call it, so their hits agree bit for bit. The ray is moved into the shape's local
 * frame with the stored rotation (local = Rᵀ·(world − position)), intersected there, and the
 * normal rotated back. Rules: hits need t in [0, tMax] (both ends included); a tangent ray hits;
 * solid shapes (all but the heightfield and the mesh) hit at t = 0 when the ray starts inside or on the surface,
 * and then report normal = −direction (there is no entry face).
 * Hot paths pass a ray as one Float64Array record [ox, oy, oz, dx, dy, dz, tMax].
 */
import { ColliderKind } from '../../components/collider'
import type { CollisionState } from './state'
import { rayHeightfield } from './heightfield'
import { rayMesh } from './mesh'

const MISS = 0, HIT = 1, INSIDE = 2

/**
 * Closest hit of the world ray o + t·d (d unit length), t ∈ [0, tMax], with collider `eid`.
 * On a hit writes t into out[0], the world unit normal into out[1..3] and the triangle's index
 * into out[4] (−1 for any shape but a mesh; `out` holds 5 numbers), returns true; on a miss
 * returns false and leaves `out` as it may (scratch). Does not look at groups or ids.
 */
export function rayCollider(state: CollisionState, eid: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMax: number, out: Float64Array): boolean {
  const ray = state.argRay
  ray[0] = ox; ray[1] = oy; ray[2] = oz; ray[3] = dx; ray[4] = dy; ray[5] = dz; ray[6] = tMax
  return rayColliderRay(state, eid, ray, out)
}

/** rayCollider with the ray in `ray` = [ox, oy, oz, dx, dy, dz, tMax] (same results). */
export function rayColliderRay(state: CollisionState, eid: number, ray: Float64Array, out: Float64Array): boolean {
  const C = state.Collider
  const kind = C.kind[eid]
  if (kind === ColliderKind.none) return false
  const P = C.position, R = C.rotation, p = C.params, L = state.localRay
  const r = eid * 9, q = eid * 4
  const dx = ray[3], dy = ray[4], dz = ray[5]
  const wx = ray[0] - P[eid * 3], wy = ray[1] - P[eid * 3 + 1], wz = ray[2] - P[eid * 3 + 2]
  const r0 = R[r], r1 = R[r + 1], r2 = R[r + 2], r3 = R[r + 3], r4 = R[r + 4], r5 = R[r + 5], r6 = R[r + 6], r7 = R[r + 7], r8 = R[r + 8]
  L[0] = r0 * wx + r3 * wy + r6 * wz; L[1] = r1 * wx + r4 * wy + r7 * wz; L[2] = r2 * wx + r5 * wy + r8 * wz
  L[3] = r0 * dx + r3 * dy + r6 * dz; L[4] = r1 * dx + r4 * dy + r7 * dz; L[5] = r2 * dx + r5 * dy + r8 * dz
  L[6] = ray[6]
  let res = MISS
  switch (kind) {
    case ColliderKind.sphere: res = raySphere(L, p, q, out); break
    case ColliderKind.box: res = rayBox(L, p, q, out); break
    case ColliderKind.capsule: res = rayCapsule(L, p, q, out); break
    case ColliderKind.cylinder: res = rayCylinder(L, p, q, out); break
    case ColliderKind.plane: res = rayPlane(L, out); break
    case ColliderKind.heightfield: {
      const slot = C.heightfield[eid]
      const hf = slot >= 0 ? state.heightfields[slot] : undefined
      res = hf !== undefined && rayHeightfield(hf, L, out) ? HIT : MISS
      break
    }
    case ColliderKind.mesh: {
      const slot = C.mesh[eid]
      const m = slot >= 0 ? state.meshes[slot] : undefined
      const A = state.anchor
      L[10] = A[3]
      if (A[3] === 1) {
        // the rays' shared anchor in the mesh's frame, as the start is moved there
        const ax = A[0] - P[eid * 3], ay = A[1] - P[eid * 3 + 1], az = A[2] - P[eid * 3 + 2]
        L[7] = r0 * ax + r3 * ay + r6 * az; L[8] = r1 * ax + r4 * ay + r7 * az; L[9] = r2 * ax + r5 * ay + r8 * az
      }
      res = m !== undefined && rayMesh(m, L, out) ? HIT : MISS
      break
    }
  }
  // the triangle hit (a mesh's rayMesh wrote it), else −1
  if (kind !== ColliderKind.mesh) out[4] = -1
  if (res === MISS) return false
  if (res === INSIDE) { out[0] = 0; out[1] = -dx; out[2] = -dy; out[3] = -dz; return true }
  const nx = out[1], ny = out[2], nz = out[3]
  out[1] = r0 * nx + r1 * ny + r2 * nz
  out[2] = r3 * nx + r4 * ny + r5 * nz
  out[3] = r6 * nx + r7 * ny + r8 * nz
  return true
}

/** Local sphere of radius p[q] at the origin; L = local ray [o, d, tMax]. */
export function raySphere(L: Float64Array, p: Float64Array, q: number, out: Float64Array): number {
  return sphereAt(L[0], L[1], L[2], L[3], L[4], L[5], p[q], L[6], out)
}

// The sphere test on plain numbers, shared with the capsule.
function sphereAt(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, rad: number, tMax: number, out: Float64Array): number {
  const c = ox * ox + oy * oy + oz * oz - rad * rad
  if (c <= 0) return INSIDE
  const b = ox * dx + oy * dy + oz * dz
  if (b >= 0) return MISS
  const a = dx * dx + dy * dy + dz * dz
  // b² − a·c written as a·r² − |o × d|² (Lagrange), which keeps precision for far rays.
  const cx = oy * dz - oz * dy, cy = oz * dx - ox * dz, cz = ox * dy - oy * dx
  const disc = a * rad * rad - (cx * cx + cy * cy + cz * cz)
  if (disc < 0) return MISS
  const t = c / (-b + Math.sqrt(disc)) // the near root in its cancellation-free form
  if (t > tMax) return MISS
  out[0] = t
  out[1] = (ox + t * dx) / rad; out[2] = (oy + t * dy) / rad; out[3] = (oz + t * dz) / rad
  return HIT
}

/** Local box of half extents p[q..q+2] centred at the origin (slab test); L = local ray. */
export function rayBox(L: Float64Array, p: Float64Array, q: number, out: Float64Array): number {
  const ox = L[0], oy = L[1], oz = L[2], dx = L[3], dy = L[4], dz = L[5], tMax = L[6]
  const hx = p[q], hy = p[q + 1], hz = p[q + 2]
  if (Math.abs(ox) <= hx && Math.abs(oy) <= hy && Math.abs(oz) <= hz) return INSIDE
  let tNear = -Infinity, tFar = Infinity, axis = -1
  if (dx === 0) { if (Math.abs(ox) > hx) return MISS } else {
    const t1 = (-hx - ox) / dx, t2 = (hx - ox) / dx
    const lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1
    if (lo > tNear) { tNear = lo; axis = 0 }
    if (hi < tFar) tFar = hi
  }
  if (dy === 0) { if (Math.abs(oy) > hy) return MISS } else {
    const t1 = (-hy - oy) / dy, t2 = (hy - oy) / dy
    const lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1
    if (lo > tNear) { tNear = lo; axis = 1 }
    if (hi < tFar) tFar = hi
  }
  if (dz === 0) { if (Math.abs(oz) > hz) return MISS } else {
    const t1 = (-hz - oz) / dz, t2 = (hz - oz) / dz
    const lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1
    if (lo > tNear) { tNear = lo; axis = 2 }
    if (hi < tFar) tFar = hi
  }
  if (tNear > tFar || tFar < 0 || tNear > tMax || axis < 0) return MISS
  // the entered face faces the ray along its axis (each sign taken on every hit, so code optimised
  // on hits of one face meets no untried comparison on another's)
  const sx = dx > 0 ? -1 : 1, sy = dy > 0 ? -1 : 1, sz = dz > 0 ? -1 : 1
  out[0] = tNear < 0 ? 0 : tNear
  out[1] = axis === 0 ? sx : 0
  out[2] = axis === 1 ? sy : 0
  out[3] = axis === 2 ? sz : 0
  return HIT
}

/** Local capsule: points within rad = p[q] of the z segment [−hh, hh], hh = p[q+1]; L = local ray. */
export function rayCapsule(L: Float64Array, p: Float64Array, q: number, out: Float64Array): number {
  const ox = L[0], oy = L[1], oz = L[2], dx = L[3], dy = L[4], dz = L[5], tMax = L[6]
  const rad = p[q], hh = p[q + 1]
  const cz = oz > hh ? hh : oz < -hh ? -hh : oz
  const r2 = rad * rad
  if (ox * ox + oy * oy + (oz - cz) * (oz - cz) <= r2) return INSIDE
  // Outside every part of the union, so the entry is the earliest entry of side, top or bottom sphere.
  let best = Infinity, nx = 0, ny = 0, nz = 0
  const a = dx * dx + dy * dy
  const c = ox * ox + oy * oy - r2
  const b = ox * dx + oy * dy
  if (a > 0 && c > 0 && b < 0) {
    const cr = ox * dy - oy * dx
    const disc = a * r2 - cr * cr
    if (disc >= 0) {
      const t = c / (-b + Math.sqrt(disc))
      const z = oz + t * dz
      if (z >= -hh && z <= hh) { best = t; nx = (ox + t * dx) / rad; ny = (oy + t * dy) / rad; nz = 0 }
    }
  }
  for (let s = -1; s <= 1; s += 2) {
    const sz = oz - s * hh
    if (sphereAt(ox, oy, sz, dx, dy, dz, rad, best, out) === HIT && out[0] < best) {
      best = out[0]; nx = out[1]; ny = out[2]; nz = out[3]
    }
  }
  if (best > tMax) return MISS
  out[0] = best; out[1] = nx; out[2] = ny; out[3] = nz
  return HIT
}

/** Local solid cylinder of radius p[q] about z, z ∈ [−hh, hh] (hh = p[q+1]): a z slab ∩ an infinite cylinder; L = local ray. */
export function rayCylinder(L: Float64Array, p: Float64Array, q: number, out: Float64Array): number {
  const ox = L[0], oy = L[1], oz = L[2], dx = L[3], dy = L[4], dz = L[5], tMax = L[6]
  const rad = p[q], hh = p[q + 1]
  const r2 = rad * rad
  const c = ox * ox + oy * oy - r2
  if (c <= 0 && Math.abs(oz) <= hh) return INSIDE
  // z slab
  let zIn = -Infinity, zOut = Infinity
  if (dz === 0) { if (Math.abs(oz) > hh) return MISS } else {
    const t1 = (-hh - oz) / dz, t2 = (hh - oz) / dz
    zIn = t1 < t2 ? t1 : t2; zOut = t1 < t2 ? t2 : t1
  }
  // infinite cylinder
  let cIn = -Infinity, cOut = Infinity
  const a = dx * dx + dy * dy
  if (a === 0) { if (c > 0) return MISS } else {
    const b = ox * dx + oy * dy
    const cr = ox * dy - oy * dx
    const disc = a * r2 - cr * cr
    if (disc < 0) return MISS
    const sq = Math.sqrt(disc)
    const qq = b >= 0 ? -(b + sq) : -b + sq // −b ∓ √disc with no cancellation
    let t1 = qq / a, t2 = qq !== 0 ? c / qq : 0
    if (t1 > t2) { const s = t1; t1 = t2; t2 = s }
    cIn = t1; cOut = t2
  }
  const tIn = zIn > cIn ? zIn : cIn
  const tOut = zOut < cOut ? zOut : cOut
  if (tIn > tOut || tOut < 0 || tIn > tMax) return MISS
  const t = tIn < 0 ? 0 : tIn
  out[0] = t
  if (zIn > cIn) { out[1] = 0; out[2] = 0; out[3] = dz > 0 ? -1 : 1 } else {
    out[1] = (ox + t * dx) / rad; out[2] = (oy + t * dy) / rad; out[3] = 0
  }
  return HIT
}

/** Local plane z = 0 with the half-space z ≤ 0 solid; L = local ray. */
export function rayPlane(L: Float64Array, out: Float64Array): number {
  const oz = L[2], dz = L[5], tMax = L[6]
  if (oz <= 0) return INSIDE
  if (dz >= 0) return MISS
  const t = -oz / dz
  if (t > tMax) return MISS
  out[0] = t; out[1] = 0; out[2] = 0; out[3] = 1
  return HIT
}
