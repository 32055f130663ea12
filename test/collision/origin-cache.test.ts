// The origin cache (runs of rays from one start) must give exactly the BVH path's hits — and the
// brute-force closest hit — including starts inside shapes, masks, self-filter and scene changes.
import { describe, expect, it } from 'vitest'
import { makeSim, rng, bruteForce } from './helpers'
import { randomShapes, addShapesToSim, lidarDirections } from '../../bench/scenes.mjs'
import { normalizeDirection } from '../../src/collision/query'

describe('origin cache', () => {
  it('equals brute force and the uncached path on lidar sweeps from several starts', () => {
    const sim = makeSim({ height: 0 })
    const st = sim.internal.collision
    const eids = addShapesToSim(sim, randomShapes(800, { size: 80, seed: 3, zMin: 0, zMax: 6 }))
    const all = [sim.ground, ...eids]
    const dirs = lidarDirections({ yawCount: 128, pitchCount: 12, pitchStart: -0.5, pitchIncrement: 0.09, yawIncrement: Math.PI / 64 })
    const n = dirs.length / 3
    const rand = rng(4)
    // starts: open space, inside a shape, and on a shape's centre
    const starts = [[0, 0, 1.8], [10.5, -3.25, 2], Array.from(sim.components.Collider.position.subarray(eids[5] * 3, eids[5] * 3 + 3))]
    let checked = 0
    for (const s of starts) {
      for (let pass = 0; pass < 2; pass++) {
        st.originCache.enabled = pass === 0
        for (let i = 0; i < n; i++) {
          const raw = [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]]
          const d = new Float64Array(3)
          normalizeDirection(raw, d) // what rayTest does to its direction
          const len = 5 + rand() * 60
          const list = sim.rayTest(s, raw, len, -1, -1, -1)
          const [bestE, best] = bruteForce(sim, all, s, d, len)
          expect(list.size() ? list.at(0)!.collider : -1).toBe(bestE)
          if (bestE >= 0) expect(list.at(0)!.distance).toBe(best)
          checked++
        }
        if (pass === 0) expect(st.originCache.valid).toBe(true)
      }
    }
    expect(checked).toBe(starts.length * 2 * n)
    st.originCache.enabled = true
  })

  it('is dropped when the scene changes and honours filters', () => {
    const sim = makeSim()
    const st = sim.internal.collision
    const a = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [10, 0, 0], object: 3, localId: 1, group: 2 })
    const b = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [20, 0, 0] })
    for (let i = 0; i < 100; i++) sim.rayTest([0, 0, 0], [1, 0, 0], 50)
    expect(st.originCache.valid).toBe(true)
    expect(sim.rayTest([0, 0, 0], [1, 0, 0], 50).at(0)!.collider).toBe(a)
    expect(sim.rayTest([0, 0, 0], [1, 0, 0], 50, 3, 1).at(0)!.collider).toBe(b)
    expect(sim.rayTest([0, 0, 0], [1, 0, 0], 50, -1, -1, 1).at(0)!.collider).toBe(b)
    expect(sim.rayTest([0, 0, 0], [1, 0, 0], 15).at(0)!.collider).toBe(a)
    // a longer ray than the cache was built for still sees far colliders
    const far = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [0, 200, 0] })
    for (let i = 0; i < 100; i++) sim.rayTest([0, 0, 0], [1, 0, 0], 50)
    expect(sim.rayTest([0, 0, 0], [0, 1, 0], 500).at(0)!.collider).toBe(far)
    sim.setPose(a, [30, 0, 0])
    expect(st.originCache.version).not.toBe(st.version) // stale: rebuilt only after a new streak
    expect(sim.rayTest([0, 0, 0], [1, 0, 0], 50).at(0)!.collider).toBe(b)
    sim.remove(b)
    expect(sim.rayTest([0, 0, 0], [1, 0, 0], 50).at(0)!.collider).toBe(a)
  })
})
