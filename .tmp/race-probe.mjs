import v8 from 'node:v8'
import { createRace } from '../test/perf/race.mjs'
const YOUNG = new Set(['new_space', 'new_large_object_space'])
function used() { let n = v8.getHeapStatistics().external_memory; for (const s of v8.getHeapSpaceStatistics()) if (YOUNG.has(s.space_name)) n += s.space_used_size; return n }
const race = createRace()
const C = race.sim.components.Car
for (let i = 0; i < 1300; i++) {
  const a = used()
  if (i >= 1255 && i <= 1266) console.log('--- frame', i)
  race.frame(i)
  const b = used() - a
  if (i >= 900 && b > 4096) { console.log('frame', i, b); }
  if (i >= 1255 && i <= 1266) for (const c of race.stunts) console.log('stunt', c, C.level[c], C.model[c], C.heave[c].toFixed(3), C.speed[c].toFixed(2))
}
