/** Validated pose input: positions and rotations (row-major Mat3 or quaternion [x, y, z, w]). */
import { describe, finiteVector, positionLike } from '../validate'
import { mat3Copy, mat3FromQuat, mat3RotationError } from '../math/mat3'

/** How far a given Mat3 may be from orthonormal (max |R·Rᵀ − I| element). */
export const ROTATION_TOLERANCE = 1e-6

/**
 * Validates `rotation` (9 numbers: row-major rotation matrix; 4 numbers: quaternion [x, y, z, w],
 * normalised here) and writes the matrix into out[0..8]. Throws naming `name`; writes nothing then.
 */
export function parseRotation(rotation: unknown, name: string, out: Float64Array): void {
  if (rotation === null || typeof rotation !== 'object' || typeof (rotation as ArrayLike<number>).length !== 'number') {
    throw new TypeError(`${name} must be a row-major Mat3 (9 numbers) or a quaternion [x, y, z, w], got ${describe(rotation)}`)
  }
  const n = (rotation as ArrayLike<number>).length
  if (n !== 9 && n !== 4) throw new RangeError(`${name} must have 9 numbers (Mat3) or 4 (quaternion), got ${n}`)
  const r = finiteVector(rotation, n, name)
  if (n === 4) {
    const len = Math.hypot(r[0], r[1], r[2], r[3])
    if (!(len > 1e-12)) throw new RangeError(`${name} is a zero quaternion`)
    mat3FromQuat(out, 0, r[0], r[1], r[2], r[3])
    return
  }
  const err = mat3RotationError(r)
  if (!(err <= ROTATION_TOLERANCE)) throw new RangeError(`${name} must be a rotation matrix (orthonormal, determinant +1, row-major), deviates by ${err}`)
  mat3Copy(out, 0, r)
}

/** Validates a position ([x, y, z], or [x, y] with z = `groundZ`) into out[0..2]; throws naming `name`. */
export function parsePosition(position: unknown, name: string, groundZ: number, out: Float64Array): void {
  const p = positionLike(position, name)
  out[0] = p[0]; out[1] = p[1]; out[2] = Number.isNaN(p[2]) ? groundZ : p[2]
}
