import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { createSim, box, presets } from '../dist/index.js'
const YOUNG = new Set(['new_space', 'new_large_object_space'])
function used() { let n = v8.getHeapStatistics().external_memory; for (const s of v8.getHeapSpaceStatistics()) if (YOUNG.has(s.space_name)) n += s.space_used_size; return n }
const sim = createSim(createWorld())
for (let i = 0; i < 40; i++) sim.addCollider(box(0.3, 30, 1), { position: [i * 40, 0, 1] })
sim.addCar({ position: [0, -50] }); const car = sim.addCar({ definition: presets[process.argv[3]], position: [-20, 0], speed: 15, lod: process.argv[2] })
sim.setInput(car, { throttle: 0.25, gear: 1 })
for (let i = 0; i < 3000; i++) {
  const a = used(); sim.step(1 / 60); const b = used() - a
  const x = sim.carState(car).position[0]
  if (i > 2000 && b > 2000) console.log(i, b, (x % 40).toFixed(1), sim.carState(car).grounded.join())
}
