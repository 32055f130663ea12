// The path-following driver on an undulating closed circuit: an oval over rolling hills
// (amplitude 1.5 m, wavelength 100 m: grounded at the driver's speeds). Its speed profile and
// pedals still follow the line: the lateral error stays within 2× of the same lap on flat ground,
// at full and singleTrack; at the path level the car rides the hills (height and pitch).
import { describe, expect, it } from 'vitest'
import { presets, stadiumPath } from '../../src/index'
import { makeSim } from './helpers'
import { addHills, addSlope, powerBalanceTopSpeed } from './terrain-helpers'

const R = 50, HALF = 100
const oval = stadiumPath(2 * HALF, R, 1)

function lap(level: 'full' | 'singleTrack' | 'path', hills: boolean) {
  const sim = makeSim(hills ? { ground: false } : undefined)
  const z = hills ? addHills(sim, 1.5, 100, 500) : () => 0
  const car = sim.addCar({ position: [-HALF, -R], heading: 0, lod: level === 'path' ? 'singleTrack' : level })
  sim.setInput(car, { gear: 1 })
  sim.setAi(car, oval, { closed: true, maxSpeed: 30, lateralAccel: 6 })
  if (level === 'path') sim.setLod(car, 'path')
  let maxLat = 0, sumLat = 0, n = 0, lo = Infinity, hi = -Infinity, worstRide = 0
  for (let i = 0; i < 60 * 60 && sim.aiStatus(car)!.laps < 1; i++) {
    sim.step(1 / 60)
    const st = sim.aiStatus(car)!, s = sim.carState(car)
    if (st.distance > 50) { maxLat = Math.max(maxLat, Math.abs(st.lateralError)); sumLat += Math.abs(st.lateralError); n++ }
    lo = Math.min(lo, s.position[2]); hi = Math.max(hi, s.position[2])
    worstRide = Math.max(worstRide, Math.abs(s.position[2] - z(s.position[0], s.position[1]) - 0.55))
  }
  return { laps: sim.aiStatus(car)!.laps, maxLat, meanLat: sumLat / n, rise: hi - lo, worstRide }
}

describe('the driver over rolling hills', () => {
  for (const level of ['full', 'singleTrack'] as const) {
    it(`${level}: a lap of the oval with its lateral error within 2× of the flat lap's`, () => {
      const flat = lap(level, false), hills = lap(level, true)
      console.log(`${level}: flat max ${flat.maxLat.toFixed(3)} mean ${flat.meanLat.toFixed(3)} m; hills max ${hills.maxLat.toFixed(3)} mean ${hills.meanLat.toFixed(3)} m, rising ${hills.rise.toFixed(2)} m`)
      expect(hills.laps).toBe(1)
      expect(hills.rise).toBeGreaterThan(2)
      expect(hills.maxLat).toBeLessThan(2 * flat.maxLat)
      expect(hills.meanLat).toBeLessThan(2 * flat.meanLat)
    })
  }
  it('path: the car rides the hills (its height follows the ground) round the lap', () => {
    const hills = lap('path', true)
    expect(hills.laps).toBe(1)
    expect(hills.rise).toBeGreaterThan(2)
    expect(hills.worstRide).toBeLessThan(0.05)
  })
})

describe('the path level on a climb', () => {
  it("a path car's power-limited speed includes the climb: up 10% it tops out near its power balance, below its flat speed", () => {
    const run = (grade: number) => {
      const sim = makeSim({ ground: false })
      addSlope(sim, grade, 3000)
      const car = sim.addCar({ position: [-2900, 0], lod: 'singleTrack' })
      sim.setInput(car, { gear: 1 })
      sim.setAi(car, [[-2900, 0], [2900, 0]], { maxSpeed: 80 })
      sim.setLod(car, 'path')
      sim.stepMany(1 / 60, 60 * 60)
      return sim.carState(car)
    }
    const climb = run(0.1), flat = run(0)
    const top = powerBalanceTopSpeed(presets.hatchback, Math.atan(0.1))
    expect(climb.pitch).toBeCloseTo(-Math.atan(0.1), 3)
    expect(climb.speed).toBeLessThan(1.05 * top)
    expect(climb.speed).toBeGreaterThan(0.85 * top)
    expect(flat.speed).toBeGreaterThan(1.3 * top)
  })
})

describe('path ↔ singleTrack over the hills', () => {
  it('each switch keeps the car on the surface (within 2 cm) and its speed (within 0.5%)', () => {
    const sim = makeSim({ ground: false })
    const z = addHills(sim, 1.5, 100, 500)
    const car = sim.addCar({ position: [-HALF, -R], heading: 0, lod: 'singleTrack' })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, oval, { closed: true, maxSpeed: 25, lateralAccel: 6 })
    sim.stepMany(1 / 60, 300)
    let switches = 0
    for (let k = 0; k < 8; k++) {
      const before = sim.carState(car)
      sim.setLod(car, k % 2 === 0 ? 'path' : 'singleTrack')
      sim.step(1 / 60)
      const after = sim.carState(car)
      expect(Math.abs(after.position[2] - z(after.position[0], after.position[1]) - 0.55)).toBeLessThan(0.02)
      expect(Math.abs(after.speed - before.speed) / before.speed).toBeLessThan(0.005)
      switches++
      sim.stepMany(1 / 60, 47)
    }
    expect(switches).toBe(8)
  })
})
