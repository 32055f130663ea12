import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, LodController, type Sim } from '../../src/index'

function simWithCars(xs: number[]): { sim: Sim; cars: number[] } {
  const sim = createSim(createWorld())
  const cars = xs.map((x) => sim.addCar({ position: [x, 0], heading: 0, speed: 0 }))
  return { sim, cars }
}

/** Counts sim.setLod calls (the controller must only call it on a change). */
function countSetLod(sim: Sim): { calls: number } {
  const c = { calls: 0 }
  const orig = sim.setLod
  ;(sim as { setLod: Sim['setLod'] }).setLod = (...args: Parameters<Sim['setLod']>) => { c.calls++; return orig(...args) }
  return c
}

const level = (sim: Sim, car: number) => sim.getLod(car).level

describe('LodController', () => {
  it('assigns levels by distance bands, by hand and installed on the sim', () => {
    const { sim, cars } = simWithCars([10, 100, 400])
    const lod = new LodController(sim)
    expect(lod.update((car) => Math.abs(sim.carState(car).position[0]))).toBe(2)
    expect(cars.map((c) => level(sim, c))).toEqual(['full', 'singleTrack', 'frozen'])
    // Installed with a point focus far away: everything freezes inside a step (and stepMany).
    const { sim: sim2, cars: cars2 } = simWithCars([10, 100, 500])
    new LodController(sim2, { singleTrackHz: 240 }).install({ focus: [100, 0] })
    sim2.stepMany(1 / 60, 2)
    expect(cars2.map((c) => level(sim2, c))).toEqual(['singleTrack', 'full', 'frozen'])
    expect(sim2.getLod(cars2[0]).hz).toBe(240)
  })

  it('never changes level while a car oscillates across a band edge by less than the hysteresis', () => {
    const { sim, cars } = simWithCars([0])
    const lod = new LodController(sim, { singleTrackBeyond: 60, frozenBeyond: 300, hysteresis: 10 }).install({ focus: [65, 0] })
    const calls = countSetLod(sim)
    for (const edge of [60, 300]) {
      lod.setFocus([edge + 9.9, 0])
      sim.step(1 / 60) // at most one change to settle at this side
      const settled = level(sim, cars[0])
      const before = calls.calls
      for (let i = 0; i < 240; i++) {
        lod.setFocus([edge + 9.9 * Math.sin(i * 0.7), 0])
        sim.step(1 / 60)
        expect(level(sim, cars[0])).toBe(settled)
      }
      expect(calls.calls).toBe(before)
    }
    // Beyond the edge by more than the hysteresis it does switch.
    lod.setFocus([60 - 10.5, 0])
    sim.step(1 / 60)
    expect(level(sim, cars[0])).toBe('full')
    lod.setFocus([60 + 10.5, 0])
    sim.step(1 / 60)
    expect(level(sim, cars[0])).toBe('singleTrack')
  })

  it('keeps pinned cars at full and never gives external cars singleTrack', () => {
    const { sim, cars } = simWithCars([0, 0, 0])
    const [pinned, external, plain] = cars
    const lod = new LodController(sim).install({ focus: [0, 0] })
    lod.pin(pinned)
    lod.markExternal(external)
    const seen = { pinned: new Set<string>(), external: new Set<string>(), plain: new Set<string>() }
    for (let i = 0; i <= 100; i++) {
      lod.setFocus([i * 5, 0]) // sweeps 0 → 500 m
      sim.step(1 / 60)
      seen.pinned.add(level(sim, pinned)); seen.external.add(level(sim, external)); seen.plain.add(level(sim, plain))
    }
    expect([...seen.pinned]).toEqual(['full'])
    expect([...seen.external].sort()).toEqual(['frozen', 'full'])
    expect([...seen.plain].sort()).toEqual(['frozen', 'full', 'singleTrack'])
    // Pinning a frozen car raises it at once; unpinned it follows the bands again.
    lod.pin(plain)
    expect(level(sim, plain)).toBe('full')
    lod.unpin(plain)
    sim.step(1 / 60)
    expect(level(sim, plain)).toBe('frozen')
    // A car dropped to singleTrack by hand is raised when marked external.
    lod.uninstall()
    sim.setLod(plain, 'singleTrack')
    lod.markExternal(plain)
    expect(level(sim, plain)).toBe('full')
  })

  it('follows a focus entity, and stops following it once it is removed (its id may be recycled)', () => {
    const { sim, cars } = simWithCars([0, 100])
    const [player, other] = cars
    const lod = new LodController(sim).install({ focus: player })
    sim.step(1 / 60)
    expect(level(sim, other)).toBe('singleTrack')
    sim.setPose(player, [100, 0, 0])
    sim.step(1 / 60)
    expect(level(sim, other)).toBe('full')
    expect(lod.focus()[0]).toBeCloseTo(100, 6)
    sim.remove(player)
    const recycled = sim.addCar({ position: [1000, 0], heading: 0 })
    expect(recycled).toBe(player)
    sim.step(1 / 60)
    expect(lod.focus()[0]).toBeCloseTo(100, 6) // last known position, not the recycled car's
    expect(level(sim, other)).toBe('full')
    expect(level(sim, recycled)).toBe('frozen')
    expect(lod.isPinned(recycled)).toBe(false)
  })

  it('refuses bad options and arguments with a named TypeError/RangeError, changing nothing', () => {
    const { sim, cars } = simWithCars([10, 100])
    expect(() => new LodController(sim, { hysteresis: -1 })).toThrow(/options\.hysteresis/)
    expect(() => new LodController(sim, { hysteresis: NaN })).toThrow(RangeError)
    expect(() => new LodController(sim, { singleTrackBeyond: '60' as never })).toThrow(TypeError)
    expect(() => new LodController(sim, { singleTrackBeyond: 100, frozenBeyond: 50 })).toThrow(/frozenBeyond/)
    expect(() => new LodController(sim, { singleTrackHz: 0 })).toThrow(/singleTrackHz/)
    expect(() => new LodController(null as never)).toThrow(/sim/)
    const lod = new LodController(sim, { frozenBeyond: Infinity })
    expect(() => lod.update(42 as never)).toThrow(/distanceOf/)
    // The second car's distance is bad: the first car must not have changed either.
    expect(() => lod.update((car) => (car === cars[1] ? NaN : 500))).toThrow(/distanceOf/)
    expect(cars.map((c) => level(sim, c))).toEqual(['full', 'full'])
    expect(() => lod.update(() => 'far' as never)).toThrow(TypeError)
    expect(() => lod.pin(9999)).toThrow(/car/)
    expect(() => lod.pin(sim.ground)).toThrow(/not a car/)
    expect(() => lod.markExternal(-1)).toThrow(RangeError)
    expect(() => lod.install({ focus: [NaN, 0] })).toThrow(/focus/)
    expect(() => lod.install({} as never)).toThrow(/focus/)
    expect(() => lod.install({ focus: 12345 })).toThrow(/focus/)
    expect(sim.internal.lod.controller).toBe(null)
    // frozenBeyond = Infinity never freezes.
    lod.update(() => 1e9)
    expect(cars.map((c) => level(sim, c))).toEqual(['singleTrack', 'singleTrack'])
  })

  it('installed, gives every car the level update gives for its planar distance to the focus (pinned, external, driven or not)', () => {
    // Two identical fields of cars spread over every band, some driven, one pinned and one external
    // in each; one sim runs the installed step, the other update() with the distance worked out by
    // hand, while the focus sweeps across them.
    const field = () => {
      const { sim, cars } = simWithCars(Array.from({ length: 40 }, (_, i) => i * 13 - 100))
      cars.forEach((c, i) => { if (i % 3 !== 0) sim.setAi(c, [[-200, 0], [400, 0]], { maxSpeed: 1 }) })
      const lod = new LodController(sim, { singleTrackBeyond: 40, pathBeyond: 150, frozenBeyond: 300, hysteresis: 5 })
      lod.pin(cars[7]); lod.markExternal(cars[20])
      return { sim, cars, lod }
    }
    const a = field(), b = field()
    a.lod.install({ focus: [0, 0] })
    const { x, y } = b.sim.components.Car
    let changes = 0
    for (let k = 0; k <= 60; k++) {
      const fx = k * 10 - 100, fy = (k % 7) * 3
      a.lod.setFocus([fx, fy])
      const stepped = a.lod.step()
      const updated = b.lod.update((car) => Math.hypot(x[car] - fx, y[car] - fy))
      expect(stepped).toBe(updated)
      changes += stepped
      expect(a.cars.map((c) => level(a.sim, c))).toEqual(b.cars.map((c) => level(b.sim, c)))
    }
    expect(changes).toBeGreaterThan(40)
    expect(level(a.sim, a.cars[7])).toBe('full')
    for (const c of a.cars.filter((_, i) => i % 3 === 0)) expect(level(a.sim, c)).not.toBe('path')
    expect(a.cars.some((c) => level(a.sim, c) === 'path')).toBe(true)
    // A car whose position is not finite stops the step before any level changes.
    a.sim.components.Car.x[a.cars[3]] = NaN
    const before = a.cars.map((c) => level(a.sim, c))
    a.lod.setFocus([1000, 0])
    expect(() => a.lod.step()).toThrow(/distance to the focus is NaN/)
    expect(a.cars.map((c) => level(a.sim, c))).toEqual(before)
  })
})
