// A banked turn (15°): the steady cornering speed on a fixed radius rises above the flat one by
// the factor physics gives for the car's measured grip: v² = g·R·(μ + tan β) / (1 − μ·tan β)
// with μ = v_flat² / (g·R) measured on the flat, at the load the bank puts on the tyres
// (N / m·g = cos β + v²/(g·R)·sin β; the definition's tyre loses loadSensitivity of its μ per unit
// of load above nominal), within 10%.
import { describe, expect, it } from 'vitest'
import { heightfield, presets } from '../../src/index'
import { circleDrive, makeSim } from './helpers'

const G = 9.81
const R = 40
const BANK = (15 * Math.PI) / 180

/** The highest speed the car holds the circle at (within 0.5 m over a second) as its target speed rises slowly, on the flat or on the bank. */
function steadyLimit(level: 'full' | 'singleTrack', banked: boolean): number {
  const sim = makeSim(banked ? { ground: false } : undefined)
  if (banked) {
    // a cone round the circle's centre (0, R): the ground rises outward at 15° across a 24 m band, level beyond
    const cell = 0.5, n = 281, x0 = -70
    const heights = new Float64Array(n * n)
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
      const r = Math.hypot(x0 + i * cell, x0 + R + j * cell - R)
      heights[j * n + i] = (Math.max(R - 12, Math.min(R + 12, r)) - R) * Math.tan(BANK)
    }
    sim.addCollider(heightfield([x0, x0 + R, 0], cell, n, n, heights))
  }
  const v0 = Math.sqrt(0.5 * G * R)
  const car = sim.addCar({ speed: v0, lod: level })
  const ramp = (Math.sqrt(2.2 * G * R) - v0) / 60
  let best = 0
  const win: number[] = []
  circleDrive(sim, car, R, (t) => v0 + ramp * t, 70, (t) => {
    const s = sim.carState(car)
    const off = Math.abs(Math.hypot(s.position[0], s.position[1] - R) - R)
    win.push(off < 0.5 ? Math.hypot(s.velocity[0], s.velocity[1]) : NaN)
    if (win.length > 60) win.shift()
    const mean = win.reduce((p, q) => p + q, 0) / win.length
    if (t > 5 && win.length === 60 && !Number.isNaN(mean)) best = Math.max(best, mean)
    if (off > 3) return false
  })
  return best
}

describe.each(['full', 'singleTrack'] as const)('a 15° banked turn on a 40 m radius (%s)', (level) => {
  it("holds a higher steady speed than the flat by the physics factor for the car's measured grip (within 10%)", () => {
    const flat = steadyLimit(level, false)
    const bank = steadyLimit(level, true)
    const mu = (flat * flat) / (G * R)
    const t = Math.tan(BANK)
    const k = presets.hatchback.tyre.loadSensitivity
    let expected = flat
    for (let i = 0; i < 20; i++) {
      const load = Math.cos(BANK) + ((expected * expected) / (G * R)) * Math.sin(BANK)
      const m = mu * (1 - k * (load - 1))
      expected = Math.sqrt((G * R * (m + t)) / (1 - m * t))
    }
    console.log(`${level}: flat ${flat.toFixed(2)} m/s (μ ${mu.toFixed(3)}), banked ${bank.toFixed(2)} m/s, physics ${expected.toFixed(2)} m/s`)
    expect(bank).toBeGreaterThan(flat * 1.1)
    expect(Math.abs(bank - expected) / expected).toBeLessThan(0.1)
  })
})
