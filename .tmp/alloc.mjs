import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { createSim } from '../dist/index.js'
import { createInterpolation, createSnapshotDecoder, createSnapshotEncoder } from '../dist/net/index.js'
const server = createSim(createWorld())
const cars = []
for (let i = 0; i < 20; i++) { const c = server.addCar({ position: [i * 10, 0], speed: 10 }); server.setInput(c, { gear: 1, throttle: 0.3, steer: 0.1 }); cars.push(c) }
const enc = createSnapshotEncoder(server), client = createSim(createWorld()), dec = createSnapshotDecoder(client), interp = createInterpolation(client)
let ack
for (let i = 0; i < 30; i++) { server.stepMany(1 / 60, 3); ack = dec.decode(enc.encode(ack)); interp.record(dec.time, i * 0.05) }
const locals = Int32Array.from(cars, (c) => dec.localCar(enc.carId(c)))
const poses = new Float64Array(20 * 6)
const times = Float64Array.from({ length: 64 }, (_, i) => 1.2 + i * 0.003)
const frames = (n) => { for (let f = 0; f < n; f++) for (let i = 0; i < 20; i++) interp.poseAt(locals[i], times[f & 63], poses, i * 6) }
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_used_size
frames(20000)
for (let k = 0; k < 3; k++) { const a = newSpace(); frames(2000); const b = newSpace(); console.log((b - a) / 2000) }
