import { describe, expect, it } from 'vitest'
import { atan } from '../../src/driver/atan'

// The driver's inlinable atan is a copy of the fdlibm algorithm behind Math.atan: it must give the
// very same bits, or driven runs would differ from what the maths library says.
describe('driver atan', () => {
  it('equals Math.atan bit for bit on edge cases and random doubles of every magnitude', () => {
    const special = [0, -0, 1, -1, Infinity, -Infinity, NaN, 1e-300, -1e-300, 5e-324, 7 / 16, 11 / 16, 19 / 16, 39 / 16, 2 ** 66, 2 ** -27, 0.4375, 2.4375]
    for (const x of special) expect(Object.is(atan(x), Math.atan(x)), `atan(${x})`).toBe(true)
    const buf = new Float64Array(1)
    const bits = new Uint32Array(buf.buffer)
    let s = 12345
    const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s)
    let mismatches = 0
    for (let i = 0; i < 200_000; i++) {
      bits[0] = rnd(); bits[1] = rnd()
      const x = buf[0]
      const y = (rnd() / 2 ** 32 - 0.5) * 8 // the steering range
      if (!Object.is(atan(x), Math.atan(x))) mismatches++
      if (!Object.is(atan(y), Math.atan(y))) mismatches++
    }
    expect(mismatches).toBe(0)
  })
})
