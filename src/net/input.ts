/**
 * The input message, client to server: one car input record with its sequence number, 17 bytes.
 *
 *   offset 0  u8   0x49 ('I'), the message kind
 *   offset 1  u8   1, the format version
 *   offset 2  u32  sequence number, little-endian
 *   offset 6  i16  steer × 32767, in [−32767, 32767]
 *   offset 8  u16  throttle × 65535, then brake, handbrake, clutch (offsets 10, 12, 14)
 *   offset 16 i8   gear, in [−1, MAX_GEAR]
 *
 * Pedals and steer are quantised, so a client that predicts its car applies the decoded record
 * (what the server will apply), not the one it encoded: createPrediction does so.
 */
import type { CarInput } from '../index'
import { describe } from '../validate'
import { assertBytes } from './bytes'

/** Byte 0 of an input message. */
export const INPUT_KIND = 0x49
/** The input format version written and read. */
export const INPUT_VERSION = 1
/** The length of an input message, bytes. */
export const INPUT_BYTES = 17
/** Largest gear the input message carries (a definition has at most 16; setInput clamps to the car's own). */
export const MAX_GEAR = 16
/** Largest sequence number (a u32). */
export const MAX_SEQ = 0xffffffff

const STEER_SCALE = 32767
const PEDAL_SCALE = 65535
const PEDALS = ['throttle', 'brake', 'handbrake', 'clutch'] as const
const FIELDS = ['steer', 'throttle', 'brake', 'handbrake', 'clutch', 'gear'] as const

/** A decoded input message. */
export interface InputMessage {
  /** The sequence number the client gave it. */
  seq: number
  /** The input record, as quantised on the wire. */
  input: CarInput
}

function field(o: Record<string, unknown>, k: string): number {
  if (!Object.prototype.hasOwnProperty.call(o, k)) throw new TypeError(`input.${k} is missing (an input message carries ${FIELDS.join(', ')})`)
  const v = o[k]
  if (typeof v !== 'number') throw new TypeError(`input.${k} must be a number, got ${describe(v)}`)
  if (!Number.isFinite(v)) throw new RangeError(`input.${k} must be finite, got ${v}`)
  return v
}

const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v)

/**
 * Encodes input record `input` (all six fields; values clamped into range as setInput does, gear
 * an integer) with sequence number `seq` (an integer in [0, 2^32 − 1]) into a new 17-byte message.
 */
export function encodeInput(seq: number, input: CarInput): Uint8Array {
  if (typeof seq !== 'number') throw new TypeError(`seq must be a number, got ${describe(seq)}`)
  if (!Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ) throw new RangeError(`seq must be an integer in [0, ${MAX_SEQ}], got ${seq}`)
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new TypeError(`input must be an object like { steer, throttle, brake, handbrake, clutch, gear }, got ${describe(input)}`)
  const o = input as unknown as Record<string, unknown>
  for (const k of Object.keys(o)) {
    if (!(FIELDS as readonly string[]).includes(k)) throw new RangeError(`input.${k} is not an input field (${FIELDS.join(', ')})`)
  }
  const steer = field(o, 'steer')
  const pedals = PEDALS.map((k) => field(o, k))
  const gear = field(o, 'gear')
  if (!Number.isInteger(gear)) throw new RangeError(`input.gear must be an integer, got ${gear}`)
  const out = new Uint8Array(INPUT_BYTES)
  const view = new DataView(out.buffer)
  out[0] = INPUT_KIND
  out[1] = INPUT_VERSION
  view.setUint32(2, seq, true)
  view.setInt16(6, Math.round(clamp(steer, -1, 1) * STEER_SCALE), true)
  for (let i = 0; i < 4; i++) view.setUint16(8 + 2 * i, Math.round(clamp(pedals[i], 0, 1) * PEDAL_SCALE), true)
  view.setInt8(16, clamp(gear, -1, MAX_GEAR))
  return out
}

/** Decodes an input message; a RangeError (TypeError for a non-Uint8Array) refuses malformed bytes. */
export function decodeInput(bytes: Uint8Array): InputMessage {
  const input: CarInput = { steer: 0, throttle: 0, brake: 0, handbrake: 0, clutch: 0, gear: 0 }
  const seq = decodeInputInto(bytes, input)
  return { seq, input }
}

/** Decodes an input message into `out` (allocation-free); returns its sequence number. Refuses as decodeInput. */
export function decodeInputInto(bytes: Uint8Array, out: CarInput): number {
  assertBytes(bytes, 'bytes')
  if (bytes.length !== INPUT_BYTES) throw new RangeError(`an input message is ${INPUT_BYTES} bytes, got ${bytes.length}`)
  if (bytes[0] !== INPUT_KIND) throw new RangeError(`input message kind must be 0x${INPUT_KIND.toString(16)}, got 0x${bytes[0].toString(16)}`)
  if (bytes[1] !== INPUT_VERSION) throw new RangeError(`input message version must be ${INPUT_VERSION}, got ${bytes[1]}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const steer = view.getInt16(6, true)
  if (steer < -STEER_SCALE) throw new RangeError(`input message steer must be in [-${STEER_SCALE}, ${STEER_SCALE}], got ${steer}`)
  const gear = view.getInt8(16)
  if (gear < -1 || gear > MAX_GEAR) throw new RangeError(`input message gear must be in [-1, ${MAX_GEAR}], got ${gear}`)
  out.steer = steer / STEER_SCALE
  out.throttle = view.getUint16(8, true) / PEDAL_SCALE
  out.brake = view.getUint16(10, true) / PEDAL_SCALE
  out.handbrake = view.getUint16(12, true) / PEDAL_SCALE
  out.clutch = view.getUint16(14, true) / PEDAL_SCALE
  out.gear = gear
  return view.getUint32(2, true)
}
