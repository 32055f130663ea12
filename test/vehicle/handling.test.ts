// Handling at both levels against road-car figures: the understeer gradient on a 40 m circle,
// a trail-braking matrix where the single-track model must not spin where the four-wheel model
// does not, and the sportsCar's (limited-slip) single-track model against its four-wheel one.
import { describe, expect, it } from 'vitest'
import { presets, type CarDefinition } from '../../src/index'
import { circleDrive, gearFor, makeSim } from './helpers'

const LEVELS = ['full', 'singleTrack'] as const
type Lod = (typeof LEVELS)[number]
const G = 9.81

// steady steer angle (road wheel, rad) and lateral acceleration (m/s²) on a circle of radius R at `ay` g
function steadyCircle(def: CarDefinition, lod: Lod, R: number, ay: number): { delta: number; ay: number } {
  const sim = makeSim()
  const v = Math.sqrt(ay * G * R)
  const car = sim.addCar({ definition: def, speed: v, lod })
  const C = sim.components.Car
  let n = 0
  let delta = 0
  let lateral = 0
  circleDrive(sim, car, R, () => v, 12, (t) => {
    if (t <= 9) return
    const s = sim.carState(car)
    n++
    delta += C.steerAngle[car]
    lateral += s.speed * s.yawRate
  })
  return { delta: delta / n, ay: lateral / n }
}

/** Understeer gradient, deg/g: the slope of steady steer angle over lateral acceleration on a 40 m circle, 0.1–0.5 g. */
function understeerGradient(def: CarDefinition, lod: Lod): number {
  const pts = [0.1, 0.2, 0.3, 0.4, 0.5].map((ay) => steadyCircle(def, lod, 40, ay))
  const xs = pts.map((p) => p.ay / G)
  const ys = pts.map((p) => (p.delta * 180) / Math.PI)
  const mx = xs.reduce((a, b) => a + b) / xs.length
  const my = ys.reduce((a, b) => a + b) / ys.length
  let num = 0
  let den = 0
  for (let i = 0; i < xs.length; i++) { num += (xs[i] - mx) * (ys[i] - my); den += (xs[i] - mx) ** 2 }
  expect(Math.max(...xs)).toBeGreaterThan(0.45)
  return num / den
}

// steady state at 25 m/s with a fixed steer input, speed held by the throttle
function steady25(def: CarDefinition, lod: Lod, steer: number, seconds = 4) {
  const sim = makeSim()
  const car = sim.addCar({ definition: def, speed: 25, lod })
  sim.setInput(car, { steer, gear: gearFor(def, 25) })
  for (let i = 0; i < seconds * 60; i++) {
    sim.setInput(car, { throttle: Math.max(0, Math.min(1, 0.3 + 0.5 * (25 - sim.carState(car).speed))) })
    sim.step(1 / 60)
  }
  return { sim, car }
}

