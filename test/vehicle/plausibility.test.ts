// The hatchback (VW Polo 1.0 TSI DSG class) against real-car figures: 0–100 km/h 9.3 s and top
// speed 193 km/h (VW data), braking 100→0 ≈ 35–38 m with ABS (magazine tests of the class), a
// skidpad of ≈ 0.85–0.95 g on road tyres, understeer, and a parked car that stays parked.
import { describe, expect, it } from 'vitest'
import { presets, surfaces } from '../../src/index'
import { brakeRun, circleDrive, hatchbackWithoutAbs, makeSim, runUntil } from './helpers'

describe('hatchback plausibility (tarmac)', () => {
  it('0–100 km/h in 8–12 s with automatic shifting, top speed 180–215 km/h', () => {
    const sim = makeSim()
    const car = sim.addCar()
    sim.setInput(car, { gear: 1, throttle: 1 })
    let maxGear = 0
    const t100 = runUntil(sim, () => { const s = sim.carState(car); maxGear = Math.max(maxGear, s.gear); return s.speed >= 100 / 3.6 }, 30)
    expect(t100).toBeGreaterThan(8)
    expect(t100).toBeLessThan(12)
    expect(maxGear).toBeGreaterThanOrEqual(3)
    // top speed: keep going until the speed stops growing (< 0.3 km/h in 10 s)
    let last = 0
    let top = 0
    for (let i = 0; i < 30; i++) {
      sim.stepMany(1 / 60, 600)
      top = sim.carState(car).speed * 3.6
      if (top - last < 0.3) break
      last = top
    }
    expect(top).toBeGreaterThan(180)
    expect(top).toBeLessThan(215)
    console.log(`0-100 km/h ${t100.toFixed(2)} s, top speed ${top.toFixed(1)} km/h`)
  })

  it('brakes from 100 km/h in 34–42 m with ABS; locked wheels stop longer and do not steer', () => {
    const abs = brakeRun(presets.hatchback, 100 / 3.6)
    const locked = brakeRun(hatchbackWithoutAbs(), 100 / 3.6)
    expect(abs.distance).toBeGreaterThan(34)
    expect(abs.distance).toBeLessThan(42)
    expect(locked.distance).toBeGreaterThan(abs.distance * 1.05)
    const absSteer = brakeRun(presets.hatchback, 100 / 3.6, 0.5)
    const lockedSteer = brakeRun(hatchbackWithoutAbs(), 100 / 3.6, 0.5)
    expect(absSteer.heading).toBeGreaterThan(0.3)
    expect(Math.abs(lockedSteer.heading)).toBeLessThan(0.05)
    console.log(`braking 100-0: ABS ${abs.distance.toFixed(1)} m, locked ${locked.distance.toFixed(1)} m; heading change with steer 0.5: ABS ${absSteer.heading.toFixed(2)} rad, locked ${lockedSteer.heading.toFixed(3)} rad`)
  })

  it('holds 8–9.8 m/s² on a 40 m circle, scales with grip, and understeers', () => {
    const R = 40
    const results: Record<string, number> = {}
    let understeer = 0
    for (const name of ['tarmac', 'wetTarmac', 'gravel', 'grass', 'ice'] as const) {
      const surf = surfaces[name]
      const sim = makeSim({ surfaces: { surfaceAt: () => surf } })
      const v0 = Math.sqrt((name === 'tarmac' ? 0.2 : 0.5) * surf.grip * 9.81 * R)
      const car = sim.addCar({ speed: v0 })
      const C = sim.components.Car
      let best = 0
      let off = 0
      const win: number[] = []
      let prev: number[] | null = null
      const samples: [number, number][] = []
      // a slow speed ramp (≈ quasi-steady): the best lateral acceleration held on the circle,
      // from v0 to just past the friction limit in 50 s (≤ 0.4 m/s³ of lateral acceleration growth)
      const ramp = (Math.sqrt(1.2 * surf.grip * 9.81 * R) - v0) / 50
      circleDrive(sim, car, R, (t) => v0 + ramp * t, 60, (t) => {
        const s = sim.carState(car)
        const r = Math.hypot(s.position[0], s.position[1] - R)
        // acceleration normal to the path (velocity turning), from successive host steps
        const [vx, vy] = s.velocity
        const ay = prev ? (prev[0] * (vy - prev[1]) - prev[1] * (vx - prev[0])) / Math.hypot(prev[0], prev[1]) * 60 : 0
        prev = [vx, vy]
        // held = the mean over the last second, with the car on the circle all that second
        win.push(Math.abs(r - R) < 0.5 ? ay : NaN)
        if (win.length > 60) win.shift()
        const mean = win.reduce((p, q) => p + q, 0) / win.length
        if (t > 5 && win.length === 60 && !Number.isNaN(mean)) { best = Math.max(best, mean); samples.push([mean, C.steerAngle[car]]) }
        if (Math.abs(r - R) > 3 && ++off > 30) return false
      })
      results[name] = best
      if (name === 'tarmac') {
        // steering needed vs lateral acceleration: slope > 0 (understeer gradient), in deg/g
        const near = (a: number) => samples.reduce((p, q) => (Math.abs(q[0] - a) < Math.abs(p[0] - a) ? q : p))
        const lo = near(2)
        const hi = near(6)
        understeer = ((hi[1] - lo[1]) / (hi[0] - lo[0])) * (180 / Math.PI) * 9.81
        const ackermann = presets.hatchback.wheelbase / R
        expect(lo[1]).toBeGreaterThan(ackermann * 0.98)
        expect(hi[1] - ackermann).toBeGreaterThan(lo[1] - ackermann)
      }
    }
    console.log('40 m circle, max lateral acceleration held (m/s²):', Object.entries(results).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', '), `; understeer gradient ${understeer.toFixed(2)} deg/g`)
    expect(results.tarmac).toBeGreaterThan(8)
    expect(results.tarmac).toBeLessThan(9.8)
    expect(understeer).toBeGreaterThan(0.2)
    for (const name of ['wetTarmac', 'gravel', 'grass', 'ice'] as const) {
      const ratio = results[name] / results.tarmac
      expect(ratio).toBeGreaterThan(surfaces[name].grip * 0.8)
      expect(ratio).toBeLessThan(surfaces[name].grip * 1.25)
    }
  })

  it('a parked car with no input moves less than 1 cm in 60 s', () => {
    const sim = makeSim()
    const car = sim.addCar({ position: [5, -3], heading: 0.7 })
    sim.stepMany(1 / 60, 3600)
    const s = sim.carState(car)
    expect(Math.hypot(s.position[0] - 5, s.position[1] + 3)).toBeLessThan(0.01)
    expect(Math.abs(s.heading - 0.7)).toBeLessThan(1e-6)
    expect(s.gear).toBe(0)
  })

  it('a car braked to a stop stays put, in drive with the brake held and in neutral released', () => {
    const sim = makeSim()
    const car = sim.addCar({ speed: 15 })
    sim.setInput(car, { gear: 1, brake: 1 })
    expect(runUntil(sim, () => Math.abs(sim.carState(car).speed) < 1e-3, 20)).toBeLessThan(5)
    const p = sim.carState(car).position
    sim.stepMany(1 / 60, 600)
    let q = sim.carState(car).position
    expect(Math.hypot(q[0] - p[0], q[1] - p[1])).toBeLessThan(0.01)
    sim.setInput(car, { gear: 0, brake: 0 })
    sim.stepMany(1 / 60, 1800)
    q = sim.carState(car).position
    expect(Math.hypot(q[0] - p[0], q[1] - p[1])).toBeLessThan(0.01)
    expect(Math.abs(sim.carState(car).speed)).toBeLessThan(1e-3)
  })
})
