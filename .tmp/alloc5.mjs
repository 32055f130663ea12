import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { createSim, box } from '../dist/index.js'
const YOUNG = new Set(['new_space', 'new_large_object_space'])
function used() { let n = v8.getHeapStatistics().external_memory; for (const s of v8.getHeapSpaceStatistics()) if (YOUNG.has(s.space_name)) n += s.space_used_size; return n }
const lod = process.argv[2], tall = process.argv[3] === 'tall'
const sim = createSim(createWorld())
sim.addCollider(box(3000, 3, tall ? 1 : 0.05), { position: [0, tall ? 0.3 : 0, tall ? 1 : 0.05] })
const cars = []
for (let i = 0; i < 4; i++) { const c = sim.addCar({ position: [-1000 + 10 * i, 0], speed: 10, lod }); sim.setInput(c, { throttle: 0.2, gear: 1, steer: 0.0 }); cars.push(c) }
for (let i = 0; i < 3000; i++) sim.step(1 / 60)
const a = used()
for (let i = 0; i < 100; i++) sim.step(1 / 60)
console.log(lod, tall ? 'wall' : 'platform', ((used() - a) / 100 / 4).toFixed(0), 'B/car/step', sim.carState(cars[0]).position.map((v) => v.toFixed(1)).join(' '))
