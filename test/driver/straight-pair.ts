// Two driven cars side by side on a 3 km straight from 5 m/s, the second at the path level: the
// path level's acceleration against the single-track car it mirrors.
import { expect } from 'vitest'
import type { CarDefinition, Sim } from '../../src/index'

/** Adds the pair to `sim` (the second at 'path'), runs `seconds` at 60 Hz and returns the cars and each one's speed per step. */
export function straightPair(sim: Sim, seconds: number, definition?: CarDefinition, shift?: boolean): { cars: number[]; speeds: number[][] } {
  const straight: number[] = []
  for (let x = 0; x <= 3000; x += 5) straight.push(x, 0)
  const cars = [0, 1].map(() => {
    const c = sim.addCar({ definition, position: [0, 0], speed: 5, lod: 'singleTrack' })
    sim.setInput(c, { gear: 1 })
    sim.setAi(c, straight, { maxSpeed: 45, driveAccel: 10, shift, traffic: 'ignore' }) // (a ghost pair on one spot: not traffic)
    return c
  })
  sim.setLod(cars[1], 'path')
  const speeds: number[][] = [[], []]
  for (let k = 0; k < 60 * seconds; k++) {
    sim.step(1 / 60)
    cars.forEach((c, i) => speeds[i].push(sim.carState(c).speed))
  }
  return { cars, speeds }
}

/** The path car's time to 20, 30 and 40 m/s within −10 % / +15 % of the physical car's. */
export function expectSameAcceleration(speeds: number[][]): void {
  for (const v of [20, 30, 40]) {
    const tPhys = speeds[0].findIndex((s) => s >= v), tPath = speeds[1].findIndex((s) => s >= v)
    expect(tPhys).toBeGreaterThan(0)
    expect(tPath / tPhys).toBeGreaterThan(0.9)
    expect(tPath / tPhys).toBeLessThan(1.15)
  }
}
