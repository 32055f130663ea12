import { describe, expect, it } from 'vitest'
import { seededRandom } from '../random'
import { atan } from '../../src/driver/atan'

// The driver's inlinable atan is fdlibm's algorithm behind Math.atan (same reduction, same
// coefficients) with its polynomial evaluated in Estrin's scheme for a shorter dependency chain:
// within 1 ulp of Math.atan everywhere (Math.atan itself is within 1 ulp of the true value), odd,
// and exact at the edges (±0, ±∞, NaN, tiny and huge arguments).
describe('driver atan', () => {
  it('is within 1 ulp of Math.atan on edge cases and random doubles of every magnitude, and odd', () => {
    const special = [0, -0, 1, -1, Infinity, -Infinity, NaN, 1e-300, -1e-300, 5e-324, 7 / 16, 11 / 16, 19 / 16, 39 / 16, 2 ** 66, 2 ** -27, 0.4375, 2.4375]
    for (const x of [0, -0, Infinity, -Infinity, NaN, 1e-300, -1e-300, 5e-324, 2 ** 66, -(2 ** 67)]) expect(Object.is(atan(x), Math.atan(x)), `atan(${x})`).toBe(true)
    const buf = new Float64Array(2)
    const bits = new Uint32Array(buf.buffer)
    const wide = new BigInt64Array(buf.buffer)
    const ulps = (a: number, b: number) => { buf[0] = a; buf[1] = b; return Math.abs(Number(wide[0] - wide[1])) }
    const r = seededRandom(12345)
    const rnd = () => r() * 4294967296 // a 32-bit integer
    let worst = 0, odd = 0
    const check = (x: number) => {
      if (x !== x) return
      worst = Math.max(worst, ulps(atan(x), Math.atan(x)))
      if (!Object.is(atan(-x), -atan(x))) odd++
    }
    for (const x of special) check(x)
    for (let i = 0; i < 200_000; i++) {
      bits[0] = rnd(); bits[1] = rnd()
      check(buf[0])
      check((rnd() / 2 ** 32 - 0.5) * 8) // the steering range
    }
    expect(worst).toBeLessThanOrEqual(1)
    expect(odd).toBe(0)
  })
})
