import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, createLidarScan } from '../../src/index'
import { oracleScan, randomScene, rng, scanDifference } from './oracle'

describe('smoke', () => {
  it('matches rayTest on a random scene', () => {
    const sim = createSim(createWorld())
    const r = rng(1)
    randomScene(sim, r, 200, [0, 0, 0], 40, 2)
    const scan = createLidarScan()
    const rot = [0, 0, 0, 1], pos = [0.5, 0.3, 1.5]
    for (const force of [1, 2, 3, 0]) {
      sim.internal.lidars.shared.force = force
      sim.rayTestLidar(rot, pos, 0, (2 * Math.PI) / 256, 256, -0.26, 0.035, 16, 0.5, 60, -1, -1, -1, scan)
      const o = oracleScan(sim, rot, pos, 0, (2 * Math.PI) / 256, 256, -0.26, 0.035, 16, 0.5, 60, -1, -1, -1)
      expect(scanDifference(scan, o)).toBe(null)
      console.log(force, scan.count, sim.internal.lidars.shared.strategy, sim.internal.lidars.shared.tests)
    }
  })
})
