import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, type Sim } from '../../src/sim'
import { stadiumPath, smoothClosedPath } from '../../src/driver/path'

// pitlane's own cars (the hatchback preset) driven by the path-following driver. Checks are made
// against the world: the analytic oval, the car's own pose, positions crossing a line.

const R = 50, HALF = 100
const oval = stadiumPath(2 * HALF, R, 1)
const LAP = 4 * HALF + 2 * Math.PI * R
const VBEND = Math.sqrt(6 * R)

/** Signed distance of (x, y) from the oval's centreline, + inside (left when driving anticlockwise). */
function insideOf(x: number, y: number): number {
  return R - (Math.abs(x) <= HALF ? Math.abs(y) : Math.hypot(Math.abs(x) - HALF, y))
}

type Level = 'full' | 'singleTrack'

interface LapRun { laps: number; crossings: number; maxLat: number; maxTrueLat: number; bendMin: number; bendMax: number; steps: number }

/** Drives one car round the oval until `laps` laps (or a time limit); `switchAt(step)` may change its level. */
function lapOval(level: Level, laps: number, switchLevel?: (sim: Sim, car: number, step: number) => void): LapRun {
  const sim = createSim(createWorld())
  const car = sim.addCar({ position: [-HALF, -R], heading: 0, lod: level })
  sim.setInput(car, { gear: 1 }) // the gear stays the user's: drive
  sim.setAi(car, oval, { closed: true, maxSpeed: 30, lateralAccel: 6 })
  const r: LapRun = { laps: 0, crossings: 0, maxLat: 0, maxTrueLat: 0, bendMin: Infinity, bendMax: 0, steps: 0 }
  let prevX = -HALF
  const limit = 60 * 50 * laps
  for (let i = 0; i < limit; i++) {
    switchLevel?.(sim, car, i)
    sim.stepMany(1 / 60, 1)
    r.steps++
    const st = sim.aiStatus(car)!
    const cs = sim.carState(car)
    const [x, y] = cs.position
    // the start line (x = -HALF on the lower straight), crossed going +x
    if (y < 0 && prevX < -HALF && x >= -HALF) r.crossings++
    prevX = x
    if (st.distance > 50) {
      r.maxLat = Math.max(r.maxLat, Math.abs(st.lateralError))
      r.maxTrueLat = Math.max(r.maxTrueLat, Math.abs(insideOf(x, y)))
    }
    if (Math.abs(x) > HALF && st.distance > 100) { r.bendMin = Math.min(r.bendMin, cs.speed); r.bendMax = Math.max(r.bendMax, cs.speed) }
    r.laps = st.laps
    if (st.laps >= laps && st.distance > laps * LAP + 5) break
  }
  return r
}

function expectGoodLaps(r: LapRun, laps: number) {
  expect(r.laps).toBe(laps)
  expect(r.crossings).toBe(laps)
  expect(r.maxLat).toBeLessThan(0.5)
  expect(r.maxTrueLat).toBeLessThan(0.5)
  expect(r.bendMin).toBeGreaterThan(0.9 * VBEND)
  expect(r.bendMax).toBeLessThan(1.1 * VBEND)
}

