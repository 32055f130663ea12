/**
 * Collision shapes: the public shape types, their constructors, validation into the Collider store
 * fields, and world AABBs. Local frames: sphere centred; box, capsule and cylinder centred with
 * their axis along local z; plane = the half-space local z ≤ 0 (the ground is one, at its height).
 */
import { describe, finiteVector, nonNegativeNumber, positiveNumber } from '../validate'
import { ColliderKind, type ColliderStore } from '../../components/collider'
import { parseHeightfield, type HeightfieldData } from './heightfield'
import { parseMesh, type MeshData } from './mesh'

/** A sphere of `radius` about the collider's position. */
export interface SphereShape { kind: 'sphere'; radius: number }
/** A box with half extents [x, y, z] along its local axes. */
export interface BoxShape { kind: 'box'; halfExtents: ArrayLike<number> }
/** A capsule: the points within `radius` of the local-z segment from −halfHeight to +halfHeight. */
export interface CapsuleShape { kind: 'capsule'; radius: number; halfHeight: number }
/** A solid cylinder of `radius` about local z, from z = −halfHeight to +halfHeight. */
export interface CylinderShape { kind: 'cylinder'; radius: number; halfHeight: number }
/**
 * A height field in the collider's local frame: vertex (i, j) (column i < columns, row j < rows)
 * sits at (origin[0] + i·cellSize, origin[1] + j·cellSize, (origin[2] ?? 0) + heights[j·columns + i]);
 * z is up. Each cell is two triangles split along the diagonal from vertex (i, j) to (i+1, j+1).
 * It is a two-sided surface (not solid): rays hit it from above or below.
 */
export interface HeightfieldShape {
  kind: 'heightfield'
  origin: ArrayLike<number>
  cellSize: number
  columns: number
  rows: number
  heights: ArrayLike<number>
}
/**
 * A triangle mesh in the collider's local frame: `vertices` as xyz triples, `indices` three a
 * triangle (zero-based). Rays hit its triangles from either side, the normal facing the ray's
 * start; it has no inside. Zero-area triangles are skipped (their indices still count).
 */
export interface MeshShape { kind: 'mesh'; vertices: ArrayLike<number>; indices: ArrayLike<number> }
/** Any shape addCollider accepts. */
export type Shape = SphereShape | BoxShape | CapsuleShape | CylinderShape | HeightfieldShape | MeshShape
/** The name of a shape kind, including the ground plane's. */
export type ShapeKind = Shape['kind'] | 'plane'
/** The ground plane as sim.colliderShape reports it: the half-space local z ≤ 0 (addCollider takes no planes). */
export interface PlaneShape { kind: 'plane' }

/** A sphere shape. */
export function sphere(radius: number): SphereShape { return { kind: 'sphere', radius } }
/** A box shape from its half extents. */
export function box(hx: number, hy: number, hz: number): BoxShape { return { kind: 'box', halfExtents: [hx, hy, hz] } }
/** A capsule shape along local z. */
export function capsule(radius: number, halfHeight: number): CapsuleShape { return { kind: 'capsule', radius, halfHeight } }
/** A cylinder shape along local z. */
export function cylinder(radius: number, halfHeight: number): CylinderShape { return { kind: 'cylinder', radius, halfHeight } }
/** A heightfield shape (see HeightfieldShape for the conventions). */
export function heightfield(origin: ArrayLike<number>, cellSize: number, columns: number, rows: number, heights: ArrayLike<number>): HeightfieldShape {
  return { kind: 'heightfield', origin, cellSize, columns, rows, heights }
}
/** A triangle mesh shape (see MeshShape): vertices as xyz triples, three indices a triangle. */
export function mesh(vertices: ArrayLike<number>, indices: ArrayLike<number>): MeshShape { return { kind: 'mesh', vertices, indices } }

/** A validated shape, ready to be written into the store. */
export interface ParsedShape { kind: number; p0: number; p1: number; p2: number; hf: HeightfieldData | null; mesh: MeshData | null }

