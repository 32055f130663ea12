import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim } from '../../src/index'
import { createSnapshotDecoder, createSnapshotEncoder, decodeInput, encodeInput } from '../../src/net/index'

describe('net smoke', () => {
  it('round-trips an input and mirrors cars', () => {
    const m = decodeInput(encodeInput(7, { steer: 0.5, throttle: 1, brake: 0, handbrake: 0, clutch: 0, gear: 1 }))
    expect(m.seq).toBe(7)
    expect(m.input.steer).toBeCloseTo(0.5, 4)
    const server = createSim(createWorld())
    const a = server.addCar({ position: [10, 5], heading: 0.3, speed: 20 })
    server.addCar({ position: [-10, 5], heading: 1, speed: 10 })
    server.setInput(a, { throttle: 0.5 })
    const enc = createSnapshotEncoder(server)
    const client = createSim(createWorld())
    const dec = createSnapshotDecoder(client)
    let ack: number | undefined
    const sizes: number[] = []
    for (let i = 0; i < 30; i++) {
      server.step(1 / 60)
      if (i % 3 === 2) {
        const bytes = enc.encode(ack, { car: a, lastInput: 3 })
        sizes.push(bytes.length)
        ack = dec.decode(bytes)
      }
    }
    const local = dec.ownCar
    expect(local).toBeGreaterThanOrEqual(0)
    const s = server.carState(a), c = client.carState(local)
    expect(Math.abs(s.position[0] - c.position[0])).toBeLessThan(1e-3)
    expect(dec.lastInput).toBe(3)
    console.log(sizes)
  })
})
