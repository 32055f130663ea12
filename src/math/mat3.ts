/**
 * Row-major 3×3 rotation helpers on typed arrays with an offset, so a matrix can live inside a
 * SoA store (`Collider.rotation`, stride 9). Element (r, c) is at `o + 3r + c`; a matrix maps a
 * local vector to world: world = R · local.
 */

/** Something indexable for writing numbers (a typed array or a plain array). */
export type NumberSink = { [i: number]: number }

/** Writes the identity into m[o..o+8]. */
export function mat3Identity(m: NumberSink, o = 0): void {
  m[o] = 1; m[o + 1] = 0; m[o + 2] = 0
  m[o + 3] = 0; m[o + 4] = 1; m[o + 5] = 0
  m[o + 6] = 0; m[o + 7] = 0; m[o + 8] = 1
}

/** Copies 9 numbers from src[so..] into m[o..]. */
export function mat3Copy(m: NumberSink, o: number, src: ArrayLike<number>, so = 0): void {
  for (let i = 0; i < 9; i++) m[o + i] = src[so + i]
}

/** Writes R = Rz(yaw) · Ry(pitch) · Rx(roll) (right-handed rotations about the world axes) into m[o..]. */
export function mat3FromEuler(m: NumberSink, o: number, yaw: number, pitch: number, roll: number): void {
  mat3FromEulerTrig(m, o, Math.cos(yaw), Math.sin(yaw), Math.cos(pitch), Math.sin(pitch), Math.cos(roll), Math.sin(roll))
}

/** mat3FromEuler from the angles' cosines and sines (callers that reuse pitch and roll skip their trig; same bits). */
export function mat3FromEulerTrig(m: NumberSink, o: number, cy: number, sy: number, cp: number, sp: number, cr: number, sr: number): void {
  m[o] = cy * cp; m[o + 1] = cy * sp * sr - sy * cr; m[o + 2] = cy * sp * cr + sy * sr
  m[o + 3] = sy * cp; m[o + 4] = sy * sp * sr + cy * cr; m[o + 5] = sy * sp * cr - cy * sr
  m[o + 6] = -sp; m[o + 7] = cp * sr; m[o + 8] = cp * cr
}

/** Writes the rotation of unit quaternion (x, y, z, w) into m[o..] (the quaternion is normalised first; zero gives identity). */
export function mat3FromQuat(m: NumberSink, o: number, x: number, y: number, z: number, w: number): void {
  const n = Math.sqrt(x * x + y * y + z * z + w * w)
  if (n === 0) { mat3Identity(m, o); return }
  x /= n; y /= n; z /= n; w /= n
  const xx = x * x, yy = y * y, zz = z * z
  const xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
  m[o] = 1 - 2 * (yy + zz); m[o + 1] = 2 * (xy - wz); m[o + 2] = 2 * (xz + wy)
  m[o + 3] = 2 * (xy + wz); m[o + 4] = 1 - 2 * (xx + zz); m[o + 5] = 2 * (yz - wx)
  m[o + 6] = 2 * (xz - wy); m[o + 7] = 2 * (yz + wx); m[o + 8] = 1 - 2 * (xx + yy)
}

/** Largest deviation of m[o..] from a proper rotation: max |R·Rᵀ − I| element, or Infinity when det ≤ 0. */
export function mat3RotationError(m: ArrayLike<number>, o = 0): number {
  let err = 0
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = m[o + 3 * i] * m[o + 3 * j] + m[o + 3 * i + 1] * m[o + 3 * j + 1] + m[o + 3 * i + 2] * m[o + 3 * j + 2]
      err = Math.max(err, Math.abs(d - (i === j ? 1 : 0)))
    }
  }
  return mat3Determinant(m, o) > 0 ? err : Infinity
}

/** Determinant of m[o..]. */
export function mat3Determinant(m: ArrayLike<number>, o = 0): number {
  return m[o] * (m[o + 4] * m[o + 8] - m[o + 5] * m[o + 7])
    - m[o + 1] * (m[o + 3] * m[o + 8] - m[o + 5] * m[o + 6])
    + m[o + 2] * (m[o + 3] * m[o + 7] - m[o + 4] * m[o + 6])
}

/** Writes R · (x, y, z) into out[oo..oo+2]. */
export function mat3MulVec(out: NumberSink, oo: number, m: ArrayLike<number>, o: number, x: number, y: number, z: number): void {
  const a = m[o] * x + m[o + 1] * y + m[o + 2] * z
  const b = m[o + 3] * x + m[o + 4] * y + m[o + 5] * z
  const c = m[o + 6] * x + m[o + 7] * y + m[o + 8] * z
  out[oo] = a; out[oo + 1] = b; out[oo + 2] = c
}

/** Writes Rᵀ · (x, y, z) (world to local for a rotation) into out[oo..oo+2]. */
export function mat3TransposeMulVec(out: NumberSink, oo: number, m: ArrayLike<number>, o: number, x: number, y: number, z: number): void {
  const a = m[o] * x + m[o + 3] * y + m[o + 6] * z
  const b = m[o + 1] * x + m[o + 4] * y + m[o + 7] * z
  const c = m[o + 2] * x + m[o + 5] * y + m[o + 8] * z
  out[oo] = a; out[oo + 1] = b; out[oo + 2] = c
}