/** Validates `shape` (errors name `name.field`) without writing anything. */
export function parseShape(shape: unknown, name = 'shape'): ParsedShape {
  if (shape === null || typeof shape !== 'object') throw new TypeError(`${name} must be a shape object ({ kind: 'sphere', radius } …), got ${describe(shape)}`)
  const s = shape as Record<string, unknown>
  switch (s.kind) {
    case 'sphere':
      return { kind: ColliderKind.sphere, p0: positiveNumber(s.radius, `${name}.radius`), p1: 0, p2: 0, hf: null, mesh: null }
    case 'box': {
      const h = finiteVector(s.halfExtents, 3, `${name}.halfExtents`)
      for (let i = 0; i < 3; i++) positiveNumber(h[i], `${name}.halfExtents[${i}]`)
      return { kind: ColliderKind.box, p0: h[0], p1: h[1], p2: h[2], hf: null, mesh: null }
    }
    case 'capsule':
      return { kind: ColliderKind.capsule, p0: positiveNumber(s.radius, `${name}.radius`), p1: nonNegativeNumber(s.halfHeight, `${name}.halfHeight`), p2: 0, hf: null, mesh: null }
    case 'cylinder':
      return { kind: ColliderKind.cylinder, p0: positiveNumber(s.radius, `${name}.radius`), p1: positiveNumber(s.halfHeight, `${name}.halfHeight`), p2: 0, hf: null, mesh: null }
    case 'heightfield':
      return { kind: ColliderKind.heightfield, p0: 0, p1: 0, p2: 0, hf: parseHeightfield(s, name), mesh: null }
    case 'mesh':
      return { kind: ColliderKind.mesh, p0: 0, p1: 0, p2: 0, hf: null, mesh: parseMesh(s, name) }
    default:
      throw new RangeError(`${name}.kind must be 'sphere', 'box', 'capsule', 'cylinder', 'heightfield' or 'mesh', got ${describe(s.kind)}`)
  }
}

/**
 * The shape of collider `eid` as addCollider takes it (new arrays, a copy of the stored data; for
 * reading a mesh without a copy, colliderMesh): a heightfield's origin is [x0, y0, 0] with its origin height folded into its heights), the ground
 * plane as a PlaneShape, or null for kind none.
 */
export function shapeOf(C: ColliderStore, eid: number, hfs: readonly (HeightfieldData | undefined)[], meshes: readonly ({ vertices: Float64Array; indices: Uint32Array } | undefined)[]): Shape | PlaneShape | null {
  const p = C.params, q = eid * 4
  switch (C.kind[eid]) {
    case ColliderKind.plane: return { kind: 'plane' }
    case ColliderKind.sphere: return sphere(p[q])
    case ColliderKind.box: return box(p[q], p[q + 1], p[q + 2])
    case ColliderKind.capsule: return capsule(p[q], p[q + 1])
    case ColliderKind.cylinder: return cylinder(p[q], p[q + 1])
    case ColliderKind.heightfield: {
      const hf = hfs[C.heightfield[eid]]
      return hf ? heightfield([hf.x0, hf.y0, 0], hf.cellSize, hf.columns, hf.rows, hf.heights.slice()) : null
    }
    case ColliderKind.mesh: {
      const m = meshes[C.mesh[eid]]
      return m ? { kind: 'mesh', vertices: m.vertices.slice(), indices: m.indices.slice() } : null
    }
    default: return null
  }
}

/** The name of stored kind `kind`. */
export function kindName(kind: number): ShapeKind | 'none' {
  switch (kind) {
    case ColliderKind.plane: return 'plane'
    case ColliderKind.sphere: return 'sphere'
    case ColliderKind.box: return 'box'
    case ColliderKind.capsule: return 'capsule'
    case ColliderKind.cylinder: return 'cylinder'
    case ColliderKind.heightfield: return 'heightfield'
    case ColliderKind.mesh: return 'mesh'
    default: return 'none'
  }
}

