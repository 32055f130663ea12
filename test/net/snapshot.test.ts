// Snapshots: full round trips within the quanta, deltas exact against full snapshots and smaller,
// cars added, removed and recycled, baselines the decoder does not hold, options.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { presets, type Sim } from '../../src/index'
import { createSnapshotDecoder, createSnapshotEncoder, DYNAMIC_QUANTA, POSE_QUANTA } from '../../src/net/index'
import { clientSim, dump, raceServer } from './scene'

const half = (q: number) => q / 2 + 1e-9

/** Checks mirror `local` of `client` against server car `car`: every sent field within half its quantum. */
function expectWithinQuanta(server: Sim, car: number, client: Sim, local: number, own: boolean): void {
  const s = server.carState(car), c = client.carState(local)
  expect(Math.abs(c.position[0] - s.position[0])).toBeLessThanOrEqual(half(POSE_QUANTA[0]))
  expect(Math.abs(c.position[1] - s.position[1])).toBeLessThanOrEqual(half(POSE_QUANTA[1]))
  expect(Math.abs(c.position[2] - s.position[2])).toBeLessThanOrEqual(half(POSE_QUANTA[8]))
  expect(Math.abs(c.heading - s.heading)).toBeLessThanOrEqual(half(POSE_QUANTA[2]))
  expect(Math.abs(c.velocity[0] - s.velocity[0])).toBeLessThanOrEqual(half(POSE_QUANTA[3]) + 1e-9)
  expect(Math.abs(c.velocity[1] - s.velocity[1])).toBeLessThanOrEqual(half(POSE_QUANTA[4]) + 1e-9)
  expect(Math.abs(c.yawRate - s.yawRate)).toBeLessThanOrEqual(half(POSE_QUANTA[5]))
  expect(Math.abs(c.roll - s.roll)).toBeLessThanOrEqual(half(POSE_QUANTA[6]))
  expect(Math.abs(c.pitch - s.pitch)).toBeLessThanOrEqual(half(POSE_QUANTA[7]))
  expect(c.gear).toBe(s.gear)
  expect(client.getLod(local).level).toBe(own ? 'full' : 'frozen')
  if (!own) return
  expect(Math.abs(c.speed - s.speed)).toBeLessThanOrEqual(half(DYNAMIC_QUANTA[0]))
  for (let w = 0; w < 4; w++) expect(Math.abs(c.wheelSpeeds[w] - s.wheelSpeeds[w])).toBeLessThanOrEqual(half(DYNAMIC_QUANTA[9]))
  expect(Math.abs(c.engineRpm - s.engineRpm)).toBeLessThanOrEqual(half(DYNAMIC_QUANTA[4]) * 30 / Math.PI + 1e-9)
  expect(Math.abs(c.time - s.time)).toBeLessThanOrEqual(half(DYNAMIC_QUANTA[7]))
}

describe('snapshot round trips', () => {
  it('mirrors every car of a race within half a quantum of each field; the own car whole, the others frozen', () => {
    const { sim: server, cars } = raceServer(6)
    server.stepMany(1 / 60, 240)
    const enc = createSnapshotEncoder(server)
    const client = clientSim()
    const dec = createSnapshotDecoder(client)
    const tick = dec.decode(enc.encode(undefined, { car: cars[2], lastInput: 41 }))
    expect(tick).toBe(240)
    expect([dec.tick, dec.time, dec.lastInput]).toEqual([240, server.time, 41])
    expect(dec.ownCar).toBe(dec.localCar(enc.carId(cars[2])))
    for (const car of cars) {
      const local = dec.localCar(enc.carId(car))
      expect(dec.serverCar(local)).toBe(enc.carId(car))
      expectWithinQuanta(server, car, client, local, car === cars[2])
    }
  })

  it('holds for random car states (property): positions to ±1000 km, any heading, speeds to 70 m/s', () => {
    const server = clientSim()
    const car = server.addCar()
    const other = server.addCar()
    server.step(1 / 60)
    const base = server.snapshot(car)
    fc.assert(fc.property(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -70, max: 70, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }),
      fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -0.2, max: 0.2, noNaN: true }), fc.double({ min: -200, max: 200, noNaN: true }),
      (x, y, heading, vx, vy, yawRate, roll, wheel) => {
        const snap = structuredClone(base)
        Object.assign(snap.state, { x, y, heading, vx, vy, yawRate, roll, pitch: -roll / 2, speed: vx, wheelSpeed: [wheel, -wheel / 3, wheel / 2, 0] })
        server.restore(car, snap)
        server.restore(other, { ...snap, state: { ...snap.state, x: -x, heading: -heading } })
        const client = clientSim()
        const enc = createSnapshotEncoder(server)
        const dec = createSnapshotDecoder(client)
        dec.decode(enc.encode(undefined, { car }))
        expectWithinQuanta(server, car, client, dec.localCar(enc.carId(car)), true)
        expectWithinQuanta(server, other, client, dec.localCar(enc.carId(other)), false)
      }), { numRuns: 60 })
  })
})

