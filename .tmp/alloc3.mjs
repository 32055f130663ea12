import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { createSim, box } from '../dist/index.js'
const YOUNG = new Set(['new_space', 'new_large_object_space'])
function used() { let n = v8.getHeapStatistics().external_memory; for (const s of v8.getHeapSpaceStatistics()) if (YOUNG.has(s.space_name)) n += s.space_used_size; return n }
const lod = process.argv[2]
const sim = createSim(createWorld())
for (let i = 0; i < 12; i++) sim.addCollider(box(4, 0.3, 1), { position: [-60 + 12 * i, 3, 1] })
for (let i = 0; i < 4; i++) { const c = sim.addCar({ position: [-50 + 10 * i, 0], speed: 10, lod }); sim.setInput(c, { throttle: 0.3, gear: 1, steer: 0.01 }) }
for (let i = 0; i < 2000; i++) sim.step(1 / 60)
console.log('--- measured')
const a = used()
for (let i = 0; i < 60; i++) sim.step(1 / 60)
console.log(lod, ((used() - a) / 60).toFixed(0), 'B/step')
