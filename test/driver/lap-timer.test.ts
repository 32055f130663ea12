// addLapTimer: lap times of a car carried round a circle analytically (to microseconds), crossings
// back and forth, cars beside the line, a path-level car's crossing interpolated from its own
// positions (the system runs after step-path-cars), bad options refused, recycled ids forgotten.
import { describe, expect, it } from 'vitest'
import { createWorld, type World } from 'bitecs'
import { addLapTimer, createSim, stadiumPath } from '../../src/index'
import { yawMatrix } from '../../examples/race/field'

const DT = 1 / 60

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

describe('addLapTimer', () => {
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

  it('runs after step-path-cars, so a path-level car crossing is interpolated from its positions of that step', () => {
    const sim = createSim(createWorld())
    const path = stadiumPath(200, 60) // the bottom straight runs +x along y = -60 from x = -100
    const x0 = 0, y0 = -60
    const car = sim.addCar({ position: [-90, y0], heading: 0, speed: 25 })
    sim.setInput(car, { gear: 2 })
    sim.setAi(car, path, { closed: true, maxSpeed: 25 })
    sim.setLod(car, 'path')
    const timer = addLapTimer(sim, { line: [[x0, y0 + 10], [x0, y0 - 10]] })
    const names = sim.schedule.names()
    expect(names.indexOf('time-laps')).toBeGreaterThan(names.indexOf('step-path-cars'))
    const { Car } = sim.components
    let px = Car.x[car]!, py = Car.y[car]!, want = NaN
    for (let s = 0; s < 600 && Number.isNaN(want); s++) {
      sim.step(DT)
      const x = Car.x[car]!, y = Car.y[car]!
      expect(sim.getLod(car).level).toBe('path')
      // the line runs along y at x = x0: a forward crossing goes from x < x0 to x ≥ x0
      if (px < x0 && x >= x0 && Math.abs(y - y0) < 10) want = sim.time - DT + DT * (x0 - px) / (x - px)
      px = x; py = y
    }
    expect(Number.isNaN(want)).toBe(false)
    expect(py).toBeCloseTo(y0, 0)
    expect(Math.abs(timer.lastCrossing(car) - want)).toBeLessThan(1e-9)
  })

  it('refuses unknown keys, a bad line, a taken name and an unknown system, changing nothing', () => {
    const sim = createSim(createWorld())
    const before = sim.schedule.names()
    expect(() => addLapTimer(sim, { line: [[0, 0], [1, 0]], colour: 'red' } as never)).toThrow(/options\.colour is not an option/)
    expect(() => addLapTimer(sim, { line: [[0, 0], [0, NaN]] })).toThrow(/options\.line\[1\]\[1\] must be finite/)
    expect(() => addLapTimer(sim, { line: [[0, 0], [0, 0, 0]] })).toThrow(/options\.line\[1\] must have 2 numbers/)
    expect(() => addLapTimer(sim, { line: 'start' as never })).toThrow(TypeError)
    expect(() => addLapTimer(sim, { line: [[0, 0], [1, 0]], after: 'no-such-system' })).toThrow(/no-such-system/)
    expect(() => addLapTimer(sim, { line: [[0, 0], [1, 0]], name: 'step-vehicles' })).toThrow(/already scheduled/)
    expect(() => addLapTimer(null as never, { line: [[0, 0], [1, 0]] })).toThrow()
    expect(sim.schedule.names()).toEqual(before)
    const a = addLapTimer(sim, { line: [[0, 0], [1, 0]] })
    const b = addLapTimer(sim, { line: [Float64Array.of(5, 0), Float64Array.of(5, 1)], name: 'sector-1' })
    expect([a.name, b.name]).toEqual(['time-laps', 'sector-1'])
    expect(() => a.laps(12345)).toThrow(/not a car this lap timer knows/)
    const car = sim.addCar({ position: [0, 0] })
    expect(b.lapTimes(car)).toEqual([])
    b.lapTimes(car).push(1) // a copy: the timer's own record is untouched
    expect(b.lapTimes(car)).toEqual([])
  })
})
