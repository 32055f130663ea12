import { createRace } from '../test/perf/race.mjs'
const race = createRace()
const C = race.sim.components.Car
for (let i = 0; i < 2460; i++) {
  race.frame(i)
  if (i >= 2430) { const s = race.sim.carState(40); console.log(i, s.position.map((v) => v.toFixed(2)).join(' '), s.speed.toFixed(2), s.grounded.join(), s.pitch.toFixed(3), s.roll.toFixed(3), s.wheelSpeeds.map((w) => w.toFixed(0)).join(','), C.handbrake[40], C.brake[40], C.throttle[40]) }
}