describe('deltas', () => {
  it('decode to exactly what a full snapshot of the same tick gives, and are far smaller (20 Hz, acks 100 ms late)', () => {
    const { sim: server, cars } = raceServer(10)
    const encDelta = createSnapshotEncoder(server)
    const encFull = createSnapshotEncoder(server)
    const clientA = clientSim(), clientB = clientSim()
    const decA = createSnapshotDecoder(clientA), decB = createSnapshotDecoder(clientB)
    const acks: number[] = []
    let deltaBytes = 0, fullBytes = 0, n = 0
    for (let step = 1; step <= 600; step++) {
      server.step(1 / 60)
      if (step % 3) continue
      const extras = { car: cars[0], lastInput: step }
      const d = encDelta.encode(acks.length >= 2 ? acks[acks.length - 2] : undefined, extras)
      const f = encFull.encode(undefined, extras)
      acks.push(decA.decode(d))
      decB.decode(f)
      if (step > 60) { deltaBytes += d.length; fullBytes += f.length; n++ }
      for (const car of cars) {
        const a = clientA.snapshot(decA.localCar(encDelta.carId(car)))
        const b = clientB.snapshot(decB.localCar(encFull.carId(car)))
        expect(a.state).toEqual(b.state)
        expect(a.level).toBe(b.level)
      }
      expect(decA.lastInput).toBe(step)
    }
    // a delta costs well under half a full snapshot
    expect(deltaBytes / n).toBeLessThan(0.5 * (fullBytes / n))
    expect(deltaBytes / n).toBeLessThan(10 * 16 + 40)
  })

  it('leaves cars at rest out of a delta entirely', () => {
    const server = clientSim()
    for (let i = 0; i < 20; i++) server.addCar({ position: [i * 10, 0] })
    server.stepMany(1 / 60, 120) // settle on the springs
    const enc = createSnapshotEncoder(server)
    const dec = createSnapshotDecoder(clientSim())
    const full = enc.encode()
    const t = dec.decode(full)
    server.stepMany(1 / 60, 3)
    const delta = enc.encode(t)
    expect(full.length).toBeGreaterThan(20 * 4)
    expect(delta.length).toBeLessThan(24) // header only
    expect(dec.decode(delta)).toBe(t + 3)
  })

  it('adds and removes mirror cars, also when the server recycles an entity id at once, with another definition', () => {
    const defs = [presets.hatchback, presets.van]
    const { sim: server, cars } = raceServer(4)
    const enc = createSnapshotEncoder(server, { definitions: defs })
    const client = clientSim()
    const dec = createSnapshotDecoder(client, { definitions: defs })
    let ack = dec.decode(enc.encode())
    const oldId = enc.carId(cars[1])
    const oldLocal = dec.localCar(oldId)
    server.remove(cars[1])
    const van = server.addCar({ definition: presets.van, position: [5, 5], heading: 1 })
    expect(van).toBe(cars[1]) // recycled at once
    server.stepMany(1 / 60, 3)
    ack = dec.decode(enc.encode(ack))
    expect(dec.localCar(oldId)).toBe(-1)
    const newId = enc.carId(van)
    expect(newId).not.toBe(oldId)
    const local = dec.localCar(newId)
    expect(client.carDefinition(local).name).toBe('van')
    expectWithinQuanta(server, van, client, local, false)
    expect(client.components.Car.x.length).toBeGreaterThan(0)
    // the old mirror is gone (its local id may be the new mirror's)
    expect(oldLocal === local || !(() => { try { client.carState(oldLocal); return true } catch { return false } })()).toBe(true)
    server.remove(cars[0])
    server.stepMany(1 / 60, 3)
    dec.decode(enc.encode(ack))
    expect(dec.localCar(enc.carId(cars[2]))).toBeGreaterThanOrEqual(0)
    let mirrors = 0
    for (let eid = 0; eid < 64; eid++) { try { client.carState(eid); mirrors++ } catch { /* none */ } }
    expect(mirrors).toBe(3)
  })

  it('falls back to a full snapshot for an ack it does not hold; the decoder refuses a delta whose baseline it lacks, changing nothing', () => {
    const { sim: server, cars } = raceServer(3)
    const enc = createSnapshotEncoder(server, { history: 2 })
    const client = clientSim()
    const dec = createSnapshotDecoder(client)
    const first = dec.decode(enc.encode(undefined, { car: cars[0] }))
    server.step(1 / 60)
    const t2 = dec.decode(enc.encode(first))
    server.step(1 / 60)
    const lost = enc.encode(t2) // never reaches the client
    server.step(1 / 60)
    const delta = enc.encode(dec.decode(lost))
    server.step(1 / 60)
    const other = createSnapshotDecoder(clientSim())
    const before = dump(client)
    const fresh = createSnapshotDecoder(client) // a decoder without that baseline
    expect(() => fresh.decode(delta)).toThrow(/does not hold/)
    expect(dump(client)).toBe(before)
    // history 2: the first tick is gone, so acking it gets a full snapshot, which anyone decodes
    const full = enc.encode(first)
    expect(full.length).toBeGreaterThan(delta.length)
    expect(other.decode(full)).toBe(server.steps)
    // a stale snapshot is checked, not applied; the tick to acknowledge stays the last applied
    const now = dump(client)
    const latest = dec.tick
    expect(dec.decode(lost)).toBe(latest)
    expect(dump(client)).toBe(now)
  })

  it('forgets a mirror the user removes, never taking its recycled id for it, and mirrors the car again', () => {
    const { sim: server, cars } = raceServer(2)
    const enc = createSnapshotEncoder(server)
    const client = clientSim()
    const dec = createSnapshotDecoder(client)
    let ack = dec.decode(enc.encode())
    const id = enc.carId(cars[0])
    const mirror = dec.localCar(id)
    client.remove(mirror)
    const mine = client.addCar({ position: [100, 100] }) // the user's own car takes the recycled id
    expect(mine).toBe(mirror)
    expect([dec.localCar(id), dec.serverCar(mine)]).toEqual([-1, -1])
    server.stepMany(1 / 60, 3)
    ack = dec.decode(enc.encode(ack))
    expect(client.carState(mine).position[0]).toBe(100) // untouched
    const again = dec.localCar(id)
    expect(again).not.toBe(mine)
    expectWithinQuanta(server, cars[0], client, again, false)
    dec.dispose()
  })

  it('moves the own-car role: the old own car becomes a frozen mirror, the new one runs at the server\'s level and rate', () => {
    const { sim: server, cars } = raceServer(3)
    const enc = createSnapshotEncoder(server)
    const client = clientSim()
    const dec = createSnapshotDecoder(client)
    let ack = dec.decode(enc.encode(undefined, { car: cars[0] }))
    const a = dec.localCar(enc.carId(cars[0])), b = dec.localCar(enc.carId(cars[1]))
    expect([dec.ownCar, client.getLod(a).level, client.getLod(b).level]).toEqual([a, 'full', 'frozen'])
    server.stepMany(1 / 60, 3)
    ack = dec.decode(enc.encode(ack, { car: cars[1] }))
    expect([dec.ownCar, client.getLod(a).level, client.getLod(b).level]).toEqual([b, 'frozen', 'full'])
    expectWithinQuanta(server, cars[1], client, b, true)
    // the own car follows the server's level and rate (its prediction must run the same model)
    server.setLod(cars[1], 'singleTrack', 240)
    server.stepMany(1 / 60, 3)
    ack = dec.decode(enc.encode(ack, { car: cars[1] }))
    expect(client.getLod(b)).toEqual({ level: 'singleTrack', hz: 240 })
    expect(client.snapshot(b).model).toBe('singleTrack')
    server.setLod(cars[1], 'frozen')
    server.stepMany(1 / 60, 3)
    ack = dec.decode(enc.encode(ack, { car: cars[1] }))
    expect(client.getLod(b).level).toBe('frozen')
    server.setLod(cars[1], 'full')
    server.stepMany(1 / 60, 3)
    ack = dec.decode(enc.encode(ack, { car: cars[1] }))
    expect(client.getLod(b)).toEqual(server.getLod(cars[1]))
    expect(client.snapshot(b).model).toBe('fourWheel')
    expectWithinQuanta(server, cars[1], client, b, true)
    server.stepMany(1 / 60, 3)
    dec.decode(enc.encode(ack))
    expect([dec.ownCar, client.getLod(b).level]).toEqual([-1, 'frozen'])
  })

  it('refuses bad arguments: unknown options, a car outside the definitions, acks and extras of the wrong kind', () => {
    const server = clientSim()
    expect(() => createSnapshotEncoder(server, { size: 1 } as object)).toThrow(/options.size is not an option/)
    expect(() => createSnapshotDecoder(server, { history: 0 })).toThrow(RangeError)
    expect(() => createSnapshotEncoder(server, { definitions: [] })).toThrow(RangeError)
    expect(() => createSnapshotEncoder(server, { definitions: [{ name: 'x' }] as never })).toThrow(/options.definitions\[0\]/)
    const enc = createSnapshotEncoder(server)
    server.addCar({ definition: presets.sportsCar })
    expect(() => enc.encode()).toThrow(/not in the encoder's definitions/)
    const enc2 = createSnapshotEncoder(server, { definitions: [presets.sportsCar] })
    expect(() => enc2.encode(-1)).toThrow(RangeError)
    expect(() => enc2.encode(undefined, { car: 99 })).toThrow(/not a car/)
    expect(() => enc2.encode(undefined, { lastInput: 2 ** 32 })).toThrow(RangeError)
    expect(() => enc2.encode(undefined, { ack: 1 } as object)).toThrow(/extras.ack is not an option/)
    expect(() => createSnapshotDecoder(clientSim()).decode([1, 2] as unknown as Uint8Array)).toThrow(TypeError)
    enc2.dispose()
    expect(() => enc2.encode()).toThrow(/disposed/)
  })
})
