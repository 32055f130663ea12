// Ten simulated minutes of random inputs for every preset, at both models, over every surface.
// To keep the runtime modest the five surfaces are painted as a 25 m checkerboard, so each run
// covers all of them (asserted) instead of fifteen separate ten-minute runs.
import { describe, expect, it } from 'vitest'
import { presets, surfaces, type Surface, type SurfaceMap } from '../../src/index'
import { makeSim } from './helpers'

function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FIELDS = ['x', 'y', 'heading', 'vx', 'vy', 'yawRate', 'speed', 'heave', 'heaveRate', 'roll', 'rollRate', 'pitch', 'pitchRate', 'steerAngle', 'engineSpeed', 'shiftTimer', 'ax', 'time', 'acc'] as const

const palette: Surface[] = [surfaces.tarmac, surfaces.wetTarmac, surfaces.gravel, surfaces.grass, surfaces.ice]

function checkerboard(visits: Int32Array): SurfaceMap {
  return {
    surfaceAt(x, y) {
      const i = (((Math.floor(x / 25) + 2 * Math.floor(y / 25)) % 5) + 5) % 5
      visits[i]++
      return palette[i]
    },
  }
}

function randomDrive(preset: keyof typeof presets, lod: 'full' | 'singleTrack', seed: number) {
  const visits = new Int32Array(5)
  const sim = makeSim({ surfaces: checkerboard(visits) })
  const def = presets[preset]
  const car = sim.addCar({ definition: def })
  if (lod === 'singleTrack') sim.setLod(car, 'singleTrack', 240)
  const rand = rng(seed)
  const gears = def.gearbox.ratios.length
  const maxRpm = def.engine.maxRpm
  const C = sim.components.Car
  let maxSpeed = 0
  let maxYaw = 0
  let maxWheel = 0
  let maxRpmSeen = 0
  let maxRoll = 0
  for (let step = 0; step < 600 * 60; step++) {
    if (step % 30 === 0) {
      // mostly driving (small steering, throttle), sometimes braking, full lock, handbrake, gear changes
      const mode = rand()
      const gearChange = step % 300 === 0
      const gear = def.gearbox.automatic ? (rand() < 0.85 ? 1 : rand() < 0.5 ? -1 : 0) : rand() < 0.9 ? 1 + Math.floor(rand() * gears) : rand() < 0.5 ? -1 : 0
      sim.setInput(car, {
        steer: rand() < 0.2 ? rand() * 2 - 1 : (rand() - 0.5) * 0.2,
        throttle: mode < 0.7 ? 0.3 + 0.7 * rand() : 0,
        brake: mode > 0.85 ? rand() : 0,
        handbrake: rand() < 0.03 ? 1 : 0,
        clutch: !def.gearbox.automatic && rand() < 0.05 ? rand() : 0,
        ...(gearChange ? { gear } : {}),
      })
    }
    sim.step(1 / 60)
    // read the store directly (carState allocates): every state field of the car, every step
    let bad = false
    for (const f of FIELDS) if (!Number.isFinite(C[f][car])) bad = true
    for (let w = 0; w < 4; w++) {
      const ws = C.wheelSpeed[car * 4 + w]
      if (!Number.isFinite(ws)) bad = true
      maxWheel = Math.max(maxWheel, Math.abs(ws))
    }
    if (bad) throw new Error(`${preset}/${lod}: non-finite state at step ${step}: ${JSON.stringify(sim.carState(car))}`)
    maxSpeed = Math.max(maxSpeed, Math.abs(C.speed[car]))
    maxYaw = Math.max(maxYaw, Math.abs(C.yawRate[car]))
    maxRpmSeen = Math.max(maxRpmSeen, (C.engineSpeed[car] * 30) / Math.PI)
    maxRoll = Math.max(maxRoll, Math.abs(C.roll[car]), Math.abs(C.pitch[car]))
  }
  return { maxSpeed, maxYaw, maxWheel, maxRpmSeen, maxRpm, maxRoll, visits, time: sim.carState(car).time }
}

describe('random inputs for 10 simulated minutes', () => {
  for (const lod of ['full', 'singleTrack'] as const) {
    it(`every preset at ${lod} over every surface: finite, no runaway speed or spin`, () => {
      for (const [i, preset] of (['hatchback', 'sportsCar', 'van'] as const).entries()) {
        const r = randomDrive(preset, lod, 1234 + i)
        console.log(`${preset}/${lod}: max speed ${r.maxSpeed.toFixed(1)} m/s, max yaw rate ${r.maxYaw.toFixed(2)} rad/s, max wheel ${r.maxWheel.toFixed(0)} rad/s, max rpm ${r.maxRpmSeen.toFixed(0)}, max |roll|,|pitch| ${r.maxRoll.toFixed(3)} rad; surface lookups ${palette.map((p, k) => `${p.name} ${r.visits[k]}`).join(' ')}`)
        expect(r.time).toBeCloseTo(600, 6)
        expect(r.maxSpeed).toBeLessThan(80)
        expect(r.maxYaw).toBeLessThan(5)
        expect(r.maxWheel).toBeLessThan(300)
        expect(r.maxRpmSeen).toBeLessThan(r.maxRpm + 1500)
        expect(r.maxRoll).toBeLessThan(0.2)
        for (let k = 0; k < 5; k++) expect(r.visits[k], `${preset} visited ${palette[k].name}`).toBeGreaterThan(1000)
      }
    })
  }
})
