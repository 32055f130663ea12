/**
 * The exact test of a mesh leaf's triangles along one ray: the watertight test of Woop, Benthin
 * and Wald (JCGT 2013) in f64. The triangle's corners, seen from the ray's start, are sheared so
 * the ray runs along +z, and three edge functions decide whether it passes inside. A shared edge's
 * function is the very same arithmetic, negated, in both its triangles, so no ray slips between
 * two triangles (Möller–Trumbore can); a ray on an edge hits both (ties go to the lower triangle
 * index, so the answer never depends on the order leaves are visited in). A ray in a triangle's
 * plane does not hit it. A start on the surface (within the test's own rounding) hits at 0.
 */
import type { MeshData } from './mesh-tree'

/**
 * Indices into a ray frame (createMeshRayFrame): the start's coordinates along the frame's axes,
 * shear, axes, best t and triangle; then the ray's anchor and the start's distance along the ray
 * from it (mesh-view.ts). Numbers pass between the mesh's functions through the frame, never as
 * arguments (a double argument of a call that is not inlined is allocated).
 */
export const F_OX = 0, F_OY = 1, F_OZ = 2, F_SX = 3, F_SY = 4, F_SZ = 5, F_KX = 6, F_KY = 7, F_KZ = 8, F_BEST = 9, F_TRI = 10, F_AX = 11, F_AY = 12, F_AZ = 13, F_R0 = 14

/** A ray frame: 15 numbers (F_* indices), filled by setMeshRayFrame and rayMesh. */
export function createMeshRayFrame(): Float64Array { return new Float64Array(15) }

/** Bound on the rounding of the distance numerator (the start on the surface), per cube of the triangle's largest coordinate seen from the start. */
const ON_SURFACE = 64 * Number.EPSILON

/**
 * Sets frame F for the local ray L = [ox, oy, oz, dx, dy, dz, tMax] (d unit): kz its largest
 * direction axis, kx and ky the next two, the shear, and best = tMax with no triangle yet.
 */
export function setMeshRayFrame(F: Float64Array, L: Float64Array): void {
  const ax = Math.abs(L[3]), ay = Math.abs(L[4]), az = Math.abs(L[5])
  const kz = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2), kx = kz === 2 ? 0 : kz + 1, ky = kx === 2 ? 0 : kx + 1
  const dkz = L[3 + kz]
  F[F_OX] = L[kx]; F[F_OY] = L[ky]; F[F_OZ] = L[kz]
  F[F_SX] = L[3 + kx] / dkz; F[F_SY] = L[3 + ky] / dkz; F[F_SZ] = 1 / dkz
  F[F_KX] = kx; F[F_KY] = ky; F[F_KZ] = kz
  F[F_BEST] = L[6]; F[F_TRI] = -1
}

/**
 * Tests triangles order[first ..< first + count] of mesh m along the ray of frame F, keeping the
 * nearest hit (t ≤ F[F_BEST]; ties to the lower triangle) in F[F_BEST] and F[F_TRI].
 */
export function meshLeaf(m: MeshData, first: number, count: number, F: Float64Array): void {
  const order = m.order, V = m.vertices, I = m.indices
  const okx = F[F_OX], oky = F[F_OY], okz = F[F_OZ], sx = F[F_SX], sy = F[F_SY], sz = F[F_SZ]
  const kx = F[F_KX], ky = F[F_KY], kz = F[F_KZ]
  let best = F[F_BEST], bestTri = F[F_TRI]
  for (let k = first, end = first + count; k < end; k++) {
    const tri = order[k], a = 3 * I[3 * tri], b = 3 * I[3 * tri + 1], c = 3 * I[3 * tri + 2]
    // the corners seen from the start, sheared into the ray's frame
    const Az = V[a + kz] - okz, Bz = V[b + kz] - okz, Cz = V[c + kz] - okz
    const Ax = V[a + kx] - okx - sx * Az, Ay = V[a + ky] - oky - sy * Az
    const Bx = V[b + kx] - okx - sx * Bz, By = V[b + ky] - oky - sy * Bz
    const Cx = V[c + kx] - okx - sx * Cz, Cy = V[c + ky] - oky - sy * Cz
    const U = Cx * By - Cy * Bx, W = Ax * Cy - Ay * Cx, X = Bx * Ay - By * Ax
    if ((U < 0 || W < 0 || X < 0) && (U > 0 || W > 0 || X > 0)) continue
    const det = U + W + X
    if (det === 0) continue // in the triangle's plane (or no area)
    const num = (U * Az + W * Bz + X * Cz) * sz
    let t = num / det
    if (!(t > 0)) {
      // behind the start, or the start lies on the triangle (rounding may put it a hair behind): 0, never −0
      if (t < 0 && !startOnSurface(num, sz, Ax, Ay, Az, Bx, By, Bz, Cx, Cy, Cz)) continue
      t = 0
    }
    if (t > best || (t === best && bestTri >= 0 && tri > bestTri)) continue
    best = t; bestTri = tri
  }
  F[F_BEST] = best; F[F_TRI] = bestTri
}

/**
 * Whether a negative distance numerator `num` (the sheared corners as meshLeaf has them) is within
 * the test's rounding of zero: the start lies on the triangle, so it hits at 0. A rare path.
 */
export function startOnSurface(num: number, sz: number, Ax: number, Ay: number, Az: number, Bx: number, By: number, Bz: number, Cx: number, Cy: number, Cz: number): boolean {
  const S = Math.max(Math.abs(Ax), Math.abs(Ay), Math.abs(Az * sz), Math.abs(Bx), Math.abs(By), Math.abs(Bz * sz), Math.abs(Cx), Math.abs(Cy), Math.abs(Cz * sz))
  return Math.abs(num) <= ON_SURFACE * S * S * S
}
