/**
 * The room's messages on top of pitlane/net's. Numeric Colyseus message types (one byte on the
 * wire). A snapshot travels in an envelope that adds the last input sequence number the server
 * applied to the receiving client's car, which the client's prediction replays from.
 */

/** Client → server: a pitlane/net input message (bytes). */
export const MSG_INPUT = 1
/** Client → server: the tick of the latest snapshot applied, a uint32 (4 bytes, little-endian). */
export const MSG_ACK = 2
/** Server → client: a snapshot envelope (bytes). */
export const MSG_SNAPSHOT = 1
/** Server → client: the Welcome (JSON) on joining and reconnecting. */
export const MSG_WELCOME = 2
/** Server → client: the RaceReport (JSON), a few times a second and on every phase change. */
export const MSG_RACE = 3

/** Bytes of the envelope's header: the last input sequence applied (uint32, -1 as 0xffffffff before any). */
export const ENVELOPE_HEADER = 4

/** Wraps `snapshot` with the last applied input sequence `seq` into `out` (grown when short); returns the view to send. */
export function writeEnvelope(seq: number, snapshot: Uint8Array, out: { buffer: Uint8Array }): Uint8Array {
  const n = ENVELOPE_HEADER + snapshot.length
  if (out.buffer.length < n) out.buffer = new Uint8Array(Math.max(n, out.buffer.length * 2))
  const b = out.buffer
  const s = seq >>> 0
  b[0] = s & 255; b[1] = (s >>> 8) & 255; b[2] = (s >>> 16) & 255; b[3] = s >>> 24
  b.set(snapshot, ENVELOPE_HEADER)
  return b.subarray(0, n)
}

/** The last applied input sequence of an envelope (-1 before any); throws a RangeError when too short. */
export function envelopeSeq(bytes: Uint8Array): number {
  if (!(bytes instanceof Uint8Array) || bytes.length < ENVELOPE_HEADER) throw new RangeError('snapshot envelope too short')
  const s = (bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (bytes[3] << 24)) >>> 0
  return s === 0xffffffff ? -1 : s
}

/** A uint32 as 4 little-endian bytes (the ack). */
export function encodeTick(tick: number): Uint8Array {
  const t = tick >>> 0
  return new Uint8Array([t & 255, (t >>> 8) & 255, (t >>> 16) & 255, t >>> 24])
}

/** The uint32 of a 4-byte ack, or -1 when it is not 4 bytes. */
export function decodeTick(bytes: unknown): number {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 4) return -1
  return (bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (bytes[3] << 24)) >>> 0
}
