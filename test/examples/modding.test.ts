import { describe, expect, it } from 'vitest'
import { createWorld, type World } from 'bitecs'
import { createSim, type Sim } from '../../src/index'
import { addLapTimer } from '../../examples/modding/lap-timer'
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

/** A frozen car (not stepped by the sim) carried round a circle by setPose: an analytic trajectory. */
function circleRig(radius: number, speed: number, startAngle: number) {
  const sim = createSim(createWorld())
  const car = sim.addCar({ position: [radius * Math.cos(startAngle), radius * Math.sin(startAngle)], heading: startAngle + Math.PI / 2 })
  sim.setLod(car, 'frozen')
  // Line across the circle at angle 0, left end (towards the centre: the car turns left) first.
  const timer = addLapTimer(sim, { line: [[radius - 10, 0], [radius + 10, 0]] })
  const { Car } = sim.components
  let angle = startAngle
  const mover = (world: World) => {
    // Runs before the vehicle step: place the car where the circle says it is at the end of this step.
    angle += (speed / radius) * DT
    sim.setPose(car, [radius * Math.cos(angle), radius * Math.sin(angle)], yawMatrix(angle + Math.PI / 2))
    return world
  }
  sim.schedule.add(mover, { name: 'carry-round', phase: 'input' })
  return { sim, car, timer, Car, setSpeed: (v: number) => { speed = v } }
}

describe('lap timer', () => {
  it('times laps of a known circle to microseconds, starting on the first crossing', () => {
    const R = 50, v = 20, lap = (2 * Math.PI * R) / v
    const { sim, car, timer } = circleRig(R, v, -0.3)
    expect(timer.laps(car)).toBe(0)
    sim.stepMany(DT, Math.ceil((0.3 * R / v + 3 * lap + 1) / DT))
    // crossings at (0.3 + 2πk)·R/v: the first starts lap 1, three more complete three laps
    expect(timer.laps(car)).toBe(3)
    expect(timer.lastCrossing(car)).toBeCloseTo((0.3 * R) / v + 3 * lap, 4)
    for (const t of timer.lapTimes(car)) expect(Math.abs(t - lap)).toBeLessThan(1e-4)
    expect(timer.bestLap(car)).toBe(Math.min(...timer.lapTimes(car)))
    expect(timer.lastLap(car)).toBe(timer.lapTimes(car)[2])
  })

  it('ignores crossing back and forth, and cars passing beside the line', () => {
    const R = 50
    const { sim, car, timer, setSpeed } = circleRig(R, 20, -0.2)
    sim.stepMany(DT, 60) // crosses forward at t = 0.5 s: lap 1 starts
    const started = timer.lastCrossing(car)
    expect(started).toBeCloseTo(0.5, 6)
    setSpeed(-20)
    sim.stepMany(DT, 60) // back over the line…
    setSpeed(20)
    sim.stepMany(DT, 60) // …and forward again: no lap, and lap 1 still runs from its start
    expect(timer.laps(car)).toBe(0)
    expect(timer.lastCrossing(car)).toBe(started)
    sim.stepMany(DT, Math.ceil((2 * Math.PI * R) / 20 / DT))
    expect(timer.laps(car)).toBe(1)
    // the lap includes the two seconds spent going back and forth
    expect(timer.lastLap(car)).toBeCloseTo((2 * Math.PI * R) / 20 + 2, 3)

    // A second car on a bigger circle passes the line's extension, never the line itself.
    const wide = sim.addCar({ position: [R + 30, -1], heading: Math.PI / 2 })
    sim.setLod(wide, 'frozen')
    sim.step(DT)
    sim.setPose(wide, [R + 30, 1])
    sim.step(DT)
    expect(timer.laps(wide)).toBe(0)
    expect(Number.isNaN(timer.lastCrossing(wide))).toBe(true)
  })

  it('rejects a bad line, and forgets a removed car whose id comes back', () => {
    const sim = createSim(createWorld())
    expect(() => addLapTimer(sim, { line: [[0, 0], [0, 0]] })).toThrow(RangeError)
    expect(() => addLapTimer(sim, { line: [[0, 0]] as never })).toThrow(TypeError)
    expect(sim.schedule.has('time-laps')).toBe(false)
    const { sim: s2, car, timer } = circleRig(50, 20, -0.2)
    s2.stepMany(DT, 60)
    expect(Number.isNaN(timer.lastCrossing(car))).toBe(false)
    s2.schedule.remove('carry-round')
    s2.remove(car)
    // ids are recycled at once (the car's or its chassis collider's comes back first)
    let again = -1
    for (let i = 0; i < 4 && again !== car; i++) again = s2.addCar({ position: [0, 0] })
    expect(again).toBe(car)
    expect(Number.isNaN(timer.lastCrossing(again))).toBe(true)
    expect(timer.laps(again)).toBe(0)
    timer.remove()
    expect(s2.schedule.has('time-laps')).toBe(false)
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