// Relative padding of AABBs: rounding in the pose transform must never put a surface point outside.
const PAD = 1e-9

/**
 * Writes the world AABB of collider `eid` into C.aabb from its kind, params, pose and (for a
 * heightfield or a mesh) its data in `hfs` or `meshes`. Planes and kind none get an empty box (they are never in a tree).
 */
export function computeAabb(C: ColliderStore, eid: number, hfs: readonly (HeightfieldData | undefined)[], meshes: readonly (MeshData | undefined)[]): void {
  const a = C.aabb, o = eid * 6, R = C.rotation, r = eid * 9, P = C.position, p3 = eid * 3
  const kind = C.kind[eid], p = C.params, q = eid * 4
  const r0 = R[r], r1 = R[r + 1], r2 = R[r + 2], r3 = R[r + 3], r4 = R[r + 4], r5 = R[r + 5], r6 = R[r + 6], r7 = R[r + 7], r8 = R[r + 8]
  let cx = P[p3], cy = P[p3 + 1], cz = P[p3 + 2], ex = 0, ey = 0, ez = 0
  switch (kind) {
    case ColliderKind.sphere: ex = ey = ez = p[q]; break
    case ColliderKind.box: {
      const hx = p[q], hy = p[q + 1], hz = p[q + 2]
      ex = Math.abs(r0) * hx + Math.abs(r1) * hy + Math.abs(r2) * hz
      ey = Math.abs(r3) * hx + Math.abs(r4) * hy + Math.abs(r5) * hz
      ez = Math.abs(r6) * hx + Math.abs(r7) * hy + Math.abs(r8) * hz
      break
    }
    case ColliderKind.capsule: {
      const rad = p[q], hh = p[q + 1]
      ex = Math.abs(r2) * hh + rad; ey = Math.abs(r5) * hh + rad; ez = Math.abs(r8) * hh + rad
      break
    }
    case ColliderKind.cylinder: {
      // axis a = R·ẑ = (r2, r5, r8): extent_i = |a_i|·hh + rad·√(1 − a_i²)
      const rad = p[q], hh = p[q + 1]
      ex = Math.abs(r2) * hh + rad * Math.sqrt(Math.max(0, 1 - r2 * r2))
      ey = Math.abs(r5) * hh + rad * Math.sqrt(Math.max(0, 1 - r5 * r5))
      ez = Math.abs(r8) * hh + rad * Math.sqrt(Math.max(0, 1 - r8 * r8))
      break
    }
    case ColliderKind.heightfield: {
      const slot = C.heightfield[eid]
      const hf = slot >= 0 ? hfs[slot] : undefined
      if (!hf) { emptyAabb(a, o); return }
      const hx = hf.sizeX / 2, hy = hf.sizeY / 2, hz = (hf.maxH - hf.minH) / 2
      localBoxAabb(C, eid, hf.x0 + hx, hf.y0 + hy, (hf.maxH + hf.minH) / 2, hx, hy, hz)
      return
    }
    case ColliderKind.mesh: {
      const slot = C.mesh[eid]
      const m = slot >= 0 ? meshes[slot] : undefined
      if (!m || m.treeTriangles === 0) { emptyAabb(a, o); return }
      // the local box of its triangles, centre and half extents turned to the world as a box's
      const b = m.box
      localBoxAabb(C, eid, (b[0] + b[3]) / 2, (b[1] + b[4]) / 2, (b[2] + b[5]) / 2, (b[3] - b[0]) / 2, (b[4] - b[1]) / 2, (b[5] - b[2]) / 2)
      return
    }
    default:
      emptyAabb(a, o)
      return
  }
  a[o] = cx; a[o + 1] = cy; a[o + 2] = cz; a[o + 3] = ex; a[o + 4] = ey; a[o + 5] = ez
  padAabb(a, o)
}

