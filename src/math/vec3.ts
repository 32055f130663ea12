/** Vec3 helpers on plain numbers and typed arrays (no allocation unless named `create*`). */

/** A 3-vector as any array-like of numbers. */
export type Vec3Like = ArrayLike<number>

/** A new Float64Array(3) holding x, y, z. */
export function vec3(x = 0, y = 0, z = 0): Float64Array {
  const v = new Float64Array(3)
  v[0] = x; v[1] = y; v[2] = z
  return v
}

/** Dot product of (ax, ay, az) and (bx, by, bz). */
export function dot3(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  return ax * bx + ay * by + az * bz
}

/** Euclidean length of (x, y, z), safe against overflow and underflow of the squares. */
export function length3(x: number, y: number, z: number): number {
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z))
  if (m === 0 || !Number.isFinite(m)) return m
  const a = x / m, b = y / m, c = z / m
  return m * Math.sqrt(a * a + b * b + c * c)
}

/** Writes (x, y, z) / |(x, y, z)| into out[o..o+2]; a zero vector gives `fallback` (+z by default); returns the length. */
export function normalize3(out: { [i: number]: number }, o: number, x: number, y: number, z: number, fx = 0, fy = 0, fz = 1): number {
  const len = length3(x, y, z)
  if (len === 0) { out[o] = fx; out[o + 1] = fy; out[o + 2] = fz; return 0 }
  out[o] = x / len; out[o + 1] = y / len; out[o + 2] = z / len
  return len
}
