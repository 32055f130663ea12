/**
 * Exact, JSON-safe encoding of typed arrays as base64 strings (little-endian). Plain JSON numbers
 * would lose -0 and every non-finite value; bytes keep every bit.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DECODE = new Int16Array(128).fill(-1)
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i

/** Encodes bytes as standard base64 (with padding). */
export function bytesToBase64(bytes: Uint8Array): string {
  const parts: string[] = []
  let chunk = ''
  const n = bytes.length
  for (let i = 0; i < n; i += 3) {
    const a = bytes[i], b = i + 1 < n ? bytes[i + 1] : 0, c = i + 2 < n ? bytes[i + 2] : 0
    const t = (a << 16) | (b << 8) | c
    chunk += ALPHABET[(t >> 18) & 63] + ALPHABET[(t >> 12) & 63] + (i + 1 < n ? ALPHABET[(t >> 6) & 63] : '=') + (i + 2 < n ? ALPHABET[t & 63] : '=')
    if (chunk.length >= 8192) { parts.push(chunk); chunk = '' }
  }
  parts.push(chunk)
  return parts.join('')
}

/** Decodes standard base64; throws a RangeError naming `name` on anything malformed. */
export function base64ToBytes(s: unknown, name: string): Uint8Array {
  if (typeof s !== 'string') throw new TypeError(`${name} must be a base64 string, got ${typeof s}`)
  if (s.length % 4 !== 0) throw new RangeError(`${name} is not valid base64 (length ${s.length} is not a multiple of 4)`)
  let pad = 0
  if (s.length > 0 && s[s.length - 1] === '=') pad = s[s.length - 2] === '=' ? 2 : 1
  const out = new Uint8Array((s.length / 4) * 3 - pad)
  let o = 0
  for (let i = 0; i < s.length; i += 4) {
    let t = 0
    for (let k = 0; k < 4; k++) {
      const code = s.charCodeAt(i + k)
      let v = code < 128 ? DECODE[code] : -1
      if (code === 61 && i + k >= s.length - pad) v = 0
      if (v < 0) throw new RangeError(`${name} is not valid base64 (bad character at ${i + k})`)
      t = (t << 6) | v
    }
    out[o++] = (t >> 16) & 255
    if (o < out.length) out[o++] = (t >> 8) & 255
    if (o < out.length) out[o++] = t & 255
  }
  return out
}

interface WordType<A extends Float64Array | Int32Array> {
  size: number
  what: string
  make(n: number): A
  get(view: DataView, offset: number): number
  set(view: DataView, offset: number, v: number): void
}

const F64: WordType<Float64Array> = {
  size: 8, what: 'numbers', make: (n) => new Float64Array(n),
  get: (view, o) => view.getFloat64(o, true), set: (view, o, v) => view.setFloat64(o, v, true),
}
const I32: WordType<Int32Array> = {
  size: 4, what: 'integers', make: (n) => new Int32Array(n),
  get: (view, o) => view.getInt32(o, true), set: (view, o, v) => view.setInt32(o, v, true),
}

/** Encodes a Float64Array exactly (every bit, -0 and NaN payloads included). */
export function encodeF64(a: Float64Array): string {
  return encodeWords(a, F64)
}

/** Decodes encodeF64's output; `count` (when given) is the exact length required. */
export function decodeF64(s: unknown, name: string, count?: number): Float64Array {
  return decodeWords(s, name, F64, count)
}

/** Encodes an Int32Array (little-endian). */
export function encodeI32(a: Int32Array): string {
  return encodeWords(a, I32)
}

/** Decodes encodeI32's output; `count` (when given) is the exact length required. */
export function decodeI32(s: unknown, name: string, count?: number): Int32Array {
  return decodeWords(s, name, I32, count)
}

function encodeWords<A extends Float64Array | Int32Array>(a: A, type: WordType<A>): string {
  const bytes = new Uint8Array(a.length * type.size)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < a.length; i++) type.set(view, i * type.size, a[i])
  return bytesToBase64(bytes)
}

// base64 `s` as whole words of `type` (`count` of them when given).
function decodeWords<A extends Float64Array | Int32Array>(s: unknown, name: string, type: WordType<A>, count?: number): A {
  const bytes = base64ToBytes(s, name)
  if (bytes.length % type.size !== 0) throw new RangeError(`${name} does not hold whole ${type.size}-byte ${type.what}`)
  const n = bytes.length / type.size
  if (count !== undefined && n !== count) throw new RangeError(`${name} must hold ${count} ${type.what}, got ${n}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  const out = type.make(n)
  for (let i = 0; i < n; i++) out[i] = type.get(view, i * type.size)
  return out
}
