// Switching a car onto its host and back mid-run carries its state across without a jump: speed
// and yaw rate stay within 1% of a car that was never hosted, through both switches.
import { beforeAll, describe, expect, it } from 'vitest'
import { hostedSim, initRapier, rel } from './helpers'

beforeAll(initRapier)

describe('setHost / clearHost mid-run', () => {
  it('speed and yaw rate change by less than 1% across both switches', () => {
    const { sim, rapier } = hostedSim()
    const ref = sim.addCar({ position: [0, 0] })
    const car = sim.addCar({ position: [0, 80] })
    for (const c of [ref, car]) sim.setInput(c, { gear: 1, throttle: 0.4, steer: 0.25 })
    let worstV = 0
    let worstR = 0
    for (let i = 0; i < 360; i++) {
      if (i === 120) {
        const before = sim.carState(car)
        rapier.host(car)
        const after = sim.carState(car)
        // the switch itself moves nothing
        expect(after.speed).toBe(before.speed)
        expect(after.yawRate).toBe(before.yawRate)
        expect(sim.hostOf(car)).toBe(rapier)
        expect(rapier.bodyOf(car)!.linvel().x).toBeCloseTo(before.velocity[0], 4)
      }
      if (i === 240) {
        sim.clearHost(car)
        expect(sim.hostOf(car)).toBe(null)
        expect(rapier.bodyOf(car)).toBe(null)
      }
      sim.step(1 / 60)
      const a = sim.carState(ref)
      const b = sim.carState(car)
      if (i >= 60) {
        worstV = Math.max(worstV, rel(b.speed, a.speed))
        worstR = Math.max(worstR, rel(b.yawRate, a.yawRate))
      }
    }
    const a = sim.carState(ref)
    // a real manoeuvre: accelerating through a turn
    expect(a.speed).toBeGreaterThan(10)
    expect(a.yawRate).toBeGreaterThan(0.3)
    expect(worstV).toBeLessThan(0.01)
    expect(worstR).toBeLessThan(0.01)
  })
})
