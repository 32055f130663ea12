import { it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, LodController } from '../../src/index'
import { createTrack, trackPath, trafficWidth } from '../../examples/track'
import { placeGrid } from '../../examples/racing/grid'
it('demo grid', () => {
  const track = createTrack({})
  const sim = createSim(createWorld())
  const entrants = placeGrid(sim, track, { cars: 100, seed: 7 })
  const player = entrants.find((e) => e.player)!.car
  const lod = new LodController(sim, { singleTrackBeyond: 30, pathBeyond: 300, frozenBeyond: Infinity, hysteresis: 10, singleTrackHz: 240 })
  lod.markExternal(player)
  lod.install({ focus: player })
  const path = trackPath(track)
  for (const e of entrants) if (!e.player) { sim.setInput(e.car, { brake: 0 }); sim.setAi(e.car, path, { closed: true, maxSpeed: e.maxSpeed, lateralAccel: e.lateralAccel, lateralOffset: e.lateralOffset, traffic: 'avoid', width: trafficWidth(track, e.lateralOffset) }) }
  const dist = () => Object.fromEntries(entrants.filter((e) => !e.player).map((e) => [e.car, sim.aiStatus(e.car)!.distance]))
  const show = (c: number) => { const s = sim.aiStatus(c)!; const R = sim.components.Driver.state, o = c * 18; return `${c} d${s.distance.toFixed(1)} v${sim.components.Car.speed[c].toFixed(2)} lat${s.lateralError.toFixed(2)} ahead${s.ahead} gap${s.gap.toFixed(2)} P${R[o + 13]} shift${R[o + 14].toFixed(2)} goal${R[o + 15].toFixed(2)} cap${R[o + 16].toFixed(2)}` }
  for (let k = 0; k < 0; k++) { sim.stepMany(1 / 60, 30); if (k % 3 === 2) { let c = 28; const chain = []; for (let q = 0; q < 6 && c >= 0 && c !== player; q++) { chain.push(show(c)); c = sim.aiStatus(c)!.ahead }; console.log('t', (k + 1) / 2, 'player lat', (() => { const C = sim.components.Car; return [C.x[player].toFixed(1), C.y[player].toFixed(1)] })(), '\n  ' + chain.join('\n  ')) } }
  const d0 = dist()
  sim.stepMany(1 / 60, 180)
  const d1 = dist()
  const behind = new Set([player]); let grew = true
  while (grew) { grew = false; for (const e of entrants) { if (e.player) continue; const a = sim.aiStatus(e.car)!.ahead; if (behind.has(a) && !behind.has(e.car)) { behind.add(e.car); grew = true } } }
  behind.delete(player)
  console.log('held', [...behind])
  const stuck = entrants.filter((e) => !e.player && !(d1[e.car] - d0[e.car] > 10) && !behind.has(e.car))
  console.log('player', player, 'stuck', stuck.map((e) => { const s = sim.aiStatus(e.car)!; const R = sim.components.Driver.state, o = e.car * 18; return `${e.car} d${s.distance.toFixed(1)} v${sim.components.Car.speed[e.car].toFixed(2)} lat${s.lateralError.toFixed(2)} ahead${s.ahead} gap${s.gap.toFixed(2)} P${R[o + 13]} shift${R[o + 14].toFixed(2)} goal${R[o + 15].toFixed(2)} cap${R[o + 16].toFixed(2)} off${e.lateralOffset} ${sim.getLod(e.car).level}` }).join('\n'))
})
