// Fuzzing the decoders: random, truncated and bit-flipped bytes are refused with a RangeError and
// change nothing in the sim (a full state dump before and after), or, when they happen to form a
// valid snapshot, leave a sim that still steps to finite states.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createInputReceiver, createSnapshotDecoder, createSnapshotEncoder, decodeInput, encodeInput } from '../../src/net/index'
import { clientSim, dump, raceServer } from './scene'

// A stream the client has decoded up to `ack`, and the server's next snapshots (full and delta).
const { sim: server, cars } = raceServer(5)
const enc = createSnapshotEncoder(server)
server.stepMany(1 / 60, 60)
const firstFull = enc.encode(undefined, { car: cars[0], lastInput: 10 })
server.stepMany(1 / 60, 3)
const nextFull = enc.encode(undefined, { car: cars[0], lastInput: 12 })
const ackTick = 60
server.stepMany(1 / 60, 3)
const delta = enc.encode(ackTick, { car: cars[0], lastInput: 14 })

/** A client that decoded the first snapshot (so deltas against it have their baseline). */
function client() {
  const sim = clientSim()
  const dec = createSnapshotDecoder(sim)
  dec.decode(firstFull)
  return { sim, dec }
}

/** The dump of every fresh client (each decodes the same first snapshot into the same state). */
const before = dump(client().sim)

/** Decodes `bytes`: refused → RangeError and the same dump; accepted → every car finite after a step. */
function check(bytes: Uint8Array): 'refused' | 'accepted' {
  const { sim, dec } = client()
  const state = [dec.tick, dec.time, dec.ownCar, dec.lastInput]
  try {
    dec.decode(bytes)
  } catch (e) {
    expect(e).toBeInstanceOf(RangeError)
    expect(dump(sim)).toBe(before)
    expect([dec.tick, dec.time, dec.ownCar, dec.lastInput]).toEqual(state)
    return 'refused'
  }
  sim.step(1 / 60)
  for (let eid = 0; eid < 64; eid++) {
    let s
    try { s = sim.carState(eid) } catch { continue }
    expect(Number.isFinite(s.position[0] + s.position[1] + s.position[2] + s.heading + s.speed + s.engineRpm)).toBe(true)
  }
  return 'accepted'
}

describe('snapshot decoder fuzz', () => {
  it('decodes the unharmed messages (the fuzz starts from valid bytes)', () => {
    expect(check(nextFull)).toBe('accepted')
    expect(check(delta)).toBe('accepted')
  })

  it('refuses random bytes, changing nothing', () => {
    let refused = 0
    fc.assert(fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), (bytes) => { if (check(bytes) === 'refused') refused++ }), { numRuns: 100 })
    expect(refused).toBe(100)
    // random bytes behind a valid kind and version byte
    fc.assert(fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), (bytes) => { check(new Uint8Array([0x53, 1, ...bytes])) }), { numRuns: 100 })
  })

  it('refuses every truncation and every extension of a full snapshot and of a delta', () => {
    for (const msg of [nextFull, delta]) {
      for (let n = 0; n < msg.length; n++) expect(check(msg.subarray(0, n))).toBe('refused')
      expect(check(new Uint8Array([...msg, 0]))).toBe('refused')
    }
  })

  it('refuses bit-flipped bytes or decodes them to a sim that still steps (each bit of the delta, one of each byte of the full one)', () => {
    let refused = 0, total = 0
    for (const msg of [nextFull, delta]) {
      for (let i = 0; i < msg.length; i++) {
        for (const bit of msg === delta ? [0, 1, 2, 3, 4, 5, 6, 7] : [i % 8]) {
          const b = msg.slice()
          b[i] ^= 1 << bit
          if (check(b) === 'refused') refused++
          total++
        }
      }
    }
    // most flips break the structure; the rest move a field within its bounds
    expect(refused).toBeGreaterThan(total / 4)
  })

  it('holds for random multi-byte corruption (property)', () => {
    fc.assert(fc.property(fc.constantFrom(nextFull, delta), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 6 }), (msg, edits) => {
      const b = msg.slice()
      for (const [i, x] of edits) b[i % b.length] ^= x
      check(b)
    }), { numRuns: 150 })
  })
})

describe('input decoder fuzz', () => {
  it('refuses malformed input messages without touching the receiver or the car', () => {
    const sim = clientSim()
    const car = sim.addCar()
    const rx = createInputReceiver(sim, car)
    rx.receive(encodeInput(3, { steer: 0.1, throttle: 0.2, brake: 0, handbrake: 0, clutch: 0, gear: 1 }))
    const good = encodeInput(4, { steer: -0.5, throttle: 1, brake: 0, handbrake: 0, clutch: 0, gear: 2 })
    fc.assert(fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (bytes, i, x) => {
      const flipped = good.slice()
      flipped[i % flipped.length] ^= x
      for (const b of [bytes, flipped, good.subarray(0, i % 17)]) {
        const before = [rx.queued, rx.lastInput, JSON.stringify(sim.getInput(car))]
        let ok = true
        try { decodeInput(b) } catch (e) { expect(e).toBeInstanceOf(RangeError); ok = false }
        if (ok) continue
        expect(() => rx.receive(b)).toThrow(RangeError)
        expect([rx.queued, rx.lastInput, JSON.stringify(sim.getInput(car))]).toEqual(before)
      }
    }), { numRuns: 500 })
  })
})
