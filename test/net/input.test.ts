// The input message: its round trip and quantisation, the bytes it refuses, and the server's receiver.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createWorld } from 'bitecs'
import { createSim, type CarInput } from '../../src/index'
import { createInputReceiver, decodeInput, encodeInput, INPUT_BYTES } from '../../src/net/index'

const rec = (o: Partial<CarInput> = {}): CarInput => ({ steer: 0, throttle: 0, brake: 0, handbrake: 0, clutch: 0, gear: 1, ...o })
const inputArb = fc.record({
  steer: fc.double({ min: -1, max: 1, noNaN: true }),
  throttle: fc.double({ min: 0, max: 1, noNaN: true }),
  brake: fc.double({ min: 0, max: 1, noNaN: true }),
  handbrake: fc.double({ min: 0, max: 1, noNaN: true }),
  clutch: fc.double({ min: 0, max: 1, noNaN: true }),
  gear: fc.integer({ min: -1, max: 16 }),
})

describe('the input message', () => {
  it('round-trips within its quantum (steer 1/32767, pedals 1/65535), gear and seq exactly, and is stable once quantised', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), inputArb, (seq, input) => {
      const bytes = encodeInput(seq, input)
      expect(bytes.length).toBe(INPUT_BYTES)
      const m = decodeInput(bytes)
      expect(m.seq).toBe(seq)
      expect(Math.abs(m.input.steer - input.steer)).toBeLessThanOrEqual(0.5 / 32767 + 1e-12)
      for (const k of ['throttle', 'brake', 'handbrake', 'clutch'] as const) expect(Math.abs(m.input[k] - input[k])).toBeLessThanOrEqual(0.5 / 65535 + 1e-12)
      expect(m.input.gear).toBe(input.gear)
      // what the client applies (the decoded record) encodes to the same bytes
      expect(encodeInput(seq, m.input)).toEqual(bytes)
    }))
  })

  it('clamps out-of-range values as setInput does, and refuses what setInput refuses', () => {
    const m = decodeInput(encodeInput(1, rec({ steer: 3, throttle: -1, brake: 2, gear: 40 })))
    expect(m.input).toEqual({ steer: 1, throttle: 0, brake: 1, handbrake: 0, clutch: 0, gear: 16 })
    expect(() => encodeInput(1, rec({ steer: NaN }))).toThrow(RangeError)
    expect(() => encodeInput(1, rec({ gear: 1.5 }))).toThrow(RangeError)
    expect(() => encodeInput(1, rec({ throttle: '1' as unknown as number }))).toThrow(TypeError)
    expect(() => encodeInput(1, { steer: 0 } as CarInput)).toThrow(/input.throttle is missing/)
    expect(() => encodeInput(1, { ...rec(), boost: 1 } as CarInput)).toThrow(/input.boost is not an input field/)
    expect(() => encodeInput(-1, rec())).toThrow(RangeError)
    expect(() => encodeInput(2 ** 32, rec())).toThrow(RangeError)
  })

  it('refuses malformed bytes with a RangeError: length, kind, version, steer and gear out of range', () => {
    const good = encodeInput(5, rec({ steer: -1 }))
    expect(() => decodeInput(good.slice(0, 16))).toThrow(/17 bytes/)
    expect(() => decodeInput(new Uint8Array([...good, 0]))).toThrow(RangeError)
    const at = (i: number, v: number) => { const b = good.slice(); b[i] = v; return b }
    expect(() => decodeInput(at(0, 0x48))).toThrow(/kind/)
    expect(() => decodeInput(at(1, 2))).toThrow(/version/)
    const steer = good.slice(); new DataView(steer.buffer).setInt16(6, -32768, true)
    expect(() => decodeInput(steer)).toThrow(/steer/)
    expect(() => decodeInput(at(16, 17))).toThrow(/gear/)
    expect(() => decodeInput(at(16, 0xfe))).toThrow(/gear/)
    expect(() => decodeInput('abc' as unknown as Uint8Array)).toThrow(TypeError)
    // every byte string is refused or decodes to an in-range record
    fc.assert(fc.property(fc.uint8Array({ minLength: 0, maxLength: 20 }), (bytes) => {
      let m
      try { m = decodeInput(bytes) } catch (e) { expect(e).toBeInstanceOf(RangeError); return }
      expect(Math.abs(m.input.steer)).toBeLessThanOrEqual(1)
      for (const v of Object.values(m.input)) expect(Number.isFinite(v)).toBe(true)
    }))
  })
})

describe('createInputReceiver', () => {
  it('applies one queued input per step, ignores stale ones, caps its queue and reports the last applied seq', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar()
    const rx = createInputReceiver(sim, car, { maxQueue: 3 })
    expect(rx.lastInput).toBe(-1)
    rx.apply() // nothing queued: nothing changes
    expect(sim.getInput(car).throttle).toBe(0)
    expect(rx.receive(encodeInput(0, rec({ throttle: 0.25 })))).toBe(true)
    expect(rx.receive(encodeInput(1, rec({ throttle: 0.5 })))).toBe(true)
    expect(rx.receive(encodeInput(1, rec({ throttle: 0.9 })))).toBe(false) // duplicate
    expect(rx.queued).toBe(2)
    const throttle = () => Math.round(sim.getInput(car).throttle * 1000) / 1000
    rx.apply()
    expect([rx.lastInput, throttle()]).toEqual([0, 0.25])
    rx.apply()
    expect([rx.lastInput, throttle()]).toEqual([1, 0.5])
    rx.apply() // empty: keeps the last input
    expect([rx.lastInput, throttle()]).toEqual([1, 0.5])
    for (let s = 2; s < 8; s++) rx.receive(encodeInput(s, rec({ throttle: s / 10 })))
    expect(rx.queued).toBe(3) // 5, 6, 7 kept
    rx.apply()
    expect(rx.lastInput).toBe(5)
    expect(() => rx.receive(new Uint8Array(3))).toThrow(RangeError)
    expect(rx.queued).toBe(2)
    expect(() => createInputReceiver(sim, car, { maxQueue: 0 })).toThrow(RangeError)
    expect(() => createInputReceiver(sim, car, { size: 3 } as object)).toThrow(/options.size is not an option/)
    rx.reset()
    expect([rx.lastInput, rx.queued]).toEqual([-1, 0])
    expect(rx.receive(encodeInput(0, rec()))).toBe(true)
  })
})
