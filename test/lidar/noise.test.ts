// Lidar noise: the requested σ and dropout rates within sampling error over > 100 k rays, the same
// bits across runs and across stepMany, and no noise at all when the options are unset.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, type LidarNoise, type Sim } from '../../src/index'

// every ray looks down at the ground (all hit), 512 × 32 = 16384 rays a scan
const pattern = { yawStart: 0, yawIncrement: (2 * Math.PI) / 512, yawCount: 512, pitchStart: -1.2, pitchIncrement: 0.03, pitchCount: 32 }

function twins(noise: LidarNoise | undefined): { sim: Sim; noisy: number; clean: number } {
  const sim = createSim(createWorld())
  sim.addCollider({ kind: 'box', halfExtents: [2, 2, 2] }, { position: [8, 0, 0], reflectivity: 0.9 })
  const base = { pattern, rangeMin: 0, rangeMax: 200, offset: [0, 0, 2], attributes: { intensity: true } }
  return { sim, noisy: sim.addLidar({ ...base, noise }), clean: sim.addLidar(base) }
}

/** Scans `steps` times; per ray of the clean scan, whether the noisy one kept it and its range error. */
function sample(noise: LidarNoise, steps: number) {
  const { sim, noisy, clean } = twins(noise)
  let rays = 0, kept = 0, sum = 0, sum2 = 0, expectedIntensityDrops = 0
  const bits: number[] = []
  const run = () => {
    const a = sim.lidarScan(noisy), b = sim.lidarScan(clean)
    rays += b.count
    let j = 0
    for (let i = 0; i < b.count; i++) {
      expectedIntensityDrops += (noise.intensityDropout ?? 0) * (1 - b.intensities![i])
      if (j < a.count && a.rays[j] === b.rays[i]) {
        const e = a.distances[j] - b.distances[i]
        sum += e; sum2 += e * e; kept++
        bits.push(a.distances[j], a.points[3 * j], a.points[3 * j + 2])
        j++
      }
    }
    expect(j).toBe(a.count) // every noisy point is a clean ray's
  }
  for (let s = 0; s < steps; s++) { sim.step(1 / 60); run() }
  const mean = sum / kept
  return { rays, kept, mean, sigma: Math.sqrt(sum2 / kept - mean * mean), bits, expectedIntensityDrops }
}

/** The noisy lidar's last scan after `steps` steps taken one by one or by one stepMany. */
function lastScan(noise: LidarNoise, steps: number, stepMany: boolean): number[] {
  const { sim, noisy } = twins(noise)
  if (stepMany) sim.stepMany(1 / 60, steps)
  else for (let s = 0; s < steps; s++) sim.step(1 / 60)
  const a = sim.lidarScan(noisy)
  return [...a.points.subarray(0, 3 * a.count), ...a.rays.subarray(0, a.count)]
}

describe('lidar noise', () => {
  it('has the requested σ and dropout rate within sampling error over > 100 k rays', () => {
    const s = sample({ range: 0.05, dropout: 0.1, seed: 3 }, 8)
    expect(s.rays).toBeGreaterThan(100_000)
    const p = 1 - s.kept / s.rays, se = Math.sqrt((0.1 * 0.9) / s.rays)
    expect(Math.abs(p - 0.1)).toBeLessThan(4 * se)
    // σ's standard error is σ/√(2n); the mean's σ/√n
    expect(Math.abs(s.sigma - 0.05)).toBeLessThan((4 * 0.05) / Math.sqrt(2 * s.kept))
    expect(Math.abs(s.mean)).toBeLessThan((4 * 0.05) / Math.sqrt(s.kept))
  })

  it('drops dim points as the intensity dropout asks', () => {
    const s = sample({ intensityDropout: 0.6, seed: 11 }, 8)
    const drops = s.rays - s.kept
    expect(s.expectedIntensityDrops).toBeGreaterThan(10_000)
    expect(Math.abs(drops - s.expectedIntensityDrops)).toBeLessThan(4 * Math.sqrt(s.expectedIntensityDrops))
    expect(s.sigma).toBe(0) // no range noise asked: ranges untouched
  })

  it('is the same bits across two runs and across stepMany, and differs with the seed', () => {
    const noise = { range: 0.02, dropout: 0.05, intensityDropout: 0.2, seed: 42 }
    const a = sample(noise, 3), b = sample(noise, 3)
    expect(b.bits).toEqual(a.bits)
    expect(lastScan(noise, 5, true)).toEqual(lastScan(noise, 5, false))
    expect(sample({ ...noise, seed: 43 }, 3).bits).not.toEqual(a.bits)
    // one sim's scans differ from step to step (the scan number keys the draws)
    const { sim, noisy } = twins(noise)
    sim.step(1 / 60)
    const first = Array.from(sim.lidarScan(noisy).distances.subarray(0, 50))
    sim.step(1 / 60)
    expect(Array.from(sim.lidarScan(noisy).distances.subarray(0, 50))).not.toEqual(first)
  })

  it('without noise options the points equal the noiseless scan exactly, and bad options are refused', () => {
    const s = sample({}, 2)
    expect(s.kept).toBe(s.rays)
    expect(s.sigma).toBe(0)
    const { sim } = twins(undefined)
    const ok = { pattern, rangeMin: 0, rangeMax: 10 }
    expect(() => sim.addLidar({ ...ok, noise: { range: -1 } })).toThrow(/options\.noise\.range/)
    expect(() => sim.addLidar({ ...ok, noise: { dropout: 2 } })).toThrow(/options\.noise\.dropout/)
    expect(() => sim.addLidar({ ...ok, noise: { seed: 0.5 } })).toThrow(/options\.noise\.seed/)
    expect(() => sim.addLidar({ ...ok, noise: { sigma: 1 } } as never)).toThrow(/sigma.*expected one of range, dropout, intensityDropout, seed/)
  })
})
