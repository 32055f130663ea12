/**
 * Triangle meshes: validated data, and the exact ray test through the mesh's own tree (built once
 * in the collider's frame by mesh-tree.ts; a pose change moves the collider, never the tree).
 * Rays hit a triangle from either side (no backface culling) with the face normal turned to face
 * the ray's start; a mesh has no inside. The triangle test is watertight (rayMesh), in f64, edges
 * included; a ray lying in a triangle's plane does not hit that triangle. A start on the
 * surface, as the mesh's own frame computes it (within the rounding of the triangle test), hits
 * at 0 whichever way the ray goes; a start a rounding error off a posed mesh's surface hits at
 * about 0 going one way (the pose transform's rounding decides which). Ties in distance go to the lowest
 * triangle index, so the answer never depends on the order the tree visits leaves in.
 * Layout and figures: docs/decisions/0009-meshes.md.
 */
import { describe } from '../validate'
import { buildMeshTree, type MeshData } from './mesh-tree'

export type { MeshData } from './mesh-tree'

/** Validates a mesh shape object (errors name `name.field`) and builds its tree. */
export function parseMesh(s: Record<string, unknown>, name: string): MeshData {
  const vs = arrayLike(s.vertices, `${name}.vertices`, 'an array of xyz triples')
  const is = arrayLike(s.indices, `${name}.indices`, 'an array of vertex indices, three a triangle')
  if (vs.length % 3 !== 0) throw new RangeError(`${name}.vertices must hold xyz triples (a multiple of 3 numbers), got ${vs.length}`)
  if (is.length % 3 !== 0) throw new RangeError(`${name}.indices must hold three indices a triangle (a multiple of 3), got ${is.length}`)
  const vertexCount = vs.length / 3
  const vertices = new Float64Array(vs.length)
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i]
    if (typeof v !== 'number') throw new TypeError(`${name}.vertices[${i}] must be a number, got ${describe(v)}`)
    if (!Number.isFinite(v)) throw new RangeError(`${name}.vertices[${i}] (a coordinate of vertex ${(i / 3) | 0}) must be finite, got ${v}`)
    vertices[i] = v
  }
  const indices = new Uint32Array(is.length)
  for (let i = 0; i < is.length; i++) {
    const k = is[i]
    if (typeof k !== 'number' && typeof k !== 'bigint') throw new TypeError(`${name}.indices[${i}] must be an integer, got ${describe(k)}`)
    const n = Number(k)
    if (!Number.isInteger(n) || n < 0 || n >= vertexCount) {
      throw new RangeError(`${name}.indices[${i}] (of triangle ${(i / 3) | 0}) must be a vertex index in [0, ${vertexCount - 1}], got ${String(k)}`)
    }
    indices[i] = n
  }
  return buildMeshTree(vertices, indices)
}

function arrayLike(v: unknown, name: string, what: string): ArrayLike<unknown> {
  if (v === null || typeof v !== 'object' || typeof (v as ArrayLike<unknown>).length !== 'number') throw new TypeError(`${name} must be ${what}, got ${describe(v)}`)
  return v as ArrayLike<unknown>
}

/** Zero direction components are replaced by this so 1/d stays finite (as in query.ts). */
const TINY = 1e-300
/** Bound on the rounding of the watertight test's distance numerator, per cube of the triangle's largest coordinate seen from the start. */
const ON_SURFACE = 64 * Number.EPSILON

/**
 * Closest hit of the local-frame ray L = [ox, oy, oz, dx, dy, dz, tMax] (t ∈ [0, tMax], d unit)
 * with mesh `m`. On a hit writes t into out[0], the unit local normal (facing the ray's start)
 * into out[1..3] and the triangle's index into out[4]; returns true.
 *
 * The tree is walked nearer child first with an early out on the best t (as castRay walks the
 * world's tree). Each triangle takes the watertight test of Woop, Benthin and Wald (JCGT 2013) in
 * f64: the vertices, seen from the start, are sheared so the ray runs along +z, and three edge
 * functions decide whether the ray passes inside. A shared edge's function is the very same
 * arithmetic, negated, in both its triangles, so no ray slips between two triangles (Möller–
 * Trumbore can); a ray on an edge hits both (ties go to the lower triangle). A ray in the
 * triangle's plane does not hit it. The slab and triangle tests are written out in the loop:
 * a double returned from a call not inlined is allocated (the meshRay bench saw it).
 */
