import v8 from 'node:v8'
import { createRace } from '/work/main/test/perf/race.mjs'
const YOUNG = new Set(['new_space', 'new_large_object_space'])
function used() { let n = v8.getHeapStatistics().external_memory; for (const s of v8.getHeapSpaceStatistics()) if (YOUNG.has(s.space_name)) n += s.space_used_size; return n }
const race = createRace()
const C = race.sim.components.Car
for (let i = 0; i < 3000; i++) {
  const a = used()
  
  race.frame(i)
  const b = used() - a
  if (i >= 900 && b > 4096) { console.log('frame', i, b); }

}
