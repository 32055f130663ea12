import { createRace } from '../test/perf/race.mjs'
const race = createRace()
const C = race.sim.components.Car
const all = [...race.driven, ...race.stunts]
for (let i = 0; i < 7200; i++) {
  race.frame(i)
  if (i % 600 === 0 || (i >= 2440 && i <= 2460 && i % 5 === 0)) {
    const odd = all.filter((c) => C.level[c] < 2 && ((C.model[c] === 1 && (C.heave[c] !== 0 || C.pitch[c] !== 0 || C.roll[c] !== 0)) || Math.abs(C.y[c]) > 52 || C.heave[c] > 0.25))
    console.log(i, odd.map((c) => `${c}:m${C.model[c]} l${C.level[c]} y${C.y[c].toFixed(1)} hv${C.heave[c].toExponential(1)}`).join(' '))
  }
}
