/**
 * Client-side prediction of the player's own car, and the server's input receiver that pairs with
 * it. The client applies each input at once (one input per fixed step, numbered), sends it, and
 * keeps it until the server says it applied it. The server applies one received input per step
 * and reports the last one applied in each snapshot (encode's extras.lastInput). On a snapshot the
 * decoder has put the car back to the server's state at that step; reconcile replays the inputs
 * the server had not applied yet, one step each, and the car is again where the client predicts.
 */
import type { CarInput, Sim } from '../index'
import { describe, nonNegativeInteger, optionKeys, optionsObject, positiveNumber } from '../validate'
import { decodeInputInto, encodeInput, MAX_SEQ } from './input'
import { InputRing } from './input-ring'

/** Options of createPrediction. */
export interface PredictionOptions {
  /** The fixed step the server and the client step with, s (default 1/60): each replayed input takes one. */
  dt?: number
  /** Most inputs kept for replay (default 240: 4 s at 60 Hz); older ones are dropped. */
  maxPending?: number
}

/** The prediction of one car. */
export interface Prediction {
  /** The predicted car (a local entity). */
  readonly car: number
  /** The sequence number of the last input made, or −1. */
  readonly seq: number
  /** Inputs not yet acknowledged by the server. */
  readonly pending: number
  /**
   * Merges `input` into the car's current input record, applies it (quantised exactly as the
   * server will decode it) and returns the input message to send. Call once per fixed step, before
   * sim.step(dt).
   */
  input(input: Partial<CarInput>): Uint8Array
  /**
   * After the decoder applied a snapshot (the car is at the server's state): drops the inputs up
   * to `lastInput` (the decoder's lastInput; −1: none applied) and replays the rest, one
   * sim.step(dt) each. Stepping runs the client's whole sim: keep other cars frozen (the decoder does).
   */
  reconcile(lastInput: number): void
}

const OPTION_KEYS = optionKeys<PredictionOptions>({ dt: true, maxPending: true })
const INPUT_KEYS = ['steer', 'throttle', 'brake', 'handbrake', 'clutch', 'gear'] as const

/** Creates the prediction of `car` in the client's `sim` (see Prediction). */
export function createPrediction(sim: Sim, car: number, options?: PredictionOptions): Prediction {
  const o = optionsObject<PredictionOptions>(options, 'options', OPTION_KEYS)
  const dt = o.dt === undefined ? 1 / 60 : positiveNumber(o.dt, 'options.dt')
  const cap = o.maxPending === undefined ? 240 : nonNegativeInteger(o.maxPending, 'options.maxPending')
  if (cap < 1) throw new RangeError(`options.maxPending must be at least 1, got ${cap}`)
  const current = sim.getInput(car) // also checks `car`
  const pending = new InputRing(cap)
  let seq = -1
  const replayed: CarInput = { steer: 0, throttle: 0, brake: 0, handbrake: 0, clutch: 0, gear: 0 }

  function input(partial: Partial<CarInput>): Uint8Array {
    if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) throw new TypeError(`input must be an object like { steer, throttle }, got ${describe(partial)}`)
    for (const k of Object.keys(partial)) {
      if (!(INPUT_KEYS as readonly string[]).includes(k)) throw new RangeError(`input.${k} is not an input field (${INPUT_KEYS.join(', ')})`)
    }
    const next = { ...current, ...partial } as CarInput
    for (const k of INPUT_KEYS) if (next[k] === undefined) next[k] = current[k]
    if (seq >= MAX_SEQ) throw new RangeError(`input sequence numbers are used up (${MAX_SEQ})`)
    const bytes = encodeInput(seq + 1, next) // validates every field
    decodeInputInto(bytes, current)
    sim.setInput(car, current)
    seq++
    pending.push(seq, current)
    return bytes
  }

  function reconcile(lastInput: number): void {
    if (lastInput !== -1) nonNegativeInteger(lastInput, 'lastInput')
    // a server ahead of this client (a reconnect with a fresh prediction): continue after its count
    if (lastInput > seq) seq = lastInput
    while (pending.count > 0 && pending.seqAt(0) <= lastInput) pending.shift()
    for (let k = 0; k < pending.count; k++) {
      pending.inputAt(k, replayed)
      sim.setInput(car, replayed)
      sim.step(dt)
    }
    // the car keeps the latest input (the decoder left the client's record in place)
    sim.setInput(car, current)
  }

  return {
    car,
    get seq() { return seq },
    get pending() { return pending.count },
    input,
    reconcile,
  }
}

/** Options of createInputReceiver. */
export interface InputReceiverOptions {
  /** Most inputs queued (default 8); beyond it the oldest are dropped, so a backlog never delays the car for long. */
  maxQueue?: number
}

/** The server side of one client's inputs. */
export interface InputReceiver {
  /** The car the inputs drive (a server entity). */
  readonly car: number
  /** The sequence number of the input last applied to the car (pass it as encode's extras.lastInput), or −1. */
  readonly lastInput: number
  /** Inputs received, not yet applied. */
  readonly queued: number
  /**
   * Decodes an input message and queues it; an input not newer than the last one received is
   * ignored (returns false). Malformed bytes: a RangeError (TypeError for a non-Uint8Array), nothing queued.
   */
  receive(bytes: Uint8Array): boolean
  /** Call once before each sim.step: applies the next queued input to the car (none queued: the car keeps its input). */
  apply(): void
  /** Forgets queued inputs and the sequence count (a client reconnecting with a new prediction starts from 0). */
  reset(): void
}

const RECEIVER_KEYS = optionKeys<InputReceiverOptions>({ maxQueue: true })

/** Creates the receiver of one client's input messages for `car` of the server's `sim` (see InputReceiver). */
export function createInputReceiver(sim: Sim, car: number, options?: InputReceiverOptions): InputReceiver {
  const o = optionsObject<InputReceiverOptions>(options, 'options', RECEIVER_KEYS)
  const cap = o.maxQueue === undefined ? 8 : nonNegativeInteger(o.maxQueue, 'options.maxQueue')
  if (cap < 1) throw new RangeError(`options.maxQueue must be at least 1, got ${cap}`)
  sim.getInput(car) // checks `car`
  const queue = new InputRing(cap)
  let lastReceived = -1
  let lastApplied = -1
  const scratch: CarInput = { steer: 0, throttle: 0, brake: 0, handbrake: 0, clutch: 0, gear: 0 }

  return {
    car,
    get lastInput() { return lastApplied },
    get queued() { return queue.count },
    receive(bytes) {
      const s = decodeInputInto(bytes, scratch)
      if (s <= lastReceived) return false
      lastReceived = s
      queue.push(s, scratch)
      return true
    },
    apply() {
      if (queue.count === 0) return
      queue.inputAt(0, scratch)
      sim.setInput(car, scratch)
      lastApplied = queue.seqAt(0)
      queue.shift()
    },
    reset() {
      queue.clear()
      lastReceived = -1
      lastApplied = -1
    },
  }
}