describe('driving pitlane cars round the 200 m / 50 m oval', () => {
  it('full: 3 laps, counted, on the line, bends within 10% of sqrt(6 * 50)', () => {
    expectGoodLaps(lapOval('full', 3), 3)
  })

  it('singleTrack: the same', () => {
    expectGoodLaps(lapOval('singleTrack', 3), 3)
  })

  it('across LOD switches mid-lap (full -> singleTrack -> full)', () => {
    const r = lapOval('full', 2, (sim, car, step) => {
      if (step === 60 * 12) { sim.setLod(car, 'singleTrack'); expect(sim.carState(car).model).toBe('singleTrack') }
      if (step === 60 * 27) { sim.setLod(car, 'full'); expect(sim.carState(car).model).toBe('fourWheel') }
    })
    expectGoodLaps(r, 2)
  })

  it('holds the line at a coarse 20 Hz host step too (the driver runs once per host step)', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ position: [-HALF, -R], heading: 0, lod: 'singleTrack' })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, oval, { closed: true })
    let maxLat = 0
    for (let i = 0; i < 20 * 45; i++) {
      sim.step(1 / 20)
      const st = sim.aiStatus(car)!
      if (st.distance > 50) maxLat = Math.max(maxLat, Math.abs(st.lateralError))
    }
    expect(sim.aiStatus(car)!.laps).toBe(1)
    expect(maxLat).toBeLessThan(0.5)
  })

  it('at walking pace joins the line from 2 m off smoothly (well damped, steering calm)', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ position: [-HALF, -R + 2], heading: -0.3, lod: 'singleTrack' })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, oval, { closed: true, maxSpeed: 3 })
    let overshoot = 0, maxRate = 0, prevSteer = sim.getInput(car).steer
    for (let i = 0; i < 60 * 20; i++) {
      sim.step(1 / 60)
      const lat = sim.aiStatus(car)!.lateralError, steer = sim.getInput(car).steer
      overshoot = Math.max(overshoot, -lat) // started 2 m to the left (+): the right side is overshoot
      if (i > 0) maxRate = Math.max(maxRate, Math.abs(steer - prevSteer) * 60) // (the first step takes over from the user)
      prevSteer = steer
    }
    expect(overshoot).toBeLessThan(0.2) // < 10 % of the initial 2 m
    expect(Math.abs(sim.aiStatus(car)!.lateralError)).toBeLessThan(0.02)
    expect(maxRate).toBeLessThan(2) // steer input changes by less than 2 per second (lock to lock in > 1 s)
  })

  it('keeps driving through tight 8 m hairpins (low-speed geometric body slip is not a slide)', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ position: [-20, -8], heading: 0, lod: 'singleTrack' })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, stadiumPath(40, 8, 0.5), { closed: true })
    let minBend = Infinity
    for (let i = 0; i < 60 * 40; i++) {
      sim.step(1 / 60)
      const cs = sim.carState(car)
      if (sim.aiStatus(car)!.distance > 30 && Math.abs(cs.position[0]) > 20) minBend = Math.min(minBend, cs.speed)
    }
    expect(sim.aiStatus(car)!.laps).toBeGreaterThanOrEqual(2)
    expect(minBend).toBeGreaterThan(0.55 * Math.sqrt(6 * 8)) // profile: √(6·8) = 6.9 m/s
  })

  it('two cars at lateralOffset +2 / -2 hold about 4 m apart', () => {
    const sim = createSim(createWorld())
    const a = sim.addCar({ position: [-HALF, -R + 2], heading: 0 })
    const b = sim.addCar({ position: [-HALF, -R - 2], heading: 0 })
    sim.setInput(a, { gear: 1 }); sim.setInput(b, { gear: 1 })
    sim.setAi(a, oval, { closed: true, lateralOffset: 2 })
    sim.setAi(b, oval, { closed: true, lateralOffset: -2 })
    let worst = 0
    for (let i = 0; i < 60 * 40; i++) {
      sim.step(1 / 60)
      if (i < 60 * 5) continue
      const pa = sim.carState(a).position, pb = sim.carState(b).position
      worst = Math.max(worst, Math.abs(insideOf(pa[0], pa[1]) - insideOf(pb[0], pb[1]) - 4))
    }
    expect(worst).toBeLessThan(0.5)
  })
})

