/**
 * sin and cos of one angle together, by quadrant reduction and minimax polynomials on
 * [−π/4, π/4] (within 1e-15 for |angle| < SIN_COS_RANGE; Math.sin/cos beyond): plain arithmetic,
 * as deterministic as Math.sin/cos and cheaper for the pair.
 */

/** Angles the polynomial reduction handles (beyond: Math.sin/cos), rad: |a| < this. */
export const SIN_COS_RANGE = 1e5

/** The nearest whole number of quarter turns in `a` (rad), as a double. */
export function quarterTurns(a: number): number {
  // (| 0: an int32, +0 for a small negative angle's −0, which `q & 3` met in optimised code throws
  // out: test/perf/perf.test.ts 'race frames', once traffic had a car head just below 0)
  return Math.round(a * 0.6366197723675814) | 0 // 2/π
}

/** `a` less `q` quarter turns (π/2 in two parts, for an accurate reduction): in [−π/4, π/4] when q = quarterTurns(a). */
export function reduceQuarter(a: number, q: number): number {
  return (a - q * 1.5707963267341256) - q * 6.077100506506192e-11
}

// Taylor/minimax on |r| ≤ π/4 (sin to r^15, cos to r^16: the next terms are below 1e-16), in
// Estrin's scheme (pairs of terms in parallel).

/** sin(r) for |r| ≤ π/4. */
export function sinReduced(r: number): number {
  const r2 = r * r, r4 = r2 * r2, r12 = r4 * r4 * r4
  return r + r * r2 * ((-1 / 6 + r2 * (1 / 120)) + r4 * ((-1 / 5040 + r2 * (1 / 362880)) + r4 * (-1 / 39916800 + r2 * (1 / 6227020800))) + r12 * (-1 / 1307674368000))
}

/** cos(r) for |r| ≤ π/4. */
export function cosReduced(r: number): number {
  const r2 = r * r, r4 = r2 * r2, r12 = r4 * r4 * r4
  return 1 + r2 * ((-0.5 + r2 * (1 / 24)) + r4 * ((-1 / 720 + r2 * (1 / 40320)) + r4 * (-1 / 3628800 + r2 * (1 / 479001600))) + r12 * (-1 / 87178291200 + r2 * (1 / 20922789888000)))
}

/** Writes sin(a) into out[0] and cos(a) into out[1]. */
export function sinCos(a: number, out: Float64Array): void {
  if (!(a > -SIN_COS_RANGE && a < SIN_COS_RANGE)) { out[0] = Math.sin(a); out[1] = Math.cos(a); return } // big (reduction inexact) or NaN
  const q = quarterTurns(a)
  const r = reduceQuarter(a, q)
  const s = sinReduced(r), c = cosReduced(r)
  const k = q & 3
  if (k === 0) { out[0] = s; out[1] = c } else if (k === 1) { out[0] = c; out[1] = -s } else if (k === 2) { out[0] = -s; out[1] = -c } else { out[0] = -c; out[1] = s }
}
