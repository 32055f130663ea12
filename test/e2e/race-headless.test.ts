/**
 * The demo's race logic under node (no browser, no pixi): the grid, the lights, the standings and
 * their gaps, lap times from the lap timer, the flag and the finish, on the built-in circuit.
 */
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { addLapTimer, createSim } from '../../src/index'
import { createTrack, trackPath } from '../../examples/track'
import { placeGrid } from '../../examples/racing/grid'
import { createRace, type RacePhase } from '../../examples/racing/race'

describe('the demo race', () => {
  it('runs grid → lights → racing → finished with standings, gaps and lap times', () => {
    const track = createTrack()
    const sim = createSim(createWorld())
    const entrants = placeGrid(sim, track, { cars: 6, seed: 3, playerSlot: 6 })
    const timer = addLapTimer(sim, { line: track.startLine })
    const path = trackPath(track)
    const { Car } = sim.components
    let started = 0
    const race = createRace({
      track, entrants, laps: 1, timer, seed: 3, now: () => sim.time, x: (c) => Car.x[c], y: (c) => Car.y[c],
      onStart: () => {
        started++
        for (const e of entrants) if (!e.player) sim.setAi(e.car, path, { closed: true, maxSpeed: e.maxSpeed, lateralAccel: e.lateralAccel, lateralOffset: e.lateralOffset })
      },
    })
    for (const e of entrants) sim.setLod(e.car, 'singleTrack', 240) // cheap and enough for the race logic
    const seen: RacePhase[] = [race.phase]
    let maxLights = 0, orderChanged = false
    const initial = race.standings().map((s) => s.car)
    // the grid is in slot order: pole first, all behind the line
    expect(initial).toEqual(entrants.map((e) => e.car))
    expect(race.standings().every((s) => s.distance < 0 && s.gap === null)).toBe(true)
    let firstOrder: number[] | null = null
    for (let i = 0; i < 60 * 200 && race.phase !== 'finished'; i++) {
      if (race.phase !== 'racing') sim.setInput(entrants.find((e) => e.player)!.car, { brake: 1 })
      sim.step(1 / 60)
      race.update()
      if (seen[seen.length - 1] !== race.phase) seen.push(race.phase)
      maxLights = Math.max(maxLights, race.lights)
      if (race.phase === 'racing' && race.raceTime() > 5) {
        const now = race.standings().map((s) => s.car)
        if (!firstOrder) firstOrder = now
        else if (now.some((c, k) => c !== firstOrder![k])) orderChanged = true
      }
    }
    expect(seen).toEqual(['grid', 'lights', 'racing', 'finished'])
    expect(maxLights).toBe(5)
    expect(started).toBe(1)
    expect(orderChanged).toBe(true)
    const final = race.standings()
    const winner = final[0]
    expect(winner.finished).toBe(true)
    expect(winner.laps).toBe(1)
    expect(winner.bestLap!).toBeGreaterThan(50) // a 2.6 km lap at 26–44 m/s
    expect(winner.bestLap!).toBeLessThan(120)
    expect(winner.finishTime!).toBeGreaterThan(winner.bestLap!) // the standing start to the line is part of the race
    // the finishers are classified by their flag time, the gaps grow down the order
    const finishers = final.filter((s) => s.finished)
    for (let k = 1; k < finishers.length; k++) expect(finishers[k].finishTime!).toBeGreaterThanOrEqual(finishers[k - 1].finishTime!)
    for (const s of final.slice(1)) if (s.gap !== null && s.lapsDown === 0) expect(s.gap).toBeGreaterThanOrEqual(0)
    // the player stayed on the grid: last, not finished
    const me = final.find((s) => s.car === entrants.find((e) => e.player)!.car)!
    expect(me.position).toBe(final.length)
    expect(me.finished).toBe(false)
  }, 60_000)
})