/** Collider eid's world AABB from a box in its local frame (centre l, half extents h): the heightfield's and the mesh's. */
function localBoxAabb(C: ColliderStore, eid: number, lx: number, ly: number, lz: number, hx: number, hy: number, hz: number): void {
  const a = C.aabb, o = eid * 6, R = C.rotation, r = eid * 9, P = C.position, p3 = eid * 3
  const r0 = R[r], r1 = R[r + 1], r2 = R[r + 2], r3 = R[r + 3], r4 = R[r + 4], r5 = R[r + 5], r6 = R[r + 6], r7 = R[r + 7], r8 = R[r + 8]
  a[o] = P[p3] + (r0 * lx + r1 * ly + r2 * lz); a[o + 1] = P[p3 + 1] + (r3 * lx + r4 * ly + r5 * lz); a[o + 2] = P[p3 + 2] + (r6 * lx + r7 * ly + r8 * lz)
  a[o + 3] = Math.abs(r0) * hx + Math.abs(r1) * hy + Math.abs(r2) * hz
  a[o + 4] = Math.abs(r3) * hx + Math.abs(r4) * hy + Math.abs(r5) * hz
  a[o + 5] = Math.abs(r6) * hx + Math.abs(r7) * hy + Math.abs(r8) * hz
  padAabb(a, o)
}

/** computeAabb for a collider known to be a box (the per-step pose write skips the kind dispatch; same bits). */
export function computeBoxAabb(C: ColliderStore, eid: number): void {
  boxAabb(C.aabb, eid * 6, C.position, eid * 3, C.rotation, eid * 9, C.params, eid * 4)
}

/**
 * Writes the padded AABB of a box with half extents hp[q..q+2], centre P[po..po+2] and rotation
 * R[o..o+8] into a[ao..ao+5]. Arrays and indices only (the per-step pose write of every moving car).
 */
export function boxAabb(a: Float64Array, ao: number, P: Float64Array, po: number, R: Float64Array, o: number, hp: Float64Array, q: number): void {
  const hx = hp[q], hy = hp[q + 1], hz = hp[q + 2]
  const ex = Math.abs(R[o]) * hx + Math.abs(R[o + 1]) * hy + Math.abs(R[o + 2]) * hz
  const ey = Math.abs(R[o + 3]) * hx + Math.abs(R[o + 4]) * hy + Math.abs(R[o + 5]) * hz
  const ez = Math.abs(R[o + 6]) * hx + Math.abs(R[o + 7]) * hy + Math.abs(R[o + 8]) * hz
  a[ao] = P[po]; a[ao + 1] = P[po + 1]; a[ao + 2] = P[po + 2]; a[ao + 3] = ex; a[ao + 4] = ey; a[ao + 5] = ez
  padAabb(a, ao)
}

// Pads in place: a[o..o+5] holds centre (cx, cy, cz) and extent (ex, ey, ez) on entry, the padded
// box [min, max] on return; the one place the padding rule lives. Inputs through the array, not as
// double arguments: the st200 allocation guard (test/perf/perf.test.ts) fails without it (≈ 19 KB a step).
function padAabb(a: Float64Array, o: number): void {
  const cx = a[o], cy = a[o + 1], cz = a[o + 2], ex = a[o + 3], ey = a[o + 4], ez = a[o + 5]
  const px = PAD * (Math.abs(cx) + ex) + 1e-12, py = PAD * (Math.abs(cy) + ey) + 1e-12, pz = PAD * (Math.abs(cz) + ez) + 1e-12
  a[o] = cx - ex - px; a[o + 1] = cy - ey - py; a[o + 2] = cz - ez - pz
  a[o + 3] = cx + ex + px; a[o + 4] = cy + ey + py; a[o + 5] = cz + ez + pz
}

function emptyAabb(a: Float64Array, o: number): void {
  a[o] = a[o + 1] = a[o + 2] = Infinity
  a[o + 3] = a[o + 4] = a[o + 5] = -Infinity
}
