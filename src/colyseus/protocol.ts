/** The room's messages on top of pitlane/net's: numeric Colyseus message types (one byte on the wire). */

/** Client → server: a pitlane/net input message (bytes). */
export const MSG_INPUT = 1
/** Client → server: the tick of the latest snapshot applied, a uint32 (4 bytes, little-endian). */
export const MSG_ACK = 2
/** Server → client: a pitlane/net snapshot (bytes). */
export const MSG_SNAPSHOT = 1
/** Server → client: the Welcome (JSON) on joining and reconnecting. */
export const MSG_WELCOME = 2
/** Server → client: the RaceReport (JSON), a few times a second and on every phase change. */
export const MSG_RACE = 3

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
