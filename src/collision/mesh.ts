/**
 * Triangle meshes: validated data, and the exact ray test through the mesh's own tree (built once
 * in the collider's frame by mesh-tree.ts; a pose change moves the collider, never the tree) or,
 * for rays sharing an anchor, its view from there (mesh-view.ts). Rays hit a triangle from either
 * side (no backface culling) with the face normal turned to face the ray's start; a mesh has no
 * inside. The triangle test is watertight (mesh-leaf.ts), in f64, edges included; a ray lying in
 * a triangle's plane does not hit that triangle. A start on the
 * surface, as the mesh's own frame computes it (within the rounding of the triangle test), hits
 * at 0 whichever way the ray goes; a start a rounding error off a posed mesh's surface hits at
 * about 0 going one way (the pose transform's rounding decides which). Ties in distance go to the
 * lowest triangle index, so the answer never depends on the order leaves are visited in.
 * Layout and figures: docs/decisions/0009-meshes.md.
 */
import { describe } from '../validate'
import { buildMeshTree, type MeshData, type MeshView } from './mesh-tree'
import { createMeshRayFrame, F_AX, F_AY, F_AZ, F_BEST, F_R0, F_TRI, meshLeaf, setMeshRayFrame } from './mesh-leaf'
import { meshViewFor, viewCell, VIEW_NEAR } from './mesh-view'

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
/** Largest distance (relative to the anchor's size, m) a ray's line may pass from its anchor and still use the anchor's view. */
const ANCHOR_SLIP = 1e-14

// the ray frame of the current test (mesh-leaf.ts): rayMesh is never re-entered
const F = createMeshRayFrame()

/**
 * Closest hit of the local-frame ray L = [ox, oy, oz, dx, dy, dz, tMax] (t ∈ [0, tMax], d unit)
 * with mesh `m`. L may go on with an anchor [.., ax, ay, az, 1]: a point on the ray's line at or
 * behind its start (a lidar's sensor), else L[10] is 0 and the start is its own anchor. On a hit
 * writes t into out[0], the unit local normal (facing the ray's start) into out[1..3] and the
 * triangle's index into out[4]; returns true.
 *
 * Rays that share an anchor long enough walk the mesh as seen from it (mesh-view.ts); any other
 * walks the tree nearer child first with an early out on the best t (as castRay walks the
 * world's). Either way each leaf's triangles take meshLeaf's watertight test, so both give the
 * same hits. The tree's slab tests are written out in its loop: a double returned from a call
 * that is not inlined is allocated (the meshRay bench saw 144 B a ray).
 */
export function rayMesh(m: MeshData, L: Float64Array, out: Float64Array): boolean {
  if (m.nodeCount === 0) return false
  setMeshRayFrame(F, L)
  // the anchor: the ray's own start, or the one given behind it when its line passes through it
  F[F_AX] = L[0]; F[F_AY] = L[1]; F[F_AZ] = L[2]; F[F_R0] = 0
  if (L[10] === 1) anchorBehind(L)
  const v = meshViewFor(m, F)
  if (v !== null) walkView(m, v, L)
  else walkTree(m, L)
  const bestTri = F[F_TRI]
  if (bestTri < 0) return false
  meshFaceNormal(m, bestTri, L, out)
  out[0] = F[F_BEST]
  out[4] = bestTri
  return true
}

/**
 * Takes the anchor L[7..9] into F (with the start's distance from it along the ray) when the ray's
 * line passes within rounding of it and the start is not behind it; else leaves F's anchor alone.
 */
function anchorBehind(L: Float64Array): void {
  const wx = L[0] - L[7], wy = L[1] - L[8], wz = L[2] - L[9], dx = L[3], dy = L[4], dz = L[5]
  const r0 = wx * dx + wy * dy + wz * dz
  const px = wx - r0 * dx, py = wy - r0 * dy, pz = wz - r0 * dz
  const slip = ANCHOR_SLIP * (1 + Math.abs(L[7]) + Math.abs(L[8]) + Math.abs(L[9]) + r0)
  if (!(r0 >= 0) || px * px + py * py + pz * pz > slip * slip) return
  F[F_AX] = L[7]; F[F_AY] = L[8]; F[F_AZ] = L[9]; F[F_R0] = r0
}

