/** Instanced meshes that grow on demand, and the allocation-free write of one instance's transform. */
import { Color, InstancedMesh, type BufferGeometry, type Material } from 'three'

// setColorAt creates a grown mesh's colour buffer, before the old colours are copied into it
const WHITE = new Color(1, 1, 1)

/**
 * The translation (tx, ty, tz) and axis scales (sx, sy, sz) of the next writeInstance call. A record,
 * not six arguments: doubles passed to a call that is not inlined are boxed, one heap number each
 * (test/three/debug-view.test.ts 'allocates nothing per update' fails without it).
 */
export const placement = new Float64Array(6)

/**
 * Writes instance `i`'s matrix (three's column-major 4×4) into `m`: rotation R[o..o+8] (pitlane's
 * row-major 3×3) times the axis scales, then the translation, both from `placement`.
 */
export function writeInstance(m: { [index: number]: number }, i: number, R: ArrayLike<number>, o: number): void {
  const k = 16 * i, t = placement
  const sx = t[3], sy = t[4], sz = t[5]
  m[k] = R[o] * sx; m[k + 1] = R[o + 3] * sx; m[k + 2] = R[o + 6] * sx; m[k + 3] = 0
  m[k + 4] = R[o + 1] * sy; m[k + 5] = R[o + 4] * sy; m[k + 6] = R[o + 7] * sy; m[k + 7] = 0
  m[k + 8] = R[o + 2] * sz; m[k + 9] = R[o + 5] * sz; m[k + 10] = R[o + 8] * sz; m[k + 11] = 0
  m[k + 12] = t[0]; m[k + 13] = t[1]; m[k + 14] = t[2]; m[k + 15] = 1
}

/** Sets `placement`: translation (tx, ty, tz), scales (sx, sy, sz). Small enough to be inlined (its doubles are then never boxed). */
export function place(tx: number, ty: number, tz: number, sx: number, sy: number, sz: number): Float64Array {
  const t = placement
  t[0] = tx; t[1] = ty; t[2] = tz; t[3] = sx; t[4] = sy; t[5] = sz
  return t
}

/** An InstancedMesh slot in a parent that is replaced by a larger one when more instances are needed. */
export interface InstancePool {
  /** The mesh in force (replaced when it grows: re-read after `reserve`). */
  mesh: InstancedMesh
  /** Makes room for `n` instances (a new mesh of twice the size when needed; the old one is disposed); true when it made a new mesh. */
  reserve(n: number): boolean
  /** Sets how many instances are drawn and flags the matrices (and colours) for upload. */
  commit(n: number): void
  /** Sets instance `i`'s colour. */
  color(i: number, c: Color): void
  /** Removes the mesh from its parent and frees it (the geometry and material are the caller's). */
  dispose(): void
}

/** A growable instanced mesh of `geometry` and `material`, added to `parent` (initial room for `capacity`). */
export function createInstancePool(parent: { add(o: InstancedMesh): unknown; remove(o: InstancedMesh): unknown }, geometry: BufferGeometry, material: Material, capacity: number, name: string): InstancePool {
  const make = (n: number) => {
    const mesh = new InstancedMesh(geometry, material, n)
    mesh.name = name
    mesh.count = 0
    // instances move everywhere: the mesh's bounds would be stale
    mesh.frustumCulled = false
    parent.add(mesh)
    return mesh
  }
  const pool: InstancePool = {
    mesh: make(Math.max(1, capacity)),
    reserve(n) {
      const old = pool.mesh
      if (n <= old.instanceMatrix.count) return false
      let cap = old.instanceMatrix.count
      while (cap < n) cap *= 2
      const mesh = make(cap)
      mesh.instanceMatrix.array.set(old.instanceMatrix.array)
      if (old.instanceColor) {
        mesh.setColorAt(0, WHITE)
        ;(mesh.instanceColor!.array as Float32Array).set(old.instanceColor.array)
      }
      parent.remove(old)
      old.dispose()
      pool.mesh = mesh
      return true
    },
    commit(n) {
      const mesh = pool.mesh
      mesh.count = n
      mesh.instanceMatrix.needsUpdate = true
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true
    },
    color(i, c) {
      pool.mesh.setColorAt(i, c)
    },
    dispose() {
      parent.remove(pool.mesh)
      pool.mesh.dispose()
    },
  }
  return pool
}
