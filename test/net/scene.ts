// Shared scenes of the net tests: a server racing `count` driven cars round an oval, and helpers.
import { createWorld } from 'bitecs'
import { createSim, snapshotWorld, stadiumPath, type Sim } from '../../src/index'

/**
 * A server sim with `count` hatchbacks driven round a 300 m / 60 m oval in three lanes; `hz`:
 * single-track at that rate instead of the four-wheel model.
 */
export function raceServer(count: number, maxSpeed = 30, hz?: number): { sim: Sim; cars: number[] } {
  const sim = createSim(createWorld())
  const path = stadiumPath(300, 60, 2)
  const cars: number[] = []
  for (let i = 0; i < count; i++) {
    const offset = 3 * ((i % 3) - 1)
    const k = Math.floor((i * path.length) / 2 / count)
    const x = path[2 * k], y = path[2 * k + 1]
    const h = Math.atan2(path[(2 * k + 3) % path.length] - y, path[(2 * k + 2) % path.length] - x)
    const car = sim.addCar({ position: [x - Math.sin(h) * offset, y + Math.cos(h) * offset], heading: h, speed: 10 })
    if (hz) sim.setLod(car, 'singleTrack', hz)
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, path, { closed: true, lateralOffset: offset, maxSpeed })
    cars.push(car)
  }
  return { sim, cars }
}

/** An empty client sim. */
export const clientSim = (): Sim => createSim(createWorld())

/** A full state dump of `sim` (every car, collider, lidar and the clock), for before/after comparisons. */
export const dump = (sim: Sim): string => JSON.stringify(snapshotWorld(sim))
