// The single-track model against the four-wheel one: same car, same inputs.
import { describe, expect, it } from 'vitest'
import type { Sim } from '../../src/index'
import { makeSim } from './helpers'

/** Holds `speed` with a throttle/brake P-controller and a fixed steering input; returns the mean yaw rate and lateral acceleration of the last 2 s. */
function steadyCorner(lod: 'full' | 'singleTrack', hz: number | undefined, speed: number, steer: number): { yawRate: number; ay: number } {
  const sim = makeSim()
  const car = sim.addCar({ speed })
  if (lod === 'singleTrack') sim.setLod(car, 'singleTrack', hz)
  let yaw = 0
  let ay = 0
  let n = 0
  for (let i = 0; i < 600; i++) {
    const s = sim.carState(car)
    const ev = speed - s.speed
    sim.setInput(car, { gear: 1, steer, throttle: Math.max(0, Math.min(1, 0.8 * ev + 0.2)), brake: Math.max(0, Math.min(1, -0.5 * ev)) })
    sim.step(1 / 60)
    if (i >= 480) { const t = sim.carState(car); yaw += t.yawRate; ay += t.speed * t.yawRate; n++ }
  }
  return { yawRate: yaw / n, ay: ay / n }
}

function accelRun(sim: Sim, car: number): { t100: number; v5: number; v10: number; v20: number } {
  sim.setInput(car, { gear: 1, throttle: 1 })
  let t = 0
  let t100 = NaN
  const v: number[] = []
  for (let i = 1; i <= 1200; i++) {
    sim.step(1 / 60)
    t = i / 60
    const s = sim.carState(car).speed
    if (Number.isNaN(t100) && s >= 100 / 3.6) t100 = t
    if (i % 300 === 0) v.push(s)
  }
  return { t100, v5: v[0], v10: v[1], v20: v[3] }
}

describe('single-track vs four-wheel', () => {
  it('agree within 10% on yaw rate and lateral acceleration in a steady corner at 20 m/s', () => {
    const full = steadyCorner('full', undefined, 20, 0.06)
    for (const hz of [500, 240]) {
      const st = steadyCorner('singleTrack', hz, 20, 0.06)
      console.log(`steady corner 20 m/s: four-wheel yaw ${full.yawRate.toFixed(4)} ay ${full.ay.toFixed(3)}; single-track@${hz} yaw ${st.yawRate.toFixed(4)} ay ${st.ay.toFixed(3)}`)
      expect(full.ay).toBeGreaterThan(3)
      expect(Math.abs(st.yawRate / full.yawRate - 1)).toBeLessThan(0.1)
      expect(Math.abs(st.ay / full.ay - 1)).toBeLessThan(0.1)
    }
  })

  it('agree within 2% on a straight-line acceleration run', () => {
    const a = makeSim()
    const full = accelRun(a, a.addCar())
    for (const hz of [500, 240]) {
      const b = makeSim()
      const car = b.addCar({ lod: 'singleTrack' })
      b.setLod(car, 'singleTrack', hz)
      const st = accelRun(b, car)
      console.log(`acceleration: four-wheel 0-100 ${full.t100.toFixed(2)} s, v(5,10,20 s) ${[full.v5, full.v10, full.v20].map((x) => x.toFixed(2))}; single-track@${hz} ${st.t100.toFixed(2)} s, ${[st.v5, st.v10, st.v20].map((x) => x.toFixed(2))}`)
      expect(Math.abs(st.t100 / full.t100 - 1)).toBeLessThan(0.02)
      expect(Math.abs(st.v5 / full.v5 - 1)).toBeLessThan(0.02)
      expect(Math.abs(st.v10 / full.v10 - 1)).toBeLessThan(0.02)
      expect(Math.abs(st.v20 / full.v20 - 1)).toBeLessThan(0.02)
    }
  })
})
