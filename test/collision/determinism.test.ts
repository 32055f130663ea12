// Same inputs, same bits: two sims built and moved the same way answer every ray identically,
// whatever path (BVH or origin cache) answers it; a non-unit quaternion is normalised.
import { describe, expect, it } from 'vitest'
import { makeSim, rng, quat, cast } from './helpers'
import { randomShapes, addShapesToSim } from '../../bench/scenes.mjs'
import { setColliderPoseFast } from '../../src/collision/state'

function run(cacheOn: boolean): Float64Array {
  const sim = makeSim({ height: 0 })
  const st = sim.internal.collision
  st.originCache.enabled = cacheOn
  addShapesToSim(sim, randomShapes(400, { size: 80, seed: 21 }))
  const movers = Array.from({ length: 50 }, () => sim.addCollider({ kind: 'box', halfExtents: [2, 1, 0.7] }))
  const rand = rng(5)
  const out = new Float64Array(3 * 2000 * 3)
  let k = 0
  for (let step = 0; step < 3; step++) {
    movers.forEach((e, i) => setColliderPoseFast(st, e, Math.cos(i + step) * 30, Math.sin(i * 1.3 + step) * 30, 0.7, i + step, 0, 0))
    sim.step(1 / 60)
    for (let r = 0; r < 2000; r++) {
      const a = rand() * 6.283, p = (rand() - 0.5) * 0.5
      const list = sim.rayTest([1, 2, 1.5], [Math.cos(a) * Math.cos(p), Math.sin(a) * Math.cos(p), Math.sin(p)], 60)
      out[k++] = list.size() ? list.at(0)!.collider : -1
      out[k++] = list.size() ? list.at(0)!.distance : -1
      out[k++] = list.size() ? list.at(0)!.normal[0] : -1
    }
  }
  return out
}

describe('determinism', () => {
  it('two identical runs agree bit for bit, and the origin cache changes no bit', () => {
    const a = run(true), b = run(true), c = run(false)
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true)
    expect(Buffer.from(a.buffer).equals(Buffer.from(c.buffer))).toBe(true)
  })
  it('a quaternion of any non-zero length is normalised', () => {
    const sim = makeSim()
    const q = quat(0, 0, 1, Math.PI / 4).map((v) => v * 3)
    sim.addCollider({ kind: 'box', halfExtents: [1, 1, 1] }, { position: [10, 0, 0], rotation: q })
    expect(cast(sim, [0, 0, 0], [1, 0, 0], 100)!.distance).toBeCloseTo(10 - Math.SQRT2, 12)
  })
})
