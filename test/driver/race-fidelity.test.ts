// Race fidelity of the path level: 60 driven cars with different maxSpeeds on a closed circuit for
// 5 simulated minutes, once all at singleTrack and once under a LodController focused on one car
// (full within 60 m, singleTrack to 150 m, path beyond): each car's distance and the finishing order.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, LodController, smoothClosedPath } from '../../src/index'
import { slotOnPath } from '../grid'

const DT = 1 / 60
const MINUTES = 5
const CARS = 60
const HZ = 120 // the single-track rate of both runs (low, to keep the test short; the comparison is between levels at one rate)

// A 2.3 km circuit with straights, fast and slow bends (control points in m).
const CIRCUIT = smoothClosedPath([
  [0, 0], [400, 0], [560, 60], [600, 200], [520, 320], [380, 300], [300, 380], [320, 520], [200, 600], [40, 560], [-60, 420], [-20, 260], [-120, 140], [-80, 30],
], 2)

function race(withController: boolean): { distances: number[]; levels: Set<string> } {
  const sim = createSim(createWorld())
  const cars: number[] = []
  for (let i = 0; i < CARS; i++) {
    const { x, y, heading } = slotOnPath(CIRCUIT, i, CARS)
    const car = sim.addCar({ position: [x, y], heading, speed: 10, lod: 'singleTrack' })
    sim.setLod(car, 'singleTrack', HZ)
    sim.setInput(car, { gear: 1 })
    // 18 … 40 m/s, mixed round the grid; the path level's own fidelity, so the cars drive through each
    // other (traffic at every level: test/driver/traffic-race.test.ts)
    sim.setAi(car, CIRCUIT, { closed: true, maxSpeed: 18 + ((i * 7) % 23), traffic: 'ignore' })
    cars.push(car)
  }
  if (withController) {
    new LodController(sim, { singleTrackBeyond: 60, pathBeyond: 150, frozenBeyond: Infinity, singleTrackHz: HZ }).install({ focus: cars[0] })
  }
  const levels = new Set<string>()
  for (let s = 0; s < MINUTES * 60; s++) {
    sim.stepMany(DT, 60)
    for (const c of cars) levels.add(sim.getLod(c).level)
  }
  return { distances: cars.map((c) => sim.aiStatus(c)!.distance), levels }
}

describe('race fidelity of the path level', () => {
  it('60 cars, 5 minutes: each distance within 2% of the all-singleTrack race, the order the same for >= 95% of pairs', () => {
    const u0 = process.cpuUsage()
    const reference = race(false)
    const u1 = process.cpuUsage(u0)
    const lod = race(true)
    const u2 = process.cpuUsage(u0)
    console.log(`cpu: reference ${(u1.user / 1e6).toFixed(1)} s, both ${(u2.user / 1e6).toFixed(1)} s`)
    expect([...lod.levels].sort()).toEqual(['full', 'path', 'singleTrack'])
    let worst = 0, same = 0, pairs = 0
    for (let i = 0; i < CARS; i++) {
      worst = Math.max(worst, Math.abs(lod.distances[i] / reference.distances[i] - 1))
      for (let j = i + 1; j < CARS; j++) {
        pairs++
        if (Math.sign(lod.distances[i] - lod.distances[j]) === Math.sign(reference.distances[i] - reference.distances[j])) same++
      }
    }
    const total = reference.distances.reduce((a, b) => a + b, 0) / CARS
    console.log(`race fidelity: mean distance ${total.toFixed(0)} m; worst distance difference ${(worst * 100).toFixed(2)}%; order kept for ${same} of ${pairs} pairs (${((100 * same) / pairs).toFixed(1)}%)`)
    expect(worst).toBeLessThan(0.02)
    expect(same / pairs).toBeGreaterThanOrEqual(0.95)
  }, 600_000)
})
