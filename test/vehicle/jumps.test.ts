// Leaving the ground and coming back: off a 12° ramp at 20 m/s the car flies for the ballistic
// time of its take-off state and lands on its suspension, settling; a 5 cm kerb at 20 m/s gives a
// heave transient that settles within a second. Both at full; the ramp at singleTrack too.
import { describe, expect, it } from 'vitest'
import { box, type Sim } from '../../src/index'
import { makeSim } from './helpers'
import { aboutY } from './terrain-helpers'

const G = 9.81

/** A ramp from the ground at x = 0 rising at `deg` over `length` m toward +x, 6 m wide; returns its lip height. */
function addRamp(sim: Sim, deg: number, length: number): number {
  const a = (deg * Math.PI) / 180, thick = 0.5
  const cx = 0.5 * length * Math.cos(a), cz = 0.5 * length * Math.sin(a)
  sim.addCollider(box(0.5 * length, 3, thick), { position: [cx + thick * Math.sin(a), 0, cz - thick * Math.cos(a)], rotation: aboutY(-a) })
  return length * Math.sin(a)
}

/** Holds `target` speed with throttle and brake, straight ahead. */
function hold(sim: Sim, car: number, target: number): void {
  const e = target - sim.carState(car).speed
  sim.setInput(car, { throttle: Math.max(0, Math.min(1, 0.3 + 0.5 * e)), brake: Math.max(0, Math.min(1, -0.3 * e)), steer: 0, gear: 1 })
}

describe.each(['full', 'singleTrack'] as const)('off a 12° ramp at 20 m/s (%s)', (level) => {
  it('flies for the ballistic time of its take-off (within 15%) and lands finite, on its wheels, settling', () => {
    const sim = makeSim()
    const lip = addRamp(sim, 12, 10)
    const car = sim.addCar({ position: [-40, 0], speed: 20, lod: level })
    const h = sim.carDefinition(car).cgHeight
    const dt = 1 / 240
    let takeoff: { t: number; z: number; vz: number } | null = null
    let landed = -1
    let t = 0
    for (; t < 8; t += dt) {
      if (takeoff === null) hold(sim, car, 20)
      sim.step(dt)
      const s = sim.carState(car)
      for (const v of [...s.position, ...s.velocity, s.roll, s.pitch]) expect(Number.isFinite(v)).toBe(true)
      const air = s.grounded.every((g) => !g)
      if (takeoff === null && air && s.position[0] > 0) takeoff = { t, z: s.position[2], vz: s.velocity[2] }
      if (takeoff !== null && landed < 0 && !air) { landed = t; break }
    }
    expect(takeoff).not.toBeNull()
    expect(landed).toBeGreaterThan(0)
    const { z, vz } = takeoff!
    // the centre of mass from its take-off height and vertical speed down to its ride height (its wheels touching)
    const ballistic = (vz + Math.sqrt(vz * vz + 2 * G * (z - h))) / G
    const flight = landed - takeoff!.t
    expect(vz).toBeGreaterThan(0.7 * 20 * Math.sin((12 * Math.PI) / 180)) // it took off upward, along the ramp
    expect(z - h).toBeGreaterThan(0.8 * lip)
    expect(Math.abs(flight - ballistic) / ballistic).toBeLessThan(0.15)
    // then it settles on its wheels
    sim.setInput(car, { throttle: 0, brake: 0.3 })
    sim.stepMany(1 / 60, 120)
    const s = sim.carState(car)
    expect(s.grounded).toEqual([true, true, true, true])
    expect(Math.abs(s.position[2] - h)).toBeLessThan(0.03)
    expect(Math.abs(s.velocity[2])).toBeLessThan(0.05)
    expect(Math.abs(s.pitch)).toBeLessThan(0.02)
    expect(Math.abs(s.roll)).toBeLessThan(0.02)
  })
})

describe('a 5 cm kerb at 20 m/s (full)', () => {
  it('gives a heave transient that settles within 1 s', () => {
    const sim = makeSim()
    sim.addCollider(box(0.2, 10, 0.025), { position: [0, 0, 0.025] })
    const car = sim.addCar({ position: [-30, 0], speed: 20 })
    const d = sim.carDefinition(car)
    const dt = 1 / 240
    let peak = 0
    let crossed = -1
    const after: { t: number; z: number; vz: number; pitch: number }[] = []
    for (let t = 0; t < 4; t += dt) {
      hold(sim, car, 20)
      sim.step(dt)
      const s = sim.carState(car)
      peak = Math.max(peak, Math.abs(s.position[2] - d.cgHeight))
      // the rear axle past the kerb
      if (crossed < 0 && s.position[0] - (d.wheelbase - d.cgToFront) > 0.5) crossed = t
      if (crossed >= 0) after.push({ t: t - crossed, z: s.position[2] - d.cgHeight, vz: s.velocity[2], pitch: s.pitch })
    }
    expect(peak).toBeGreaterThan(0.002) // it felt the kerb
    const late = after.filter((a) => a.t >= 1)
    expect(late.length).toBeGreaterThan(100)
    for (const a of late) {
      expect(Math.abs(a.z)).toBeLessThan(0.005)
      expect(Math.abs(a.vz)).toBeLessThan(0.02)
    }
  })
})

describe('in the air, through a snapshot', () => {
  for (const level of ['full', 'singleTrack'] as const) {
    it(`${level}: a snapshot taken off the ramp restores into a grounded twin and flies on bit for bit`, () => {
      const make = () => {
        const sim = makeSim()
        addRamp(sim, 12, 10)
        const car = sim.addCar({ position: [-40, 0], speed: 20, lod: level })
        sim.setInput(car, { throttle: 0.5, gear: 1 })
        return { sim, car }
      }
      const a = make(), b = make()
      let steps = 0
      while (!a.sim.carState(a.car).grounded.every((g) => !g) && steps < 600) { a.sim.step(1 / 60); steps++ }
      a.sim.stepMany(1 / 60, 5)
      expect(a.sim.carState(a.car).grounded).toEqual([false, false, false, false])
      b.sim.restore(b.car, JSON.parse(JSON.stringify(a.sim.snapshot(a.car))))
      expect(b.sim.carState(b.car)).toEqual(a.sim.carState(a.car))
      a.sim.stepMany(1 / 60, 90)
      b.sim.stepMany(1 / 60, 90)
      expect(b.sim.carState(b.car)).toEqual(a.sim.carState(a.car))
    })
  }
})