describe('a twisty circuit near the grip limit', () => {
  // the demo circuit's control points (a ~2.4 km lap: hairpin, chicane, sweepers)
  const circuit = smoothClosedPath([
    [0, 0], [260, 0], [390, 12], [450, 80], [440, 160], [370, 205], [290, 225], [250, 280],
    [280, 345], [370, 370], [450, 410], [470, 490], [410, 550], [290, 560], [150, 540], [60, 480],
    [0, 390], [-90, 350], [-190, 340], [-260, 280], [-250, 170], [-180, 90], [-110, 25], [-55, 0],
  ], 2)
  for (const level of ['full', 'singleTrack'] as const) {
    it(`${level}: a lap at lateralAccel 8 (the hatchback holds ≈ 8.5–9 m/s² on a skidpad) without a spin, near the line`, () => {
      const sim = createSim(createWorld())
      const car = sim.addCar({ position: [0, 0], heading: 0, lod: level })
      sim.setInput(car, { gear: 1 })
      sim.setAi(car, circuit, { closed: true, maxSpeed: 45, lateralAccel: 8 })
      let maxLat = 0, maxSlip = 0
      for (let i = 0; i < 60 * 150 && sim.aiStatus(car)!.laps < 1; i++) {
        sim.step(1 / 60)
        const st = sim.aiStatus(car)!, cs = sim.carState(car)
        if (st.distance > 50) maxLat = Math.max(maxLat, Math.abs(st.lateralError))
        // body slip angle from the world velocity and the heading
        const slip = Math.atan2(cs.velocity[1], cs.velocity[0]) - cs.heading
        if (cs.speed > 5) maxSlip = Math.max(maxSlip, Math.abs(Math.atan2(Math.sin(slip), Math.cos(slip))))
      }
      expect(sim.aiStatus(car)!.laps).toBe(1)
      expect(maxSlip).toBeLessThan(0.15)
      expect(maxLat).toBeLessThan(1)
    })
  }
})

describe('an open S-shaped path', () => {
  for (const level of ['full', 'singleTrack'] as const) {
    it(`${level}: stops within 2 m of the end and reports finished`, () => {
      const pts: number[][] = []
      for (let i = 0; i <= 300; i += 2) pts.push([i, 30 * Math.sin((i / 300) * 2 * Math.PI)])
      const sim = createSim(createWorld())
      const car = sim.addCar({ position: [0, 0], heading: Math.atan2(30 * 2 * Math.PI / 300, 1), lod: level })
      sim.setInput(car, { gear: 1 })
      sim.setAi(car, pts, { maxSpeed: 25 })
      let done = -1
      for (let i = 0; i < 60 * 60 && done < 0; i++) {
        sim.step(1 / 60)
        if (sim.aiStatus(car)!.finished) done = i
      }
      expect(done).toBeGreaterThan(0)
      const cs = sim.carState(car)
      expect(Math.hypot(cs.position[0] - 300, cs.position[1])).toBeLessThan(2)
      expect(Math.abs(cs.speed)).toBeLessThan(0.2)
      sim.stepMany(1 / 60, 120) // holds the brake: stays put
      expect(Math.hypot(sim.carState(car).position[0] - cs.position[0], sim.carState(car).position[1] - cs.position[1])).toBeLessThan(0.05)
      expect(sim.getInput(car)).toMatchObject({ throttle: 0, brake: 1 })
    })
  }
})

describe('determinism', () => {
  it('the same driven set-up twice gives bit-identical states', () => {
    const run = () => {
      const sim = createSim(createWorld())
      const cars = [0, 1, 2].map((k) => sim.addCar({ position: [-HALF + 20 * k, -R + k - 1], heading: 0.02 * k, speed: 5 * k }))
      cars.forEach((c, k) => { sim.setInput(c, { gear: 1 }); sim.setAi(c, oval, { closed: true, lateralOffset: k - 1 }) })
      sim.setLod(cars[2], 'singleTrack')
      sim.stepMany(1 / 60, 600)
      return cars.map((c) => JSON.stringify([sim.carState(c), sim.aiStatus(c), sim.getInput(c)]))
    }
    expect(run()).toEqual(run())
  })
})
