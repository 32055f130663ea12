import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { createSim, box, heightfield } from '/work/wt/terrain/dist/index.js'
const YOUNG = new Set(['new_space', 'new_large_object_space'])
function used() { let n = v8.getHeapStatistics().external_memory; for (const s of v8.getHeapSpaceStatistics()) if (YOUNG.has(s.space_name)) n += s.space_used_size; return n }
function scene(kind, lod) {
  const sim = createSim(createWorld())
  if (kind === 'box') for (let i = 0; i < 12; i++) sim.addCollider(box(4, 0.3, 1), { position: [-60 + 12 * i, 3, 1] })
  if (kind === 'hf') { const n = 300; const h = new Float64Array(n * n); for (let i = 0; i < h.length; i++) h[i] = Math.sin(i % n / 10); sim.addCollider(heightfield([-100, -100, 0], 2, n, n, h)) }
  const cars = []
  for (let i = 0; i < 4; i++) { const c = sim.addCar({ position: [-50 + 10 * i, 0], speed: 10, lod }); sim.setInput(c, { throttle: 0.3, gear: 1, steer: 0.01 }); cars.push(c) }
  return sim
}
for (const kind of ['box', 'hf']) for (const lod of ['full', 'singleTrack']) {
  const sim = scene(kind, lod)
  for (let i = 0; i < 300; i++) sim.step(1 / 60)
  const a = used()
  for (let i = 0; i < 60; i++) sim.step(1 / 60)
  console.log(kind, lod, ((used() - a) / 60).toFixed(0), 'B/step')
}