// the steer input holding `ay` g at 25 m/s (four-wheel model, bisection)
function steerFor(def: CarDefinition, ay: number): number {
  let lo = 0
  let hi = 0.25
  for (let i = 0; i < 12; i++) {
    const mid = (lo + hi) / 2
    const { sim, car } = steady25(def, 'full', mid, 2)
    const s = sim.carState(car)
    if ((s.speed * s.yawRate) / G < ay) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

// largest sideslip (deg) braking at `brake` from the steady corner, steer held, until 3 m/s
function trailBrake(def: CarDefinition, lod: Lod, steer: number, brake: number): number {
  const { sim, car } = steady25(def, lod, steer, 2)
  sim.setInput(car, { throttle: 0, brake })
  const C = sim.components.Car
  let worst = 0
  for (let i = 0; i < 240; i++) {
    sim.step(1 / 60)
    const vx = C.vx[car]
    const vy = C.vy[car]
    if (Math.hypot(vx, vy) < 3) break
    worst = Math.max(worst, (Math.abs(Math.atan2(vy, Math.abs(vx))) * 180) / Math.PI)
  }
  return worst
}

describe('handling', () => {
  const bands = { hatchback: [1.5, 4.5], van: [2.0, 5.5], sportsCar: [0.5, 3.0] } as const
  for (const name of ['hatchback', 'van', 'sportsCar'] as const) {
    it(`${name}: understeer gradient on a 40 m circle over 0.1–0.5 g in ${bands[name][0]}–${bands[name][1]} deg/g at both levels, within 25% of each other`, () => {
      const full = understeerGradient(presets[name], 'full')
      const single = understeerGradient(presets[name], 'singleTrack')
      console.log(`${name}: K ${full.toFixed(2)} (full) / ${single.toFixed(2)} (single-track) deg/g`)
      for (const k of [full, single]) {
        expect(k).toBeGreaterThan(bands[name][0])
        expect(k).toBeLessThan(bands[name][1])
      }
      expect(Math.abs(single - full) / full).toBeLessThan(0.25)
    })
  }

  for (const name of ['hatchback', 'van', 'sportsCar'] as const) {
    it(`${name}: trail braking from 25 m/s (0.3–0.7 g × 0.15–1.0 g): where the four-wheel model stays below 4° of sideslip the single-track one stays below 6°`, () => {
      const def = presets[name]
      const rows: string[] = []
      for (const ay of [0.3, 0.5, 0.7]) {
        const steer = steerFor(def, ay)
        const cells: string[] = []
        for (const g of [0.15, 0.4, 0.7, 1.0]) {
          const brake = Math.min(1, (g * def.mass * G * def.wheelRadius) / def.brakes.maxTorque)
          const full = trailBrake(def, 'full', steer, brake)
          const single = trailBrake(def, 'singleTrack', steer, brake)
          cells.push(`${full.toFixed(1)}/${single.toFixed(1)}`)
          if (full < 4) expect(single, `${ay} g lateral, ${g} g braking: four-wheel ${full.toFixed(1)}°`).toBeLessThan(6)
        }
        rows.push(`${ay} g: ${cells.join(' ')}`)
      }
      console.log(`${name} sideslip (deg, full/single-track) by braking 0.15 0.4 0.7 1.0 g: ${rows.join('; ')}`)
    })
  }

  it('sportsCar (limited slip): the single-track yaw rate at 0.4 g and the grip on a 40 m circle within 4% of the four-wheel model', () => {
    const def = presets.sportsCar
    const steer = steerFor(def, 0.4)
    const yaw = (lod: Lod) => { const { sim, car } = steady25(def, lod, steer); return sim.carState(car).yawRate }
    const yawRatio = yaw('singleTrack') / yaw('full')
    const grip = (lod: Lod) => {
      const R = 40
      const sim = makeSim()
      const v0 = Math.sqrt(0.5 * G * R)
      const car = sim.addCar({ definition: def, speed: v0, lod })
      const ramp = (Math.sqrt(1.2 * G * R) - v0) / 40
      let best = 0
      let prev: number[] | null = null
      const win: number[] = []
      circleDrive(sim, car, R, (t) => v0 + ramp * t, 45, (t) => {
        const s = sim.carState(car)
        const [vx, vy] = s.velocity
        const ay = prev ? ((prev[0] * (vy - prev[1]) - prev[1] * (vx - prev[0])) / Math.hypot(prev[0], prev[1])) * 60 : 0
        prev = [vx, vy]
        win.push(Math.abs(Math.hypot(s.position[0], s.position[1] - R) - R) < 0.5 ? ay : NaN)
        if (win.length > 60) win.shift()
        const mean = win.reduce((p, q) => p + q, 0) / win.length
        if (t > 5 && win.length === 60 && !Number.isNaN(mean)) best = Math.max(best, mean)
        if (Math.abs(Math.hypot(s.position[0], s.position[1] - R) - R) > 3) return false
      })
      return best
    }
    const gripRatio = grip('singleTrack') / grip('full')
    console.log(`sportsCar single-track / four-wheel: yaw rate at 0.4 g ${yawRatio.toFixed(4)}, max lateral acceleration on 40 m ${gripRatio.toFixed(4)}`)
    expect(Math.abs(yawRatio - 1)).toBeLessThan(0.04)
    expect(Math.abs(gripRatio - 1)).toBeLessThan(0.04)
  })
})