export function rayMesh(m: MeshData, L: Float64Array, out: Float64Array): boolean {
  if (m.nodeCount === 0) return false
  const ox = L[0], oy = L[1], oz = L[2], dx = L[3], dy = L[4], dz = L[5]
  const ix = 1 / (dx === 0 ? TINY : dx), iy = 1 / (dy === 0 ? TINY : dy), iz = 1 / (dz === 0 ? TINY : dz)
  // each axis's near and far box plane (min or max) for the ray's direction
  const nx = ix >= 0 ? 0 : 3, ny = iy >= 0 ? 1 : 4, nz = iz >= 0 ? 2 : 5, fx = 3 - nx, fy = 5 - ny, fz = 7 - nz
  // the ray's frame: kz its largest direction axis, kx and ky the next two; shear (sx, sy), scale sz
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz)
  const kz = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2), kx = kz === 2 ? 0 : kz + 1, ky = kx === 2 ? 0 : kx + 1
  const dkz = L[3 + kz], sx = L[3 + kx] / dkz, sy = L[3 + ky] / dkz, sz = 1 / dkz
  const okx = L[kx], oky = L[ky], okz = L[kz]
  const B = m.bounds, nodes = m.nodes, order = m.order, V = m.vertices, I = m.indices, stack = m.stack, stackT = m.stackT
  let best = L[6], bestTri = -1
  let node = 0, sp = 0
  // the root's box
  {
    let t1 = (B[0] - ox) * ix, t2 = (B[3] - ox) * ix
    let lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1
    t1 = (B[1] - oy) * iy; t2 = (B[4] - oy) * iy
    if (t1 > t2) { const s = t1; t1 = t2; t2 = s }
    if (t1 > lo) lo = t1
    if (t2 < hi) hi = t2
    t1 = (B[2] - oz) * iz; t2 = (B[5] - oz) * iz
    if (t1 > t2) { const s = t1; t1 = t2; t2 = s }
    if (t1 > lo) lo = t1
    if (t2 < hi) hi = t2
    if (lo > hi || hi < 0 || lo > best) return false
  }
  for (;;) {
    const n = nodes[2 * node + 1], f = nodes[2 * node]
    if (n > 0) {
      for (let k = f; k < f + n; k++) {
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
          if (t < 0) {
            const S = Math.max(Math.abs(Ax), Math.abs(Ay), Math.abs(Az * sz), Math.abs(Bx), Math.abs(By), Math.abs(Bz * sz), Math.abs(Cx), Math.abs(Cy), Math.abs(Cz * sz))
            if (!(Math.abs(num) <= ON_SURFACE * S * S * S)) continue
          }
          t = 0
        }
        if (t > best || (t === best && bestTri >= 0 && tri > bestTri)) continue
        best = t; bestTri = tri
      }
    } else {
      const l = f, r = f + 1
      // both children's entry t (Infinity: missed, or beyond the best): the near and far planes by the ray's octant
      let o = 6 * l
      let lo = (B[o + nx] - ox) * ix, hi = (B[o + fx] - ox) * ix
      let a = (B[o + ny] - oy) * iy, b = (B[o + fy] - oy) * iy
      if (a > lo) lo = a
      if (b < hi) hi = b
      a = (B[o + nz] - oz) * iz; b = (B[o + fz] - oz) * iz
      if (a > lo) lo = a
      if (b < hi) hi = b
      const tl = lo <= hi && hi >= 0 && lo <= best ? (lo > 0 ? lo : 0) : Infinity
      o = 6 * r
      lo = (B[o + nx] - ox) * ix; hi = (B[o + fx] - ox) * ix
      a = (B[o + ny] - oy) * iy; b = (B[o + fy] - oy) * iy
      if (a > lo) lo = a
      if (b < hi) hi = b
      a = (B[o + nz] - oz) * iz; b = (B[o + fz] - oz) * iz
      if (a > lo) lo = a
      if (b < hi) hi = b
      const tr = lo <= hi && hi >= 0 && lo <= best ? (lo > 0 ? lo : 0) : Infinity
      // the nearer child first, the farther one kept with its entry t; ties (t = best) still visit
      if (tl <= best) {
        if (tr <= best) {
          if (tl <= tr) { stack[sp] = r; stackT[sp] = tr; node = l } else { stack[sp] = l; stackT[sp] = tl; node = r }
          sp++
        } else node = l
        continue
      }
      if (tr <= best) { node = r; continue }
    }
    while (sp > 0 && stackT[sp - 1] > best) sp--
    if (sp === 0) break
    node = stack[--sp]
  }
  if (bestTri < 0) return false
  meshFaceNormal(m, bestTri, dx, dy, dz, out)
  out[0] = best
  out[4] = bestTri
  return true
}

/** Writes triangle `tri`'s unit face normal, turned against the direction (dx, dy, dz), into out[1..3]. */
export function meshFaceNormal(m: MeshData, tri: number, dx: number, dy: number, dz: number, out: Float64Array): void {
  const V = m.vertices, I = m.indices
  const a = 3 * I[3 * tri], b = 3 * I[3 * tri + 1], c = 3 * I[3 * tri + 2]
  const e1x = V[b] - V[a], e1y = V[b + 1] - V[a + 1], e1z = V[b + 2] - V[a + 2]
  const e2x = V[c] - V[a], e2y = V[c + 1] - V[a + 1], e2z = V[c + 2] - V[a + 2]
  let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz)
  nx /= len; ny /= len; nz /= len
  if (nx * dx + ny * dy + nz * dz > 0) { nx = 0 - nx; ny = 0 - ny; nz = 0 - nz } // 0 − x: a zero stays +0
  out[1] = nx; out[2] = ny; out[3] = nz
}

/** Bytes the mesh holds (its copies of the input and its tree). */
export function meshBytes(m: MeshData): number {
  return m.vertices.byteLength + m.indices.byteLength + m.order.byteLength + m.bounds.byteLength + m.nodes.byteLength + m.stack.byteLength + m.stackT.byteLength + m.box.byteLength
}

/**
 * A 53-bit digest of the mesh's geometry (every bit of its vertices and indices, zero-area
 * triangles included): snapshots carry it to check that a restore finds the same mesh. Worked out
 * once and kept. Not cryptographic: it catches a different mesh, not an attacker.
 */
export function meshDigest(m: MeshData): number {
  if (m.digest >= 0) return m.digest
  const words = new Uint32Array(m.vertices.buffer, m.vertices.byteOffset, 2 * m.vertices.length)
  let h1 = 0xdeadbeef ^ m.vertices.length, h2 = 0x41c6ce57 ^ m.indices.length
  for (let pass = 0; pass < 2; pass++) {
    const a = pass === 0 ? words : m.indices
    for (let i = 0; i < a.length; i++) {
      const c = a[i]
      h1 = Math.imul(h1 ^ c, 2654435761)
      h2 = Math.imul(h2 ^ c, 1597334677)
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  m.digest = 4294967296 * (2097151 & h2) + (h1 >>> 0)
  return m.digest
}
