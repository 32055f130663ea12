// The broadphase system keeps tree membership current every step but leaves the refit of moved
// colliders to the first query that needs the trees: queries still see current poses, and one
// refit over the current boxes gives the same hits as one per step.
import { describe, expect, it } from 'vitest'
import { makeSim, rng, bruteForce } from './helpers'
import { setColliderPoseFast } from '../../src/collision/state'
import { castRay } from '../../src/collision/query'

describe('deferred refit', () => {
  it('steps that only move colliders refit nothing until a query, which then sees every current pose', () => {
    const sim = makeSim({ height: 0 })
    const st = sim.internal.collision
    const rand = rng(3)
    const boxes = Array.from({ length: 40 }, () => sim.addCollider({ kind: 'box', halfExtents: [2, 0.9, 0.7] }))
    const all = [sim.ground, ...boxes]
    const out = new Float64Array(4)
    const move = (t: number) => boxes.forEach((e, i) => setColliderPoseFast(st, e, 30 * Math.cos(i + t), 30 * Math.sin(1.3 * i + t), 0.7, i + t, 0, 0))
    move(0)
    sim.step(1 / 60) // the boxes join the dynamic tree: a membership rebuild, done in the step
    expect(st.dynamicDirty).toBe(false)
    const builds = st.stats.dynamicBuilds, refits = st.stats.refits
    for (let s = 1; s <= 30; s++) { move(s * 0.05); sim.step(1 / 60) }
    expect(st.stats.refits).toBe(refits)
    expect(st.stats.dynamicBuilds).toBe(builds)
    expect(st.moved).toBe(true)
    for (let k = 0; k < 200; k++) {
      const o = [(rand() - 0.5) * 80, (rand() - 0.5) * 80, 0.2 + rand()]
      const a = rand() * 6.3
      const d = [Math.cos(a), Math.sin(a), -0.01]
      const [bestE, best] = bruteForce(sim, all, o, d, 100)
      const got = castRay(st, o[0], o[1], o[2], d[0], d[1], d[2], 100, -1, -1, -1, out)
      expect(got).toBe(bestE)
      if (got >= 0) expect(out[0]).toBe(best)
    }
    expect(st.stats.refits + st.stats.dynamicBuilds).toBeGreaterThan(refits + builds) // the first query brought the tree up to date, once
    expect(st.moved).toBe(false)
  })

  it('a removal or an addition is still built into the trees by the step itself', () => {
    const sim = makeSim({ height: 0 })
    const st = sim.internal.collision
    const e = sim.addCollider({ kind: 'box', halfExtents: [2, 1, 0.7] })
    setColliderPoseFast(st, e, 10, 0, 1, 0, 0, 0)
    sim.step(1 / 60)
    const s = sim.addCollider({ kind: 'sphere', radius: 1 }, { position: [0, 50, 1] })
    const statics = st.stats.staticBuilds
    sim.step(1 / 60)
    expect(st.stats.staticBuilds).toBe(statics + 1)
    sim.remove(e)
    const dyn = st.stats.dynamicBuilds
    sim.step(1 / 60)
    expect(st.stats.dynamicBuilds).toBe(dyn + 1)
    expect(sim.rayTest([0, 40, 1], [0, 1, 0], 20).at(0)!.collider).toBe(s)
    expect(sim.rayTest([0, 0, 1], [1, 0, 0], 20).size()).toBe(0)
  })
})
