import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { base64ToBytes, bytesToBase64, decodeF64, decodeI32, encodeF64, encodeI32 } from '../../src/replay/codec'

describe('exact base64 codec', () => {
  it('matches Node Buffer base64 both ways', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      const ours = bytesToBase64(bytes)
      const node = Buffer.from(bytes).toString('base64')
      if (ours !== node) return false
      const back = base64ToBytes(node, 'x')
      return back.length === bytes.length && back.every((b, i) => b === bytes[i])
    }), { numRuns: 300 })
  })

  it('keeps every bit of doubles, -0 and non-finite values included', () => {
    const values = new Float64Array([0, -0, NaN, Infinity, -Infinity, 5e-324, -1.7976931348623157e308, Math.PI, 1 / 3])
    const back = decodeF64(encodeF64(values), 'v', values.length)
    for (let i = 0; i < values.length; i++) expect(Object.is(back[i], values[i])).toBe(true)
    fc.assert(fc.property(fc.float64Array({ maxLength: 50 }), (a) => {
      const b = decodeF64(encodeF64(a), 'v')
      return b.length === a.length && a.every((v, i) => Object.is(v, b[i]))
    }), { numRuns: 200 })
    const ints = new Int32Array([0, -1, 2147483647, -2147483648, 7])
    expect(Array.from(decodeI32(encodeI32(ints), 'i', 5))).toEqual(Array.from(ints))
  })

  it('refuses malformed strings and wrong lengths, naming the field', () => {
    expect(() => base64ToBytes(12 as never, 'replay.dt')).toThrow(TypeError)
    expect(() => base64ToBytes('abc', 'replay.dt')).toThrow(/replay\.dt.*multiple of 4/)
    expect(() => base64ToBytes('ab$=', 'replay.dt')).toThrow(/replay\.dt.*bad character/)
    expect(() => base64ToBytes('a=bc', 'replay.dt')).toThrow(RangeError)
    expect(() => decodeF64(encodeF64(new Float64Array(3)), 'replay.dt', 4)).toThrow(/replay\.dt must hold 4 numbers, got 3/)
    expect(() => decodeF64(bytesToBase64(new Uint8Array(7)), 'replay.dt')).toThrow(/whole 8-byte/)
    expect(() => decodeI32(bytesToBase64(new Uint8Array(6)), 'e')).toThrow(/whole 4-byte/)
  })
})