/**
 * Walks view v for ray L (its start F[F_R0] along the line from the anchor): the leaves near the anchor,
 * then the ray's cell's leaves nearest first while one can still beat the best hit, each leaf's
 * box tested first. The line passes within rounding of the anchor (rayMesh checks), far inside
 * the view's padding (mesh-view.ts).
 */
function walkView(m: MeshData, v: MeshView, L: Float64Array): void {
  const near = v.near
  for (let i = 0; i < near.length; i++) { const n = near[i]; meshLeaf(m, m.nodes[2 * n], m.nodes[2 * n + 1], F) }
  const ox = L[0], oy = L[1], oz = L[2], dx = L[3], dy = L[4], dz = L[5]
  const ix = 1 / (dx === 0 ? TINY : dx), iy = 1 / (dy === 0 ? TINY : dy), iz = 1 / (dz === 0 ? TINY : dz)
  const nx = ix >= 0 ? 0 : 3, ny = iy >= 0 ? 1 : 4, nz = iz >= 0 ? 2 : 5, fx = 3 - nx, fy = 5 - ny, fz = 7 - nz
  const B = m.bounds, nodes = m.nodes, leaf = v.leaf, lower = v.lower
  const cell = viewCell(L)
  const r0 = F[F_R0]
  // a leaf's distance from the anchor bounds r0 + t from below (up to the line's slip, far under the margin)
  const margin = VIEW_NEAR * 1e-3
  for (let e = v.cellStart[cell], end = v.cellStart[cell + 1]; e < end; e++) {
    const best = F[F_BEST]
    if (lower[e] > r0 + best + margin) break
    const n = leaf[e], o = 6 * n
    let lo = (B[o + nx] - ox) * ix, hi = (B[o + fx] - ox) * ix
    let a = (B[o + ny] - oy) * iy, b = (B[o + fy] - oy) * iy
    if (a > lo) lo = a
    if (b < hi) hi = b
    a = (B[o + nz] - oz) * iz; b = (B[o + fz] - oz) * iz
    if (a > lo) lo = a
    if (b < hi) hi = b
    if (lo <= hi && hi >= 0 && lo <= best) meshLeaf(m, nodes[2 * n], nodes[2 * n + 1], F)
  }
}

/** Walks the tree for ray L (frame F set): nearer child first, the farther kept with its entry t. */
function walkTree(m: MeshData, L: Float64Array): void {
  const ox = L[0], oy = L[1], oz = L[2], dx = L[3], dy = L[4], dz = L[5]
  const ix = 1 / (dx === 0 ? TINY : dx), iy = 1 / (dy === 0 ? TINY : dy), iz = 1 / (dz === 0 ? TINY : dz)
  // each axis's near and far box plane (min or max) for the ray's direction
  const nx = ix >= 0 ? 0 : 3, ny = iy >= 0 ? 1 : 4, nz = iz >= 0 ? 2 : 5, fx = 3 - nx, fy = 5 - ny, fz = 7 - nz
  const B = m.bounds, nodes = m.nodes, stack = m.stack, stackT = m.stackT
  let best = F[F_BEST]
  // the root's box
  {
    let lo = (B[nx] - ox) * ix, hi = (B[fx] - ox) * ix
    let a = (B[ny] - oy) * iy, b = (B[fy] - oy) * iy
    if (a > lo) lo = a
    if (b < hi) hi = b
    a = (B[nz] - oz) * iz; b = (B[fz] - oz) * iz
    if (a > lo) lo = a
    if (b < hi) hi = b
    if (lo > hi || hi < 0 || lo > best) return
  }
  let node = 0, sp = 0
  for (;;) {
    const n = nodes[2 * node + 1], f = nodes[2 * node]
    if (n > 0) {
      meshLeaf(m, f, n, F)
      best = F[F_BEST]
    } else {
      const l = f, r = f + 1
      // both children's entry t (Infinity: missed, or beyond the best)
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
      // the nearer child first; ties (t = best) still visit
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
}

/** Writes triangle `tri`'s unit face normal, turned against the ray L's direction L[3..5], into out[1..3]. */
export function meshFaceNormal(m: MeshData, tri: number, L: Float64Array, out: Float64Array): void {
  const dx = L[3], dy = L[4], dz = L[5]
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
