// Net benchmark (bytes, not time): netSnapshot20, the size of one snapshot for one client in a
// 20-car race in steady state. The server (20 driven hatchbacks, four-wheel at 1 kHz, round a
// 300 m / 60 m oval in three lanes, up to 30 m/s) steps at 60 Hz and sends a snapshot every third
// step (20 Hz); the client acknowledges each one and its acks reach the server 100 ms later, so
// each delta is against the snapshot of two sends before (what a 100 ms round trip gives). The
// client's own car carries its dynamic state. Value: the mean over 10 s after 5 s of racing;
// metrics: p95, max, and a full snapshot's size. Verified: every mirror within a millimetre of its
// server car after every snapshot, every car moved.
import { createWorld } from 'bitecs'
import { createSim, stadiumPath } from '../../dist/index.js'
import { createSnapshotDecoder, createSnapshotEncoder } from '../../dist/net/index.js'
import { slotOnPath } from '../scenes.mjs'

function race(count) {
  const sim = createSim(createWorld())
  const path = stadiumPath(300, 60, 2)
  const cars = []
  for (let i = 0; i < count; i++) {
    const offset = 3 * ((i % 3) - 1)
    const car = sim.addCar({ ...slotOnPath(path, i, count, offset), speed: 10 })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, path, { closed: true, lateralOffset: offset })
    cars.push(car)
  }
  return { sim, cars }
}

function measure() {
  const { sim, cars } = race(20)
  const start = cars.map((c) => sim.carState(c).position)
  const enc = createSnapshotEncoder(sim)
  const client = createSim(createWorld())
  const dec = createSnapshotDecoder(client)
  const acked = []
  const sizes = []
  let worstMm = 0
  for (let step = 1; step <= 15 * 60; step++) {
    sim.step(1 / 60)
    if (step % 3) continue
    const bytes = enc.encode(acked.length >= 2 ? acked[acked.length - 2] : undefined, { car: cars[0], lastInput: step })
    acked.push(dec.decode(bytes))
    if (step > 5 * 60) sizes.push(bytes.length)
    for (const car of cars) {
      const s = sim.carState(car).position, c = client.carState(dec.localCar(enc.carId(car))).position
      worstMm = Math.max(worstMm, 1000 * Math.hypot(s[0] - c[0], s[1] - c[1]))
    }
  }
  if (!(worstMm <= 1)) throw new Error(`a mirror strayed ${worstMm.toFixed(2)} mm from its server car`)
  cars.forEach((c, i) => {
    const p = sim.carState(c).position
    if (Math.hypot(p[0] - start[i][0], p[1] - start[i][1]) < 20) throw new Error(`car ${c} did not move`)
  })
  const full = enc.encode(undefined, { car: cars[0], lastInput: 1 }).length
  sizes.sort((a, b) => a - b)
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length
  const p95 = sizes[Math.floor(sizes.length * 0.95)]
  const max = sizes[sizes.length - 1]
  return {
    value: mean, unit: 'bytes',
    extra: `p95 ${p95} B, max ${max} B, full ${full} B, ${(mean * 20 / 1024).toFixed(2)} KB/s`,
    metrics: { p95, max, full, kbPerSecond: (mean * 20) / 1024 },
  }
}

export const cases = [{ id: 'netSnapshot20', unit: 'bytes', what: 'one snapshot for one client, 20 moving cars, 20 Hz, acks 100 ms late (mean)', measure }]
