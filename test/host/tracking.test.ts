// A hosted car on flat ground with the same inputs tracks an unhosted car (pitlane integrating
// its own chassis): within 2% over a 10 s full-throttle run and a steady corner.
import { beforeAll, describe, expect, it } from 'vitest'
import { hostedSim, initRapier, rel } from './helpers'

beforeAll(initRapier)

function pair(rate: 'host' | 'substep' = 'host') {
  const { sim, rapier } = hostedSim(undefined, { rate })
  const free = sim.addCar({ position: [0, 0] })
  const hosted = sim.addCar({ position: [0, 50] })
  rapier.host(hosted)
  return { sim, free, hosted, rapier }
}

describe('hosted car tracks an unhosted one', () => {
  // the substep rate (one Rapier step per substep, the alternative measured in decision 0004) runs shorter
  for (const [rate, seconds, minSpeed] of [['host', 10, 28], ['substep', 4, 15]] as const) {
    it(`${seconds} s full-throttle acceleration (rate ${rate})`, () => {
      const { sim, free, hosted } = pair(rate)
      for (const car of [free, hosted]) sim.setInput(car, { throttle: 1, gear: 1 })
      let worst = 0
      for (let i = 0; i < seconds * 60; i++) {
        sim.step(1 / 60)
        const a = sim.carState(free)
        const b = sim.carState(hosted)
        if (a.speed > 5) worst = Math.max(worst, rel(b.speed, a.speed))
      }
      const a = sim.carState(free)
      const b = sim.carState(hosted)
      // a real run: the hatchback is well past 100 km/h after 10 s
      expect(a.speed).toBeGreaterThan(minSpeed)
      expect(worst).toBeLessThan(0.02)
      expect(rel(b.position[0], a.position[0])).toBeLessThan(0.02)
      expect(Math.abs(b.position[1] - 50)).toBeLessThan(0.05)
      expect(Math.abs(b.heading)).toBeLessThan(1e-3)
      expect(b.gear).toBe(a.gear)
    })
  }

  it('steady corner: speed, yaw rate and path within 2%', () => {
    const { sim, free, hosted } = pair()
    for (const car of [free, hosted]) sim.setInput(car, { throttle: 0.25, gear: 1, steer: 0.3 })
    sim.stepMany(1 / 60, 600)
    const a = sim.carState(free)
    const b = sim.carState(hosted)
    // a real corner: turning steadily at a useful speed
    expect(a.speed).toBeGreaterThan(8)
    expect(a.yawRate).toBeGreaterThan(0.2)
    expect(rel(b.speed, a.speed)).toBeLessThan(0.02)
    expect(rel(b.yawRate, a.yawRate)).toBeLessThan(0.02)
    // radius of the turn v / r
    expect(rel(b.speed / b.yawRate, a.speed / a.yawRate)).toBeLessThan(0.02)
    expect(rel(b.heading, a.heading)).toBeLessThan(0.02)
    expect(Math.abs(b.roll - a.roll)).toBeLessThan(0.02 * Math.abs(a.roll) + 1e-4)
  })
})
