// Ten simulated minutes of random inputs for every preset, at both models, over every surface.
// To keep the runtime modest the five surfaces are painted as a 25 m checkerboard, so each run
// covers all of them (asserted: every car spends time on each) instead of fifteen separate
// ten-minute runs, and the three presets drive side by side in one sim (cars do not interact).
import { describe, expect, it } from 'vitest'
import { presets, surfaces, type Surface, type SurfaceMap } from '../../src/index'
import { makeSim } from './helpers'
import { seededRandom } from '../random'

const FIELDS = ['x', 'y', 'heading', 'vx', 'vy', 'yawRate', 'speed', 'heave', 'heaveRate', 'roll', 'rollRate', 'pitch', 'pitchRate', 'steerAngle', 'engineSpeed', 'shiftTimer', 'ax', 'time', 'acc'] as const
const palette: Surface[] = [surfaces.tarmac, surfaces.wetTarmac, surfaces.gravel, surfaces.grass, surfaces.ice]
const cellOf = (x: number, y: number) => (((Math.floor(x / 25) + 2 * Math.floor(y / 25)) % 5) + 5) % 5
const checkerboard: SurfaceMap = { surfaceAt: (x, y) => palette[cellOf(x, y)] }
const PRESETS = ['hatchback', 'sportsCar', 'van'] as const

function randomDrive(lod: 'full' | 'singleTrack', seed: number) {
  const sim = makeSim({ surfaces: checkerboard })
  const C = sim.components.Car
  const cars = PRESETS.map((p, i) => {
    const car = sim.addCar({ definition: presets[p], position: [0, 1000 * i] })
    if (lod === 'singleTrack') sim.setLod(car, 'singleTrack', 240)
    return car
  })
  const rand = seededRandom(seed)
  const stats = PRESETS.map(() => ({ maxSpeed: 0, maxYaw: 0, maxWheel: 0, maxRpm: 0, maxRoll: 0, onSurface: new Int32Array(5) }))
  for (let step = 0; step < 600 * 60; step++) {
    for (let k = 0; k < cars.length; k++) {
      if (step % 30 !== 0) continue
      const def = presets[PRESETS[k]]
      const gears = def.gearbox.ratios.length
      // mostly driving (small steering, throttle), sometimes braking, full lock, handbrake, gear
      // changes; the first 20 s of every minute flat out (manual gear picked by speed)
      const mode = rand()
      if (step % 3600 < 1200) {
        const fit = Math.max(1, Math.min(gears, 1 + Math.floor(Math.abs(C.speed[cars[k]]) / 9)))
        sim.setInput(cars[k], { steer: (rand() - 0.5) * 0.04, throttle: 1, brake: 0, handbrake: 0, clutch: 0, gear: def.gearbox.automatic ? 1 : fit })
        continue
      }
      const gear = def.gearbox.automatic ? (rand() < 0.85 ? 1 : rand() < 0.5 ? -1 : 0) : rand() < 0.9 ? 1 + Math.floor(rand() * gears) : rand() < 0.5 ? -1 : 0
      sim.setInput(cars[k], {
        steer: rand() < 0.2 ? rand() * 2 - 1 : (rand() - 0.5) * 0.2,
        throttle: mode < 0.7 ? 0.3 + 0.7 * rand() : 0,
        brake: mode > 0.85 ? rand() : 0,
        handbrake: rand() < 0.03 ? 1 : 0,
        clutch: !def.gearbox.automatic && rand() < 0.05 ? rand() : 0,
        ...(step % 300 === 0 ? { gear } : {}),
      })
    }
    sim.step(1 / 60)
    // read the store directly (carState allocates): every state field of every car, every step
    for (let k = 0; k < cars.length; k++) {
      const car = cars[k]
      const st = stats[k]
      let bad = false
      for (const f of FIELDS) if (!Number.isFinite(C[f][car])) bad = true
      for (let w = 0; w < 4; w++) {
        const ws = C.wheelSpeed[car * 4 + w]
        if (!Number.isFinite(ws)) bad = true
        st.maxWheel = Math.max(st.maxWheel, Math.abs(ws))
      }
      if (bad) throw new Error(`${PRESETS[k]}/${lod}: non-finite state at step ${step}: ${JSON.stringify(sim.carState(car))}`)
      st.maxSpeed = Math.max(st.maxSpeed, Math.abs(C.speed[car]))
      st.maxYaw = Math.max(st.maxYaw, Math.abs(C.yawRate[car]))
      st.maxRpm = Math.max(st.maxRpm, (C.engineSpeed[car] * 30) / Math.PI)
      st.maxRoll = Math.max(st.maxRoll, Math.abs(C.roll[car]), Math.abs(C.pitch[car]))
      st.onSurface[cellOf(C.x[car], C.y[car])]++
    }
  }
  return cars.map((car, k) => ({ ...stats[k], preset: PRESETS[k], time: sim.carState(car).time }))
}

describe('random inputs for 10 simulated minutes', () => {
  for (const [n, lod] of (['full', 'singleTrack'] as const).entries()) {
    it(`every preset at ${lod} over every surface: finite, no runaway speed or spin`, () => {
      for (const r of randomDrive(lod, 1234 + n)) {
        console.log(`${r.preset}/${lod}: max speed ${r.maxSpeed.toFixed(1)} m/s, max yaw rate ${r.maxYaw.toFixed(2)} rad/s, max wheel ${r.maxWheel.toFixed(0)} rad/s, max rpm ${r.maxRpm.toFixed(0)}, max |roll|,|pitch| ${r.maxRoll.toFixed(3)} rad; seconds on ${palette.map((p, k) => `${p.name} ${(r.onSurface[k] / 60).toFixed(0)}`).join(', ')}`)
        expect(r.time).toBeCloseTo(600, 6)
        expect(r.maxSpeed).toBeGreaterThan(25)
        expect(r.maxSpeed).toBeLessThan(80)
        expect(r.maxYaw).toBeLessThan(5)
        expect(r.maxWheel).toBeLessThan(300)
        expect(r.maxRpm).toBeLessThan(presets[r.preset].engine.maxRpm + 1500)
        expect(r.maxRoll).toBeLessThan(0.2)
        for (let k = 0; k < 5; k++) expect(r.onSurface[k], `${r.preset} on ${palette[k].name}`).toBeGreaterThan(600)
      }
    })
  }
})
