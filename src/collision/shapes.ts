/**
 * Collision shapes: the public shape types, their constructors, validation into the Collider store
 * fields, and world AABBs. Local frames: sphere centred; box, capsule and cylinder centred with
 * their axis along local z; plane = the half-space local z ≤ 0 (the ground is one, at its height).
 */
import { describe, finiteVector, nonNegativeNumber, positiveNumber } from '../validate'
import { ColliderKind, type ColliderStore } from '../../components/collider'
import { parseHeightfield, type HeightfieldData } from './heightfield'

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
/** Any shape addCollider accepts. */
export type Shape = SphereShape | BoxShape | CapsuleShape | CylinderShape | HeightfieldShape
/** The name of a shape kind, including the ground plane's. */
export type ShapeKind = Shape['kind'] | 'plane'

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

/** A validated shape, ready to be written into the store. */
export interface ParsedShape { kind: number; p0: number; p1: number; p2: number; hf: HeightfieldData | null }

/** Validates `shape` (errors name `name.field`) without writing anything. */
export function parseShape(shape: unknown, name = 'shape'): ParsedShape {
  if (shape === null || typeof shape !== 'object') throw new TypeError(`${name} must be a shape object ({ kind: 'sphere', radius } …), got ${describe(shape)}`)
  const s = shape as Record<string, unknown>
  switch (s.kind) {
    case 'sphere':
      return { kind: ColliderKind.sphere, p0: positiveNumber(s.radius, `${name}.radius`), p1: 0, p2: 0, hf: null }
    case 'box': {
      const h = finiteVector(s.halfExtents, 3, `${name}.halfExtents`)
      for (let i = 0; i < 3; i++) positiveNumber(h[i], `${name}.halfExtents[${i}]`)
      return { kind: ColliderKind.box, p0: h[0], p1: h[1], p2: h[2], hf: null }
    }
    case 'capsule':
      return { kind: ColliderKind.capsule, p0: positiveNumber(s.radius, `${name}.radius`), p1: nonNegativeNumber(s.halfHeight, `${name}.halfHeight`), p2: 0, hf: null }
    case 'cylinder':
      return { kind: ColliderKind.cylinder, p0: positiveNumber(s.radius, `${name}.radius`), p1: positiveNumber(s.halfHeight, `${name}.halfHeight`), p2: 0, hf: null }
    case 'heightfield':
      return { kind: ColliderKind.heightfield, p0: 0, p1: 0, p2: 0, hf: parseHeightfield(s, name) }
    default:
      throw new RangeError(`${name}.kind must be 'sphere', 'box', 'capsule', 'cylinder' or 'heightfield', got ${describe(s.kind)}`)
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
    default: return 'none'
  }
}

// Relative padding of AABBs: rounding in the pose transform must never put a surface point outside.
const PAD = 1e-9

/**
 * Writes the world AABB of collider `eid` into C.aabb from its kind, params, pose and heightfield
 * (`hf`, when it is one). Planes and kind none get an empty box (they are never in a tree).
 */
export function computeAabb(C: ColliderStore, eid: number, hf: HeightfieldData | undefined): void {
  const a = C.aabb, o = eid * 6, R = C.rotation, r = eid * 9, P = C.position
  const kind = C.kind[eid], p = C.params, q = eid * 4
  // local box centre (cx, cy, cz) and half extents (hx, hy, hz); a capsule/cylinder adds a disc.
  let cx = 0, cy = 0, cz = 0, hx = 0, hy = 0, hz = 0, disc = 0
  switch (kind) {
    case ColliderKind.sphere: hx = hy = hz = p[q]; break
    case ColliderKind.box: hx = p[q]; hy = p[q + 1]; hz = p[q + 2]; break
    case ColliderKind.capsule: hx = hy = hz = p[q]; break
    case ColliderKind.cylinder: hz = p[q + 1]; disc = p[q]; break
    case ColliderKind.heightfield:
      if (!hf) { emptyAabb(a, o); return }
      hx = hf.sizeX / 2; hy = hf.sizeY / 2; hz = (hf.maxH - hf.minH) / 2
      cx = hf.x0 + hx; cy = hf.y0 + hy; cz = (hf.maxH + hf.minH) / 2
      break
    default:
      emptyAabb(a, o)
      return
  }
  for (let i = 0; i < 3; i++) {
    const r0 = R[r + 3 * i], r1 = R[r + 3 * i + 1], r2 = R[r + 3 * i + 2]
    const c = P[eid * 3 + i] + r0 * cx + r1 * cy + r2 * cz
    let e = Math.abs(r0) * hx + Math.abs(r1) * hy + Math.abs(r2) * hz
    if (kind === ColliderKind.capsule) e = Math.abs(r2) * p[q + 1] + p[q]
    else if (disc > 0) e += disc * Math.sqrt(Math.max(0, 1 - r2 * r2))
    const pad = PAD * (Math.abs(c) + e) + 1e-12
    a[o + i] = c - e - pad
    a[o + 3 + i] = c + e + pad
  }
}

function emptyAabb(a: Float64Array, o: number): void {
  a[o] = a[o + 1] = a[o + 2] = Infinity
  a[o + 3] = a[o + 4] = a[o + 5] = -Infinity
}
