// Levels of detail, world snapshots and replays as the LOD and replay guide (docs/guide/lod-and-replay.md) shows them, with more cars and checks.
import { expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createReplayPlayer, createReplayRecorder, createSim, LodController, restoreWorld, snapshotWorld, stadiumPath } from '../../src/index'

function world() {
  const sim = createSim(createWorld())
  const path = stadiumPath(100, 40, 2)
  const cars = [0, 1, 2, 3].map((i) => {
    const car = sim.addCar({ position: [-50 + 30 * i, -40], heading: 0, speed: 8 })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, path, { closed: true, maxSpeed: 15 })
    return car
  })
  return { sim, cars }
}

it('runs the LOD and replay guide example', () => {
  const { sim, cars } = world()
  const playerCar = cars[0]
  const lod = new LodController(sim, { singleTrackBeyond: 60, frozenBeyond: 300, hysteresis: 10, singleTrackHz: 240 })
  lod.install({ focus: playerCar })
  lod.pin(playerCar)
  const text = JSON.stringify(snapshotWorld(sim))
  sim.stepMany(1 / 60, 30)
  restoreWorld(sim, JSON.parse(text))
  expect(JSON.stringify(snapshotWorld(sim))).toBe(text)
  const rec = createReplayRecorder(sim, { keyframeEvery: 150 }) // the guide: 600 (shorter here to keep the test fast)
  sim.stepMany(1 / 60, 400)
  const replay = rec.save()
  const end = JSON.stringify(snapshotWorld(sim))
  const other = world()
  const player = createReplayPlayer(other.sim, replay)
  player.seek(334)
  player.advance(60)
  expect(player.position).toBe(394)
  player.advance(6)
  expect(JSON.stringify(snapshotWorld(other.sim)) === end).toBe(true)
  expect(sim.getLod(playerCar).level).toBe('full')
})
