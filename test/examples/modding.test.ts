import { describe, expect, it } from 'vitest'
import { createWorld, type World } from 'bitecs'
import { createSim, type Sim } from '../../src/index'
import { addSlipstream } from '../../examples/modding/slipstream'
import { yawMatrix } from '../../examples/race/field'
import { seededRandom } from '../random'

const DT = 1 / 60

describe('user systems in the schedule', () => {
  it('run where before/after put them, every step, seeing the state of that point of the step', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ position: [0, 0], heading: 0, speed: 10 })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, [[0, 0], [500, 0]], { maxSpeed: 20 })
    const { Car } = sim.components
    const log: string[] = []
    const seen: { step: number; where: string; x: number; throttle: number }[] = []
    const probe = (where: string) => (world: World) => {
      log.push(where)
      seen.push({ step: sim.steps, where, x: Car.x[car], throttle: Car.throttle[car] })
      return world
    }
    sim.schedule.add(probe('post'), { name: 'probe-post', phase: 'vehicle', after: 'step-vehicles' })
    sim.schedule.add(probe('pre'), { name: 'probe-pre', phase: 'vehicle', before: 'step-vehicles' })
    sim.schedule.add(probe('input'), { name: 'probe-input', phase: 'input', after: 'drive-paths' })
    const names = sim.schedule.names()
    const at = (n: string) => names.indexOf(n)
    expect(at('drive-paths')).toBeLessThan(at('probe-input'))
    expect(at('probe-input')).toBeLessThan(at('probe-pre'))
    expect(at('probe-pre')).toBeLessThan(at('step-vehicles'))
    expect(at('step-vehicles')).toBeLessThan(at('probe-post'))

    const steps = 30
    sim.stepMany(DT, steps)
    // Added in the order post, pre, input, yet each step runs them input → pre → post.
    expect(log).toEqual(Array.from({ length: steps }, () => ['input', 'pre', 'post']).flat())
    for (let s = 0; s < steps; s++) {
      const [input, pre, post] = seen.slice(3 * s, 3 * s + 3)
      // After the driver: its throttle for this step is already written (the car starts below its target speed).
      expect(input.throttle).toBeGreaterThan(0)
      // Before the vehicle step the car has not moved since the previous step ended; after it, it has.
      expect(pre.x).toBe(input.x)
      if (s > 0) expect(pre.x).toBe(seen[3 * s - 1].x)
      expect(post.x - pre.x).toBeGreaterThan(5 * DT) // it rolls at 10 m/s, give or take a gear change
    }
  })
})

/** Two hatchbacks at 30 m/s on full throttle down the x axis, the second `gap` m behind and `side` m across. */
function pair(gap: number, side: number, withSlipstream: boolean) {
  const sim = createSim(createWorld())
  const lead = sim.addCar({ position: [gap, 0], heading: 0, speed: 30 })
  const follow = sim.addCar({ position: [0, side], heading: 0, speed: 30 })
  for (const c of [lead, follow]) sim.setInput(c, { throttle: 1, gear: 1 })
  const slip = withSlipstream ? addSlipstream(sim) : null
  return { sim, lead, follow, slip }
}

const speedOf = (sim: Sim, car: number) => sim.carState(car).speed

describe('slipstream', () => {
  it('tows a car in the wake by about the drag it saves, and leaves the leader alone', () => {
    const on = pair(10, 0, true), off = pair(10, 0, false)
    const seconds = 3
    on.sim.stepMany(DT, seconds * 60)
    off.sim.stepMany(DT, seconds * 60)
    // The leader has nothing ahead: bit-identical with and without the mod.
    expect(speedOf(on.sim, on.lead)).toBe(speedOf(off.sim, off.lead))
    expect(on.slip!.leader(on.follow)).toBe(on.lead)
    expect(on.slip!.leader(on.lead)).toBe(-1)
    // Expected gain: the saved drag r·½ρCdA·v² over the mass, for r at a 10 m gap (0.4 × 20/26).
    const d = on.sim.internal.vehicles.defs[on.follow]!
    const r = (0.4 * (30 - 10)) / (30 - 4)
    let v = 30, expected = 0
    const vOff = speedOf(off.sim, off.follow)
    for (let i = 0; i < seconds * 60; i++) { v = 30 + ((vOff - 30) * i) / (seconds * 60); expected += ((r * d.dragK * v * v) / d.mass) * DT }
    const gain = speedOf(on.sim, on.follow) - vOff
    expect(gain).toBeGreaterThan(0.6 * expected) // some of the push spins up wheels and engine
    expect(gain).toBeLessThan(1.1 * expected)
  })

  it('gives no tow beside the wake or beyond its reach', () => {
    for (const [gap, side] of [[10, 3], [40, 0]]) {
      const on = pair(gap, side, true), off = pair(gap, side, false)
      on.sim.stepMany(DT, 60)
      off.sim.stepMany(DT, 60)
      expect(on.slip!.reduction(on.follow)).toBe(0)
      expect(speedOf(on.sim, on.follow)).toBe(speedOf(off.sim, off.follow))
    }
  })

  it('finds the same leaders through its spatial hash as a brute-force search', () => {
    const sim = createSim(createWorld())
    const rand = seededRandom(11)
    const cars: number[] = []
    // A dense pack, mostly heading east, so many cars sit in someone's wake.
    for (let i = 0; i < 80; i++) {
      const car = sim.addCar({ position: [rand() * 150, rand() * 12], heading: (rand() - 0.5) * 0.3, speed: 20, lod: 'singleTrack' })
      cars.push(car)
    }
    const slip = addSlipstream(sim)
    const { Car } = sim.components
    const x = cars.map((c) => Car.x[c]), y = cars.map((c) => Car.y[c]), h = cars.map((c) => Car.heading[c])
    sim.step(DT)
    let towed = 0
    cars.forEach((c, i) => {
      let best = 0, leader = -1
      cars.forEach((d, j) => {
        if (j === i) return
        const dx = x[j] - x[i], dy = y[j] - y[i]
        const along = dx * Math.cos(h[i]) + dy * Math.sin(h[i])
        const across = Math.abs(-dx * Math.sin(h[j]) + dy * Math.cos(h[j]))
        if (along <= 0 || along >= 30 || across > 1.6 || Math.cos(h[i] - h[j]) < 0.9) return
        const r = along <= 4 ? 0.4 : (0.4 * (30 - along)) / 26
        if (r > best) { best = r; leader = d }
      })
      expect(slip.leader(c)).toBe(leader)
      expect(slip.reduction(c)).toBeCloseTo(best, 12)
      if (leader >= 0) towed++
    })
    expect(towed).toBeGreaterThan(10)
  })

  it('validates its options before joining the schedule', () => {
    const sim = createSim(createWorld())
    expect(() => addSlipstream(sim, { reach: 3, minGap: 4 })).toThrow(RangeError)
    expect(() => addSlipstream(sim, { maxReduction: 2 })).toThrow(RangeError)
    expect(sim.schedule.has('slipstream')).toBe(false)
  })
})
