// carState(car, out): fills an earlier result in place (the same object and arrays, no allocation),
// equal to a fresh carState; steerAngle follows the steering and suspension the body's motion
// (first principles: under braking the nose dives, the front corners compress, the rear extend).
import { describe, expect, it } from 'vitest'
import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { createSim } from '../../src/index'

function youngBytes(): number {
  let n = 0
  for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') n += s.space_used_size
  return n
}

describe('carState with an out-parameter', () => {
  it('fills the object in place and matches a fresh carState', () => {
    const sim = createSim(createWorld())
    const a = sim.addCar({ speed: 20 }), b = sim.addCar({ position: [0, 10], lod: 'singleTrack' })
    sim.setInput(a, { steer: 0.5, throttle: 0.3 })
    sim.stepMany(1 / 60, 30)
    const out = sim.carState(b)
    const { position, suspension } = out
    expect(sim.carState(a, out)).toBe(out)
    expect(out.position).toBe(position)
    expect(out.suspension).toBe(suspension)
    expect(out).toEqual(sim.carState(a))
    expect(out.steerAngle).toBeGreaterThan(0.05) // steering left, + = left
    expect(out.steerAngle).toBeLessThanOrEqual(sim.carDefinition(a).maxSteer * 0.5 + 1e-9)
  })

  it('reports suspension compression from the body motion: braking compresses the front and extends the rear', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ speed: 25 })
    sim.stepMany(1 / 60, 30)
    const still = sim.carState(car)
    for (const s of still.suspension) expect(Math.abs(s)).toBeLessThan(0.01)
    sim.setInput(car, { brake: 1 })
    sim.stepMany(1 / 60, 20)
    const s = sim.carState(car)
    expect(s.pitch).toBeGreaterThan(0) // nose down
    expect(s.suspension[0]).toBeGreaterThan(0.005)
    expect(s.suspension[1]).toBeGreaterThan(0.005)
    expect(s.suspension[2]).toBeLessThan(-0.002)
    expect(s.suspension[3]).toBeLessThan(-0.002)
  })

  it('allocates nothing per call once warm, and refuses a wrong out', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ speed: 10 })
    const out = sim.carState(car)
    let per = Infinity
    for (let round = 0; round < 5 && !(per < 8); round++) {
      for (let i = 0; i < 20000; i++) sim.carState(car, out)
      const y0 = youngBytes()
      for (let i = 0; i < 2000; i++) sim.carState(car, out)
      const y1 = youngBytes()
      if (y1 >= y0) per = (y1 - y0) / 2000
    }
    expect(per).toBeLessThan(8)
    expect(() => sim.carState(car, {} as never)).toThrow(TypeError)
    expect(() => sim.carState(car, null as never)).toThrow(TypeError)
  })
})
