// Hosted cars at LOD: frozen is allowed (the Rapier body goes kinematic and asleep, and wakes
// with the car's velocity), singleTrack never (setLod throws, LodController skips the level).
import { beforeAll, describe, expect, it } from 'vitest'
import { LodController, presets } from '../../src/index'
import { hostedSim, initRapier, rel } from './helpers'

beforeAll(initRapier)

describe('hosted cars and levels of detail', () => {
  it('setLod(car, "singleTrack") on a hosted car throws and changes nothing', () => {
    const { sim, rapier } = hostedSim()
    const car = sim.addCar({ speed: 10 })
    rapier.host(car)
    const before = sim.snapshot(car)
    expect(() => sim.setLod(car, 'singleTrack')).toThrow(RangeError)
    expect(() => sim.setLod(car, 'singleTrack', 240)).toThrow(/hosted/)
    expect(sim.getLod(car).level).toBe('full')
    expect(sim.snapshot(car)).toEqual(before)
    // a singleTrack snapshot cannot come in either
    const other = sim.addCar({ speed: 10, lod: 'singleTrack' })
    expect(() => sim.restore(car, sim.snapshot(other))).toThrow(/hosted/)
    expect(sim.snapshot(car)).toEqual(before)
    // unhosted again, it may go down
    sim.clearHost(car)
    sim.setLod(car, 'singleTrack')
    expect(sim.getLod(car).level).toBe('singleTrack')
  })

  it('an installed LodController freezes far hosted cars but never reduces them', () => {
    const { sim, rapier } = hostedSim()
    const near = sim.addCar({ position: [100, 0] })
    const far = sim.addCar({ position: [400, 0] })
    const plain = sim.addCar({ position: [100, 10] })
    rapier.host(near)
    rapier.host(far)
    // installed after setHost: the lod phase marks the hosted cars external on it
    new LodController(sim).install({ focus: [0, 0] })
    sim.stepMany(1 / 60, 3)
    expect(sim.getLod(plain).level).toBe('singleTrack')
    expect(sim.getLod(near).level).toBe('full')
    expect(sim.getLod(far).level).toBe('frozen')
    expect(rapier.bodyOf(far)!.isKinematic()).toBe(true)
    // a car hosted while a controller is installed is raised to full and marked at once
    sim.setHost(plain, rapier)
    expect(sim.getLod(plain).level).toBe('full')
    sim.stepMany(1 / 60, 3)
    expect(sim.getLod(plain).level).toBe('full')
  })

  it('clearHost takes back the external mark hosting gave, not one the user gave', () => {
    const { sim, rapier } = hostedSim()
    const lod = new LodController(sim).install({ focus: [0, 0] })
    const a = sim.addCar({ position: [100, 0] })
    const b = sim.addCar({ position: [100, 10] })
    lod.markExternal(b)
    rapier.host(a)
    rapier.host(b)
    expect(lod.isExternal(a)).toBe(true)
    sim.clearHost(a)
    sim.clearHost(b)
    expect(lod.isExternal(a)).toBe(false)
    expect(lod.isExternal(b)).toBe(true)
    sim.stepMany(1 / 60, 2)
    expect(sim.getLod(a).level).toBe('singleTrack')
    expect(sim.getLod(b).level).toBe('full')
  })

  it('a frozen hosted car stays put and resumes with its velocity', () => {
    const { sim, rapier } = hostedSim()
    const car = sim.addCar({ speed: 20, heading: 0.5 })
    const ref = sim.addCar({ speed: 20, heading: 0.5, position: [0, -50] })
    rapier.host(car)
    sim.stepMany(1 / 60, 30)
    const s0 = sim.carState(car)
    sim.setLod(car, 'frozen')
    sim.setLod(ref, 'frozen')
    const body = rapier.bodyOf(car)!
    expect(body.isKinematic()).toBe(true)
    expect(body.isSleeping()).toBe(true)
    const p0 = body.translation()
    sim.stepMany(1 / 60, 60)
    const s1 = sim.carState(car)
    expect(s1.position).toEqual(s0.position)
    expect(s1.speed).toBe(s0.speed)
    expect(body.translation()).toEqual(p0)
    sim.setLod(car, 'full')
    sim.setLod(ref, 'full')
    expect(body.isDynamic()).toBe(true)
    expect(body.linvel().x).toBeCloseTo(s0.velocity[0], 4)
    expect(body.linvel().y).toBeCloseTo(s0.velocity[1], 4)
    sim.stepMany(1 / 60, 30)
    const a = sim.carState(ref)
    const b = sim.carState(car)
    expect(b.speed).toBeGreaterThan(15)
    expect(rel(b.speed, a.speed)).toBeLessThan(0.01)
    expect(Math.hypot(b.position[0] - a.position[0], b.position[1] - 50 - a.position[1])).toBeLessThan(0.05)
  })

  it('a frozen car that gets hosted starts kinematic, and thaws dynamic', () => {
    const { sim, rapier } = hostedSim()
    const car = sim.addCar({ speed: 12, lod: 'frozen' })
    rapier.host(car)
    expect(rapier.bodyOf(car)!.isKinematic()).toBe(true)
    sim.setLod(car, 'full')
    expect(rapier.bodyOf(car)!.linvel().x).toBeCloseTo(12, 5)
    sim.step(1 / 60)
    expect(sim.carState(car).position[0]).toBeCloseTo(12 / 60, 2)
  })
})

describe('setHost validation and lifecycle', () => {
  it('rejects bad arguments and changes nothing', () => {
    const { sim, rapier } = hostedSim()
    const car = sim.addCar()
    const kart = sim.addCar({ definition: { ...presets.hatchback, model: 'singleTrack' } })
    expect(() => sim.setHost(car, {} as never)).toThrow(TypeError)
    expect(() => sim.setHost(car, null as never)).toThrow(/host must be a VehicleHost/)
    expect(() => sim.setHost(9999, rapier)).toThrow(/car/)
    expect(() => sim.setHost(sim.ground, rapier)).toThrow(RangeError) // the ground is not a car
    expect(() => sim.setHost(kart, rapier)).toThrow(RangeError)
    expect(sim.hostOf(car)).toBe(null)
    expect(sim.hostOf(kart)).toBe(null)
    expect(rapier.world.bodies.len()).toBe(0)
  })

  it('removing a hosted car removes its Rapier body; teleport moves it', () => {
    const { sim, rapier } = hostedSim()
    const a = sim.addCar()
    const b = sim.addCar({ position: [20, 0] })
    rapier.host(a)
    rapier.host(b)
    expect(rapier.world.bodies.len()).toBe(2)
    sim.setPose(b, [50, 5], [0, -1, 0, 1, 0, 0, 0, 0, 1])
    const t = rapier.bodyOf(b)!.translation()
    expect([t.x, t.y]).toEqual([50, 5])
    sim.step(1 / 60)
    expect(sim.carState(b).heading).toBeCloseTo(Math.PI / 2, 5)
    sim.remove(a)
    expect(rapier.world.bodies.len()).toBe(1)
    expect(rapier.bodyOf(a)).toBe(null)
    sim.step(1 / 60)
  })
})
