// A rotating lidar's step allocates next to nothing once warm: the bytes the young generation
// grows by inside the scan-lidars system, per step, over steps without a collection. A per-ray
// allocation (a number boxed per ray test) would be ≥ 16 B × the ~3000 rays of a step.
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
  it('allocates under 4 KB a step once warm (nothing per ray)', () => {
    const sim = createSim(createWorld())
    const r = rng(3)
    const shapes = [{ kind: 'sphere', radius: 1 }, { kind: 'box', halfExtents: [1, 0.5, 1.5] }, { kind: 'capsule', radius: 0.4, halfHeight: 1 }, { kind: 'cylinder', radius: 0.6, halfHeight: 1 }]
    for (let i = 0; i < 120; i++) sim.addCollider(shapes[i % 4] as never, { position: [(r() - 0.5) * 80, (r() - 0.5) * 80, r() * 2], rotation: randomQuat(r) })
    const car = sim.addCar({ position: [0, 0], speed: 12 })
    sim.setInput(car, { throttle: 0.4, steer: 0.2, gear: 1 })
    sim.addLidar({ ...lidarPresets.spinning16, pattern: { ...lidarPresets.spinning16.pattern, yawCount: 1024 }, mount: car, offset: [0, 0, 1], sweep: 'rotating' })
    let before = 0, own = Infinity
    const bytes: number[] = []
    for (let i = 0; i < 10; i++) { const a = youngBytes(); own = Math.min(own, youngBytes() - a) }
    sim.schedule.add(() => { before = youngBytes() }, { name: 'alloc-start', phase: 'sensors', before: 'scan-lidars' })
    sim.schedule.add(() => { const d = youngBytes() - before - own; if (d >= 0) bytes.push(d) }, { name: 'alloc-end', phase: 'sensors', after: 'scan-lidars' })
    // on a loaded machine the optimised code can come late: up to three rounds of warm-up
    let median = Infinity
    for (let round = 0; round < 3 && median >= 4096; round++) {
      for (let s = 0; s < 600; s++) sim.step(1 / 60)
      bytes.length = 0
      for (let s = 0; s < 60; s++) sim.step(1 / 60)
      expect(bytes.length).toBeGreaterThan(30) // steps without a collection in them
      median = bytes.sort((a, b) => a - b)[bytes.length >> 1]
    }
    expect(median).toBeLessThan(4096)
  })
})
