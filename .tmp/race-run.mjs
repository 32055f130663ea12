import { createRace } from '../test/perf/race.mjs'
const race = createRace()
for (let i = 0; i < 7200; i++) race.frame(i)
