/**
 * sin and cos of one angle together, by quadrant reduction and minimax polynomials on
 * [−π/4, π/4] (within 1e-15 for |angle| < 1e5 rad, ~16 000 turns; Math.sin/cos beyond):
 * plain arithmetic, so as deterministic as Math.sin/cos and several times cheaper for the pair.
 */

const PIO2_HI = 1.5707963267341256 // π/2 split in two parts for an accurate reduction
const PIO2_LO = 6.077100506506192e-11
const TWO_OVER_PI = 0.6366197723675814

/** Writes sin(a) into out[0] and cos(a) into out[1]. */
export function sinCos(a: number, out: Float64Array): void {
  if (!(a > -1e5 && a < 1e5)) { out[0] = Math.sin(a); out[1] = Math.cos(a); return } // big (reduction inexact) or NaN
  const q = Math.round(a * TWO_OVER_PI)
  const r = (a - q * PIO2_HI) - q * PIO2_LO
  const r2 = r * r
  // Taylor/minimax on |r| ≤ π/4 (terms to r^17 and r^16: below 1 ulp)
  const s = r * (1 + r2 * (-1 / 6 + r2 * (1 / 120 + r2 * (-1 / 5040 + r2 * (1 / 362880 + r2 * (-1 / 39916800 + r2 * (1 / 6227020800 + r2 * (-1 / 1307674368000 + r2 / 355687428096000))))))))
  const c = 1 + r2 * (-0.5 + r2 * (1 / 24 + r2 * (-1 / 720 + r2 * (1 / 40320 + r2 * (-1 / 3628800 + r2 * (1 / 479001600 + r2 * (-1 / 87178291200 + r2 / 20922789888000)))))))
  const k = q & 3
  if (k === 0) { out[0] = s; out[1] = c } else if (k === 1) { out[0] = c; out[1] = -s } else if (k === 2) { out[0] = -s; out[1] = -c } else { out[0] = -c; out[1] = s }
}
