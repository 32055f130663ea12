/**
 * From a glTF node's world matrix (y-up, column-major 4×4) to a pitlane pose (z-up, rigid) and the
 * linear map baked into the mesh's vertices. glTF (x, y, z) is pitlane (x, −z, y): a rotation of
 * +90° about x, so glTF's +y up becomes +z, both frames right-handed; a Blender scene exported
 * with "+Y up" lands back on Blender's own coordinates.
 */

/** A node's pose in pitlane's frame and the map from its glTF vertices into that pose's frame. */
export interface NodeFrame {
  /** World position [x, y, z] of the node's origin (z-up). */
  position: [number, number, number]
  /** Row-major rotation (a proper rotation: orthonormal, determinant +1). */
  rotation: number[]
  /** Row-major 3×3 map from a glTF vertex to the collider's local frame (axis swap, scale, shear, mirror). */
  bake: number[]
}

/**
 * The frame of world matrix `m` (glTF, column-major), or a reason it has none: a non-finite
 * matrix, or a singular one (a zero scale flattens the mesh to a plane, a line or a point).
 */
export function nodeFrame(m: ArrayLike<number>): NodeFrame | string {
  for (let i = 0; i < 16; i++) if (!Number.isFinite(m[i])) return 'its world matrix is not finite'
  // L = C · Lg · Cᵀ with C the axis swap, Lg(r, c) = m[4c + r]; glTF axis g is pitlane axis AX[g]
  // with sign SG[g]. Row-major L(r, c) at 3r + c.
  const L = new Array<number>(9)
  for (let gr = 0; gr < 3; gr++) {
    for (let gc = 0; gc < 3; gc++) L[3 * AX[gr] + AX[gc]] = SG[gr] * SG[gc] * m[4 * gc + gr]
  }
  const position: [number, number, number] = [0, 0, 0]
  for (let g = 0; g < 3; g++) position[AX[g]] = SG[g] * m[12 + g] + 0 // + 0: no −0 in a pose
  // Rigid part: Gram–Schmidt on L's first two columns, the third their cross product (so the
  // rotation is proper even for a mirrored node); everything else (scale, shear, mirror) is baked.
  const x0 = L[0], x1 = L[3], x2 = L[6]
  const y0 = L[1], y1 = L[4], y2 = L[7]
  const z0 = L[2], z1 = L[5], z2 = L[8]
  const nx = Math.hypot(x0, x1, x2), ny = Math.hypot(y0, y1, y2), nz = Math.hypot(z0, z1, z2)
  const det = x0 * (y1 * z2 - y2 * z1) - y0 * (x1 * z2 - x2 * z1) + z0 * (x1 * y2 - x2 * y1)
  if (!(Math.abs(det) > SINGULAR * nx * ny * nz) || !(nx > 0 && ny > 0 && nz > 0)) return 'its transform is singular (a zero scale)'
  const ax = x0 / nx, ay = x1 / nx, az = x2 / nx
  const d = ax * y0 + ay * y1 + az * y2
  let bx = y0 - d * ax, by = y1 - d * ay, bz = y2 - d * az
  const nb = Math.hypot(bx, by, bz)
  bx /= nb; by /= nb; bz /= nb
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx
  const rotation = [ax, bx, cx, ay, by, cy, az, bz, cz]
  // bake = Rᵀ · L · C (C: glTF vertex to pitlane axes), row-major.
  const bake = new Array<number>(9)
  for (let r = 0; r < 3; r++) {
    for (let g = 0; g < 3; g++) {
      const c = AX[g]
      bake[3 * r + g] = SG[g] * (rotation[r] * L[c] + rotation[3 + r] * L[3 + c] + rotation[6 + r] * L[6 + c])
    }
  }
  return { position, rotation, bake }
}

// glTF axis g (x, y, z) is pitlane axis AX[g] times SG[g]: x → x, y → z, z → −y.
const AX = [0, 2, 1]
const SG = [1, 1, -1]
// A transform whose determinant is below this fraction of its column lengths' product is singular.
const SINGULAR = 1e-12
