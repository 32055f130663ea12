/**
 * atan by the algorithm of Math.atan (fdlibm's s_atan.c: the same argument reduction and
 * coefficients) in plain arithmetic, its polynomial in Estrin's scheme (pairs of terms in
 * parallel), so results are within 1 ulp of Math.atan (test/driver/atan.test.ts), not bit for bit.
 * The high-word tests of the C code are the same tests on |x| (each bound is a double whose low
 * word is 0).
 */

/** Arc tangent of `x` (rad), within 1 ulp of Math.atan(x) (exact for ±0, ±∞, NaN, |x| < 2^-27 and |x| ≥ 2^66). */
export function atan(x: number): number {
  if (x !== x) return x + x // NaN
  const ax = Math.abs(x)
  if (ax >= 73786976294838206464) return x > 0 ? 1.57079632679489655800e+00 + 6.12323399573676603587e-17 : -1.57079632679489655800e+00 - 6.12323399573676603587e-17 // |x| ≥ 2^66 (and ±∞)
  let r = x, hi = 0, lo = 0, reduced = true
  if (ax < 0.4375) {
    if (ax < 7.450580596923828125e-9) return x // |x| < 2^-27 (keeps −0)
    reduced = false
  } else if (ax < 1.1875) {
    if (ax < 0.6875) { hi = 4.63647609000806093515e-01; lo = 2.26987774529616870924e-17; r = (2.0 * ax - 1) / (2.0 + ax) } else { hi = 7.85398163397448278999e-01; lo = 3.06161699786838301793e-17; r = (ax - 1) / (ax + 1) }
  } else if (ax < 2.4375) { hi = 9.82793723247329054082e-01; lo = 1.39033110312309984516e-17; r = (ax - 1.5) / (1 + 1.5 * ax) } else { hi = 1.57079632679489655800e+00; lo = 6.12323399573676603587e-17; r = -1.0 / ax }
  // (hi + lo above: atan(0.5), atan(1), atan(1.5), atan(∞), fdlibm's atanhi and atanlo)
  const z = r * r, z2 = z * z, z4 = z2 * z2
  // Σ aT[k]·z^(k+1), k = 0…10, in Estrin's scheme
  const poly = z * (((3.33333333333329318027e-01 + z * -1.99999999998764832476e-01) + z2 * (1.42857142725034663711e-01 + z * -1.11111104054623557880e-01)) +
    z4 * (((9.09088713343650656196e-02 + z * -7.69187620504482999495e-02) + z2 * (6.66107313738753120669e-02 + z * -5.83357013379057348645e-02)) +
    z4 * ((4.97687799461593236017e-02 + z * -3.65315727442169155270e-02) + z2 * 1.62858201153657823623e-02)))
  if (!reduced) return r - r * poly
  const v = hi - ((r * poly - lo) - r)
  return x < 0 ? -v : v
}
