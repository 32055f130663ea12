// The host contract is engine-agnostic: a minimal VehicleHost written here (a free planar rigid
// body, semi-implicit Euler, no contacts) carries a car through enableHosting, and the car
// tracks one that pitlane integrates itself.
import { createWorld } from 'bitecs'
import { describe, expect, it } from 'vitest'
import { createSim, enableHosting, type ChassisMass, type ChassisState, type VehicleHost } from '../../src/index'
import { rel } from './helpers'

/** A free planar body per car: impulses change velocity, step integrates the pose. */
class PlanarHost implements VehicleHost {
  readonly rate = 'host' as const
  readonly stepsWithSim = true
  readonly bodies: (Float64Array | null)[] = []
  readonly mass: ChassisMass[] = []
  frozen: boolean[] = []
  steps = 0
  attach(car: number, s: ChassisState, m: ChassisMass, frozen: boolean) { this.bodies[car] = Float64Array.from(s); this.mass[car] = m; this.frozen[car] = frozen }
  detach(car: number) { this.bodies[car] = null }
  read(car: number, out: Float64Array) { out.set(this.bodies[car]!) }
  write(car: number, s: ChassisState) { this.bodies[car]!.set(s) }
  applyImpulse(car: number, jx: number, jy: number, jyaw: number) {
    const b = this.bodies[car]!
    const m = this.mass[car]
    b[3] += jx / m.mass; b[4] += jy / m.mass; b[5] += jyaw / m.izz
  }
  setFrozen(car: number, frozen: boolean, s: ChassisState) { this.frozen[car] = frozen; if (!frozen) this.bodies[car]!.set(s) }
  step(dt: number) {
    this.steps++
    for (let i = 0; i < this.bodies.length; i++) {
      const b = this.bodies[i]
      if (!b || this.frozen[i]) continue
      b[0] += dt * b[3]; b[1] += dt * b[4]; b[2] += dt * b[5]
    }
  }
}

describe('a custom VehicleHost', () => {
  it('carries a car through a manoeuvre within 1% of pitlane integrating it itself', () => {
    const sim = createSim(createWorld())
    const host = new PlanarHost()
    const hsim = enableHosting(sim, host)
    const ref = sim.addCar({ speed: 5 })
    const car = sim.addCar({ speed: 5, position: [0, 30] })
    hsim.setHost(car, host)
    expect(host.mass[car].mass).toBe(1250)
    for (const c of [ref, car]) sim.setInput(c, { gear: 1, throttle: 0.5, steer: 0.2 })
    sim.stepMany(1 / 60, 240)
    expect(host.steps).toBe(240)
    const a = sim.carState(ref)
    const b = sim.carState(car)
    expect(a.yawRate).toBeGreaterThan(0.2)
    expect(rel(b.speed, a.speed)).toBeLessThan(0.01)
    expect(rel(b.yawRate, a.yawRate)).toBeLessThan(0.01)
    // the heading stays unwrapped across the host's angle
    expect(rel(b.heading, a.heading)).toBeLessThan(0.01)
    hsim.clearHost(car)
    expect(host.bodies[car]).toBe(null)
  })

  it('refuses an object that is not a VehicleHost', () => {
    const sim = createSim(createWorld())
    expect(() => enableHosting(sim, {} as never)).toThrow(/host.attach/)
    const bad = Object.assign(new PlanarHost(), { rate: 'substep', stepsWithSim: false })
    expect(() => enableHosting(sim, bad as never)).toThrow(RangeError)
    // nothing was installed
    expect((sim as { setHost?: unknown }).setHost).toBeUndefined()
    expect(sim.schedule.has('step-hosted-cars')).toBe(false)
  })
})
