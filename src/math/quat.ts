/** Quaternion helpers ([x, y, z, w], Hamilton convention, as Rapier and three.js use). */
import type { NumberSink } from './mat3'

/** Writes the unit quaternion of a rotation by `angle` about axis (ax, ay, az) into out[o..o+3]. */
export function quatFromAxisAngle(out: NumberSink, o: number, ax: number, ay: number, az: number, angle: number): void {
  const n = Math.sqrt(ax * ax + ay * ay + az * az) || 1
  const s = Math.sin(angle / 2) / n
  out[o] = ax * s; out[o + 1] = ay * s; out[o + 2] = az * s; out[o + 3] = Math.cos(angle / 2)
}

/** Writes the Hamilton product a ⊗ b (apply b first, then a) into out[o..o+3]. */
export function quatMultiply(out: NumberSink, o: number, a: ArrayLike<number>, b: ArrayLike<number>): void {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3]
  const bx = b[0], by = b[1], bz = b[2], bw = b[3]
  out[o] = aw * bx + ax * bw + ay * bz - az * by
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz
}

/** Writes the unit quaternion of rotation matrix m[mo..] (row-major) into out[o..o+3]. */
export function quatFromMat3(out: NumberSink, o: number, m: ArrayLike<number>, mo = 0): void {
  const m00 = m[mo], m01 = m[mo + 1], m02 = m[mo + 2]
  const m10 = m[mo + 3], m11 = m[mo + 4], m12 = m[mo + 5]
  const m20 = m[mo + 6], m21 = m[mo + 7], m22 = m[mo + 8]
  const tr = m00 + m11 + m22
  let x: number, y: number, z: number, w: number
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2
    w = s / 4; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2
    w = (m21 - m12) / s; x = s / 4; y = (m01 + m10) / s; z = (m02 + m20) / s
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = s / 4; z = (m12 + m21) / s
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = s / 4
  }
  out[o] = x; out[o + 1] = y; out[o + 2] = z; out[o + 3] = w
}
