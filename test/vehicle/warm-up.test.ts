// The single-track feedback warm-up (src/vehicle/warm-up.ts) runs on a car's first switch to
// single-track per flag combination and must leave no trace: a warmed car and an unwarmed twin in
// another sim (the same combination, so not warmed again) stay bit-identical, at rest and driven.
import { describe, expect, it } from 'vitest'
import { presets, type CarDefinition, type Sim } from '../../src/index'
import { makeSim } from './helpers'

// every number with the sign of its zeros
const bits = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'number' ? (Object.is(x, -0) ? '-0' : String(x)) : x))

/** Car `eid`'s row of every Car array, as bits. */
function row(sim: Sim, eid: number): string {
  const C = sim.components.Car as unknown as Record<string, unknown>
  const out: number[] = []
  for (const k of Object.keys(C)) {
    const arr = C[k]
    if (!ArrayBuffer.isView(arr)) continue
    const w = k === 'wheelSpeed' ? 4 : 1
    out.push(...Array.from((arr as Float64Array).subarray(eid * w, eid * w + w)))
  }
  return bits(out)
}

function twins(definition: CarDefinition, viaSetLod: boolean): void {
  const sims = [makeSim(), makeSim()]
  // the first car in the process with this combination is warmed, its twin is not
  const cars = sims.map((sim) => {
    const car = sim.addCar({ definition, position: [5, 7], heading: 0.3, speed: 12, lod: viaSetLod ? 'full' : 'singleTrack' })
    if (viaSetLod) sim.setLod(car, 'singleTrack', 240)
    return car
  })
  const same = () => {
    expect(bits(sims[0].carState(cars[0]))).toBe(bits(sims[1].carState(cars[1])))
    expect(row(sims[0], cars[0])).toBe(row(sims[1], cars[1]))
  }
  same()
  for (let i = 0; i < 2; i++) sims[i].setInput(cars[i], { gear: 1, throttle: 0.6, steer: 0.2 })
  for (let s = 0; s < 120; s++) for (const sim of sims) sim.step(1 / 60)
  same()
  for (let i = 0; i < 2; i++) sims[i].setInput(cars[i], { throttle: 0, brake: 1 })
  for (let s = 0; s < 120; s++) for (const sim of sims) sim.step(1 / 60)
  same()
}

describe('single-track warm-up', () => {
  it('leaves a car added at single-track exactly as set (hatchback: ABS, TCS, front drive)', () => {
    twins(presets.hatchback, false)
  })
  it('leaves a car moved to single-track by setLod exactly as it was (rear drive, no ABS)', () => {
    twins({ ...presets.sportsCar, brakes: { ...presets.sportsCar.brakes, abs: false } }, true)
  })
})
