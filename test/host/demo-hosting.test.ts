// The racing demo's hosting wiring, headless: barriers mirrored into Rapier, the player hosted,
// cars near the player hosted and far ones not; driving the player at a barrier stops it there.
import { createWorld } from 'bitecs'
import { beforeAll, describe, expect, it } from 'vitest'
import { createSim, LodController } from '../../src/index'
import { createTrack, projectOnTrack, trackPoint } from '../../examples/track'
import { addCircuit, addField, trackSurfaces } from '../../examples/race/field'
import { addHosting } from '../../examples/racing/hosting'
import { initRapier } from './helpers'

beforeAll(initRapier)

describe('racing demo hosting (headless)', () => {
  it('hosts the player and its neighbours, and a barrier stops the player', async () => {
    const track = createTrack()
    const sim = createSim(createWorld(), { surfaces: trackSurfaces(track) })
    const circuit = addCircuit(sim, track)
    const field = addField(sim, track, { cars: 4, seed: 7, layout: 'spread' })
    const start = trackPoint(track, -20, 0)
    const player = sim.addCar({ position: [start.x, start.y], heading: start.heading })
    const lod = new LodController(sim, { singleTrackBeyond: 60, frozenBeyond: 300, hysteresis: 10 })
    lod.markExternal(player)
    lod.install({ focus: player })
    const rapier = await addHosting(sim, player, circuit.barriers)
    expect(rapier.world.colliders.len()).toBe(circuit.barriers.length + 1)
    const hsim = rapier.sim
    const C = sim.components.Car
    expect(hsim.hostOf(player)).toBe(rapier)
    // parked: the rivals ghost through the player
    sim.stepMany(1 / 60, 5)
    for (const f of field) expect(hsim.hostOf(f.car)).toBe(null)
    // moving: a rival parked ahead in the next lane is hosted once the player is under way
    const ahead = trackPoint(track, -5, 3)
    const rival = sim.addCar({ position: [ahead.x, ahead.y], heading: ahead.heading })
    sim.setInput(player, { gear: 1, throttle: 0.5 })
    let hostedAt = -1
    for (let i = 0; i < 120 && hostedAt < 0; i++) {
      sim.step(1 / 60)
      if (hsim.hostOf(rival)) hostedAt = i
    }
    expect(hostedAt).toBeGreaterThan(0)
    expect(C.speed[player]).toBeGreaterThan(2)
    // rivals collide with the player and the barriers, not with each other
    expect(rapier.colliderOf(rival)!.collisionGroups()).toBe((0x0002 << 16) | 0xfffd)
    for (const f of field) {
      const d = Math.hypot(C.x[f.car] - C.x[player], C.y[f.car] - C.y[player])
      if (d > 45) expect(hsim.hostOf(f.car)).toBe(null)
    }
    sim.remove(rival)
    // the player turns hard off the track at speed, towards the barriers on its right
    sim.setPose(player, [start.x, start.y], [Math.cos(start.heading - 1.2), -Math.sin(start.heading - 1.2), 0, Math.sin(start.heading - 1.2), Math.cos(start.heading - 1.2), 0, 0, 0, 1])
    sim.setInput(player, { gear: 1, throttle: 1 })
    let lateral = 0
    let maxLateral = 0
    for (let i = 0; i < 240; i++) {
      sim.step(1 / 60)
      lateral = projectOnTrack(track, C.x[player], C.y[player]).lateral
      maxLateral = Math.max(maxLateral, Math.abs(lateral))
    }
    const barrierOffset = Math.min(...circuit.barriers.map((b) => Math.abs(projectOnTrack(track, sim.components.Collider.position[3 * b], sim.components.Collider.position[3 * b + 1]).lateral)))
    // it reached the barrier line and was held there (unhosted, it would have driven on through)
    expect(maxLateral).toBeGreaterThan(barrierOffset - 3)
    expect(maxLateral).toBeLessThan(barrierOffset + 1)
    expect(Math.abs(sim.carState(player).speed)).toBeLessThan(3)
  })
})
