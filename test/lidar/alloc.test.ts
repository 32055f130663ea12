// A rotating lidar's step allocates next to nothing once warm: the young generation's growth over
// 60 steps of a sim holding only colliders and the lidar (a window without a collection). A
// per-ray allocation (a number boxed per ray test) would be ≥ 16 B × the ~700 rays of a step.
import { describe, expect, it } from 'vitest'
import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { createSim, lidarPresets } from '../../src/index'
import { rng, randomQuat } from './oracle'

function youngBytes(): number {
  let n = 0
  for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') n += s.space_used_size
  return n
}

describe('rotating lidar allocation', () => {
  it('allocates under 1 KB a step once warm (nothing per ray)', () => {
    const sim = createSim(createWorld())
    const r = rng(3)
    const shapes = [{ kind: 'sphere', radius: 1 }, { kind: 'box', halfExtents: [1, 0.5, 1.5] }, { kind: 'capsule', radius: 0.4, halfHeight: 1 }, { kind: 'cylinder', radius: 0.6, halfHeight: 1 }]
    for (let i = 0; i < 120; i++) sim.addCollider(shapes[i % 4] as never, { position: [(r() - 0.5) * 80, (r() - 0.5) * 80, r() * 2], rotation: randomQuat(r) })
    const p = lidarPresets.spinning16
    sim.addLidar({ ...p, pattern: { ...p.pattern, yawCount: 256, yawIncrement: (2 * Math.PI) / 256 }, offset: [0, 0, 1.5], sweep: 'rotating' })
    // on a loaded machine the optimised code can come late, and a collection spoils a window: up to five rounds
    let perStep = Infinity
    for (let round = 0; round < 5 && !(perStep < 1024); round++) {
      for (let s = 0; s < 400; s++) sim.step(1 / 60)
      const a = youngBytes()
      for (let s = 0; s < 60; s++) sim.step(1 / 60)
      const b = youngBytes()
      if (b >= a) perStep = (b - a) / 60
    }
    expect(perStep).toBeLessThan(1024)
  })
})
