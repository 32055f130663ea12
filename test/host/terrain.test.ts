// Hosted cars on terrain: a heightfield mirrored into Rapier with addFixed carries a car hosted on
// Rapier as it carries an unhosted one (its wheels find the same surface, gravity acts along the
// slope), its Rapier body rides at the car's height and pitch, and a wall standing on the slope
// (a box mirrored with addFixed) stops it at the wall's face.
import { beforeAll, describe, expect, it } from 'vitest'
import { box, heightfield } from '../../src/index'
import { FOLLOW_ANGLE, FOLLOW_Z } from '../../src/rapier/index'
import { hostedSim, initRapier } from './helpers'

beforeAll(initRapier)

const GRADE = 0.08 // 8% uphill towards +x
/** A 200 m × 40 m ramp of 8% grade, 2 m cells, from x = −20. */
const slope = () => {
  const columns = 101, rows = 21, heights: number[] = []
  for (let j = 0; j < rows; j++) for (let i = 0; i < columns; i++) heights.push(GRADE * (i * 2 - 20))
  return heightfield([-20, -20], 2, columns, rows, heights)
}
const surface = (x: number) => GRADE * x

describe('hosted cars on mirrored terrain', () => {
  it('climb an 8% slope as an unhosted twin does, the Rapier body at the car\'s height and pitch', () => {
    const { sim, rapier } = hostedSim({ ground: false })
    rapier.addFixed(sim.addCollider(slope()))
    const hosted = sim.addCar({ position: [0, -6] }), twin = sim.addCar({ position: [0, 6] })
    rapier.host(hosted)
    for (const c of [hosted, twin]) sim.setInput(c, { gear: 1, throttle: 1 })
    const d = sim.carDefinition(hosted)
    for (let s = 0; s < 6 * 60; s++) {
      sim.step(1 / 60)
      if (s % 30 !== 29) continue
      const h = sim.carState(hosted), t = sim.carState(twin)
      // on the surface: the centre of mass about cgHeight above the slope (squat under power aside)
      expect(Math.abs(h.position[2] - (surface(h.position[0]) + d.cgHeight / Math.cos(Math.atan(GRADE))))).toBeLessThan(0.1)
      expect(h.grounded.every(Boolean)).toBe(true)
      // the Rapier body follows the car's height and pitch
      const body = rapier.bodyOf(hosted)!, p = body.translation(), q = body.rotation()
      expect(Math.abs(p.z - h.position[2])).toBeLessThanOrEqual(FOLLOW_Z + 1e-9)
      const pitch = Math.asin(Math.max(-1, Math.min(1, 2 * (q.w * q.y - q.z * q.x))))
      expect(Math.abs(pitch - h.pitch)).toBeLessThanOrEqual(FOLLOW_ANGLE + 1e-6)
      // the twin: the same climb within a few per cent (the host integrates position at its own rate)
      expect(Math.abs(h.speed - t.speed)).toBeLessThan(0.03 * Math.max(3, t.speed))
    }
    const h = sim.carState(hosted)
    expect(h.position[0]).toBeGreaterThan(40) // it climbed
    expect(h.pitch).toBeLessThan(-0.05) // nose up on the slope (pitch + is nose down)
  })

  it('stop at a wall standing on the slope', () => {
    const { sim, rapier } = hostedSim({ ground: false })
    rapier.addFixed(sim.addCollider(slope(), { group: 1 }))
    // a 3 m tall wall across the slope at x = 40, sunk into it (group 2: the wheels never stand on it)
    const wallX = 40
    rapier.addFixed(sim.addCollider(box(0.3, 15, 1.5), { position: [wallX, 0, surface(wallX) + 1.2], group: 2 }))
    const car = sim.addCar({ position: [0, 0], groundMask: 1 })
    rapier.host(car)
    sim.setInput(car, { gear: 1, throttle: 1 })
    const d = sim.carDefinition(car)
    let most = -Infinity
    for (let s = 0; s < 12 * 60; s++) {
      sim.step(1 / 60)
      most = Math.max(most, sim.carState(car).position[0])
    }
    const s = sim.carState(car)
    // the chassis box is centred on the car: its nose half a length ahead. At 15 m/s it reaches the
    // wall's face, no more than the impact's contact depth past it, and then stands there at full throttle
    const face = wallX - 0.3, nose = (x: number) => x + d.length / 2
    expect(nose(most)).toBeGreaterThan(face - 0.1)
    expect(nose(most)).toBeLessThan(face + 0.2)
    expect(Math.abs(s.speed)).toBeLessThan(0.5)
    expect(nose(s.position[0])).toBeGreaterThan(face - 0.5)
    expect(nose(s.position[0])).toBeLessThan(face + 0.05)
  })
})
