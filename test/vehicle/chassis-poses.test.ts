// writeChassisPoses (the follow-cars loop, level bodies written inline) against writeChassisPose
// car by car (setColliderPoseIn for every car): the same collider poses, boxes and collision
// version bit for bit, over full, single-track, parked, teleported and frozen cars.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, type Sim } from '../../src/index'
import { writeChassisPose, writeChassisPoses } from '../../src/vehicle/chassis'

function scene(): { sim: Sim; cars: number[] } {
  const sim = createSim(createWorld())
  const cars: number[] = []
  for (let i = 0; i < 12; i++) {
    const car = sim.addCar({ position: [i * 9, (i % 3) * 7], heading: 0.4 * i - 2, speed: i % 4 === 3 ? 0 : 6 + i })
    if (i % 3 === 1) sim.setLod(car, 'singleTrack', 240)
    if (i === 5) sim.setLod(car, 'frozen')
    sim.setInput(car, { gear: 1, throttle: i % 4 === 3 ? 0 : 0.3, steer: 0.1 * ((i % 5) - 2), brake: i % 4 === 3 ? 1 : 0 })
    cars.push(car)
  }
  return { sim, cars }
}

describe('writeChassisPoses', () => {
  it('equals writeChassisPose car by car, bit for bit', () => {
    const a = scene(), b = scene()
    // b writes its chassis poses car by car instead of through the follow-cars loop
    b.sim.schedule.remove('follow-cars')
    b.sim.schedule.add((w) => {
      const vs = b.sim.internal.vehicles
      for (const eid of vs.cars.dense) {
        if (b.sim.components.Car.level[eid] === 2) continue // frozen
        const d = vs.defs[eid]
        if (d !== undefined && b.sim.components.Car.collider[eid] >= 0) writeChassisPose(b.sim.internal.collision, b.sim.components.Car, d, eid, vs.groundZ)
      }
      return w
    }, { name: 'follow-cars-one-by-one', phase: 'broadphase', before: 'rebuild-broadphase' })
    for (let s = 0; s < 90; s++) {
      if (s === 40) { a.sim.setPose(a.cars[2], [5, 5]); b.sim.setPose(b.cars[2], [5, 5]) }
      if (s === 60) { a.sim.setLod(a.cars[5], 'singleTrack'); b.sim.setLod(b.cars[5], 'singleTrack') }
      a.sim.step(1 / 60); b.sim.step(1 / 60)
      const A = a.sim.components.Collider, B = b.sim.components.Collider
      for (const key of ['position', 'rotation', 'aabb', 'dynamic'] as const) {
        expect(Buffer.from(A[key].buffer).equals(Buffer.from(B[key].buffer))).toBe(true)
      }
      expect(a.sim.internal.collision.version).toBe(b.sim.internal.collision.version)
    }
    // and the loop itself is a no-op on an unchanged fleet: poses equal to the stored ones change nothing
    const cs = a.sim.internal.collision, v = cs.version
    writeChassisPoses(cs, a.sim.components.Car, a.sim.internal.vehicles.defs, a.sim.internal.vehicles.cars.dense, a.sim.internal.vehicles.groundZ)
    expect(cs.version).toBe(v)
  })
})
