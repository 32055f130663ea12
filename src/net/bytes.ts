/**
 * Byte writer and reader of the net messages: little-endian fixed fields and LEB128 varints of
 * integers up to 2^53 (zigzag for signed ones). The reader checks every read against the end of
 * the message and throws a RangeError naming what was being read, so a decoder refuses short or
 * overlong bytes before it changes anything.
 */

/** Largest integer a varint carries (2^53 − 1: every value stays an exact double). */
export const VARINT_MAX = Number.MAX_SAFE_INTEGER

/** A growable byte buffer for one message. */
export class ByteWriter {
  private buf = new Uint8Array(256)
  private view = new DataView(this.buf.buffer)
  /** Bytes written so far. */
  length = 0

  /** Clears the buffer for a new message (its memory is kept). */
  reset(): void {
    this.length = 0
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n))
    next.set(this.buf.subarray(0, this.length))
    this.buf = next
    this.view = new DataView(next.buffer)
  }

  /** Writes one byte. */
  u8(v: number): void {
    this.room(1)
    this.buf[this.length++] = v
  }

  /** Writes a float64, little-endian. */
  f64(v: number): void {
    this.room(8)
    this.view.setFloat64(this.length, v, true)
    this.length += 8
  }

  /** Writes an unsigned integer in [0, 2^53) as a varint (7 bits a byte, low first). */
  uvar(v: number): void {
    this.room(8)
    while (v >= 128) {
      this.buf[this.length++] = (v % 128) | 128
      v = Math.floor(v / 128)
    }
    this.buf[this.length++] = v
  }

  /** Writes a signed integer as a zigzag varint (0, −1, 1, −2, … → 0, 1, 2, 3, …). */
  svar(v: number): void {
    this.uvar(v >= 0 ? v * 2 : -v * 2 - 1)
  }

  /** A copy of the bytes written. */
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length)
  }
}

/** Reads one message; every read throws a RangeError (naming `what` and the field) past the end. */
export class ByteReader {
  private bytes: Uint8Array = new Uint8Array(0)
  private view = new DataView(this.bytes.buffer)
  /** The read position. */
  pos = 0
  /** The message name used in errors (e.g. 'snapshot'). */
  what = 'message'

  /** Starts reading `bytes`. */
  reset(bytes: Uint8Array, what: string): void {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.pos = 0
    this.what = what
  }

  /** Bytes left to read. */
  get left(): number {
    return this.bytes.length - this.pos
  }

  private need(n: number, field: string): void {
    if (this.pos + n > this.bytes.length) throw new RangeError(`${this.what} is truncated: ${field} needs ${n} more byte(s) at offset ${this.pos} of ${this.bytes.length}`)
  }

  /** Reads one byte. */
  u8(field: string): number {
    this.need(1, field)
    return this.bytes[this.pos++]
  }

  /** Reads a float64 and refuses a non-finite one. */
  f64(field: string): number {
    this.need(8, field)
    const v = this.view.getFloat64(this.pos, true)
    this.pos += 8
    if (!Number.isFinite(v)) throw new RangeError(`${this.what}: ${field} must be finite, got ${v}`)
    return v
  }

  /** Reads an unsigned varint and refuses one above `max` (at most 2^53 − 1) or with a redundant last byte. */
  uvar(field: string, max = VARINT_MAX): number {
    let v = 0
    let scale = 1
    for (let i = 0; ; i++) {
      if (i === 8) throw new RangeError(`${this.what}: ${field} is a varint longer than 8 bytes`)
      this.need(1, field)
      const b = this.bytes[this.pos++]
      v += (b & 127) * scale
      if (b < 128) {
        if (b === 0 && i > 0) throw new RangeError(`${this.what}: ${field} is a varint with a redundant zero byte`)
        break
      }
      scale *= 128
    }
    if (v > max) throw new RangeError(`${this.what}: ${field} must be at most ${max}, got ${v}`)
    return v
  }

  /** Reads a zigzag varint (|value| ≤ 2^52). */
  svar(field: string): number {
    const z = this.uvar(field)
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2
  }

  /** Throws unless every byte was read. */
  end(): void {
    if (this.pos !== this.bytes.length) throw new RangeError(`${this.what} has ${this.bytes.length - this.pos} byte(s) after its end`)
  }
}

/** Throws a TypeError unless `bytes` is a Uint8Array. */
export function assertBytes(bytes: unknown, name: string): Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array, got ${bytes === null ? 'null' : typeof bytes}`)
  return bytes
}
