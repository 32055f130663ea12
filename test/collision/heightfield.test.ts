// Heightfield rays against hand-computed answers: planar fields (every triangle on one analytic
// plane), the documented diagonal split, vertical rays, rays along cell edges, field borders, underside.
import { describe, expect, it } from 'vitest'
import { makeSim, cast, quat, rng } from './helpers'

function field(cols: number, rows: number, h: (i: number, j: number) => number): number[] {
  const out: number[] = []
  for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) out.push(h(i, j))
  return out
}

describe('heightfield', () => {
  it('planar field z = 1 + 0.2x − 0.1y: random rays hit the analytic plane inside the footprint', () => {
    const sim = makeSim()
    const cs = 0.5, cols = 21, rows = 15 // footprint x ∈ [2, 12], y ∈ [−3, 4]
    sim.addCollider({ kind: 'heightfield', origin: [2, -3], cellSize: cs, columns: cols, rows, heights: field(cols, rows, (i, j) => 1 + 0.2 * (2 + i * cs) - 0.1 * (-3 + j * cs)) })
    const rand = rng(3)
    let hits = 0
    for (let k = 0; k < 500; k++) {
      const o = [rand() * 14, rand() * 10 - 5, 5 + rand() * 5]
      const d = [rand() - 0.5, rand() - 0.5, -rand()]
      const n = Math.hypot(...d); d.forEach((v, i) => (d[i] = v / n))
      // plane: z − 0.2x + 0.1y = 1 → t = (1 − (oz − 0.2ox + 0.1oy)) / (dz − 0.2dx + 0.1dy)
      const t = (1 - (o[2] - 0.2 * o[0] + 0.1 * o[1])) / (d[2] - 0.2 * d[0] + 0.1 * d[1])
      const px = o[0] + t * d[0], py = o[1] + t * d[1]
      const inside = t >= 0 && px >= 2 && px <= 12 && py >= -3 && py <= 4
      const h = cast(sim, o, d, 100)
      if (!inside) { if (Math.abs(px - 2) > 1e-9 && Math.abs(px - 12) > 1e-9) expect(h).toBeNull(); continue }
      hits++
      expect(h).not.toBeNull()
      expect(h!.distance).toBeCloseTo(t, 9)
      const nn = Math.hypot(0.2, 0.1, 1)
      h!.normal.forEach((v, i) => expect(v).toBeCloseTo([-0.2 / nn, 0.1 / nn, 1 / nn][i], 9))
    }
    expect(hits).toBeGreaterThan(100)
  })

  it('splits each cell along the (i, j)–(i+1, j+1) diagonal', () => {
    const sim = makeSim()
    // one cell, only vertex (1, 1) raised: triangle A (00,10,11) is z = fy, triangle B (00,11,01) is z = fx
    sim.addCollider({ kind: 'heightfield', origin: [0, 0], cellSize: 1, columns: 2, rows: 2, heights: [0, 0, 0, 1] })
    expect(cast(sim, [0.75, 0.25, 5], [0, 0, -1], 10)!.distance).toBeCloseTo(5 - 0.25, 12)
    expect(cast(sim, [0.25, 0.75, 5], [0, 0, -1], 10)!.distance).toBeCloseTo(5 - 0.25, 12)
    expect(cast(sim, [0.6, 0.6, 5], [0, 0, -1], 10)!.distance).toBeCloseTo(5 - 0.6, 12)
    // the other diagonal would have put (0.75, 0.25) at height 0
    const a = cast(sim, [0.75, 0.25, 5], [0, 0, -1], 10)!
    const n = Math.SQRT1_2
    a.normal.forEach((v, i) => expect(v).toBeCloseTo([0, -n, n][i], 12))
  })

  it('vertical rays at a vertex, on a cell edge and at the far border hit the exact height', () => {
    const sim = makeSim()
    const heights = field(4, 3, (i, j) => i * i + 2 * j) // vertex heights
    sim.addCollider({ kind: 'heightfield', origin: [0, 0], cellSize: 2, columns: 4, rows: 3, heights })
    expect(cast(sim, [2, 2, 20], [0, 0, -1], 50)!.distance).toBe(20 - (1 + 2)) // vertex (1, 1)
    expect(cast(sim, [3, 2, 20], [0, 0, -1], 50)!.distance).toBeCloseTo(20 - (2.5 + 2), 12) // on the edge y = 2, halfway from (1,1) to (2,1)
    expect(cast(sim, [6, 4, 20], [0, 0, -1], 50)!.distance).toBe(20 - (9 + 4)) // far corner vertex (3, 2)
    expect(cast(sim, [0, 0, 20], [0, 0, -1], 50)!.distance).toBe(20)
    expect(cast(sim, [6.0000001, 4, 20], [0, 0, -1], 50)).toBeNull()
    expect(cast(sim, [-1e-9, 2, 20], [0, 0, -1], 50)).toBeNull()
  })

  it('a ray running along a cell edge hits the piecewise-linear edge profile', () => {
    const sim = makeSim()
    // row j = 1 (y = 1) has heights 0, 2, 0, 3 along x = 0, 1, 2, 3; other rows are low (−5)
    const prof = [0, 2, 0, 3]
    sim.addCollider({ kind: 'heightfield', origin: [0, 0], cellSize: 1, columns: 4, rows: 3, heights: field(4, 3, (i, j) => (j === 1 ? prof[i] : -5)) })
    // horizontal ray along y = 1 at z = 1 from x = −1: the profile rises 0 → 2 over x ∈ [0, 1], crosses z = 1 at x = 0.5
    expect(cast(sim, [-1, 1, 1], [1, 0, 0], 10)!.distance).toBeCloseTo(1.5, 12)
    // at z = 2.5 it passes over the peak at x = 1 (2 < 2.5) and meets the rise to 3 at x = 2 + 2.5/3
    expect(cast(sim, [-1, 1, 2.5], [1, 0, 0], 10)!.distance).toBeCloseTo(3 + 2.5 / 3, 12)
    // along the column edge x = 1 (heights −5, 2, −5 along y): from y = −1 at z = 0 it meets the rise at y = 1 − 2/7
    expect(cast(sim, [1, -1, 0], [0, 1, 0], 10)!.distance).toBeCloseTo(2 - 2 / 7, 12)
    // exactly tangent to the peak vertex (1, 1, 2)
    expect(cast(sim, [-1, 1, 2], [1, 0, 0], 10)!.distance).toBeCloseTo(2, 12)
  })

  it('is two-sided: from below the normal faces down; rays outside the footprint or above every vertex miss', () => {
    const sim = makeSim()
    sim.addCollider({ kind: 'heightfield', origin: [0, 0, 1], cellSize: 1, columns: 3, rows: 3, heights: new Array(9).fill(0) })
    const up = cast(sim, [1, 1, -2], [0, 0, 1], 10)!
    expect(up.distance).toBe(3)
    up.normal.forEach((v, i) => expect(v).toBeCloseTo([0, 0, -1][i], 12))
    expect(cast(sim, [1, 1, 3], [1, 0, 0], 10)).toBeNull()
    expect(cast(sim, [3.5, 1, 3], [0, 0, -1], 10)).toBeNull()
    // a ray starting on the surface hits at 0
    expect(cast(sim, [0.5, 0.5, 1], [1, 0, 0.3], 10)!.distance).toBe(0)
    // hit exactly at length counts
    expect(cast(sim, [1, 1, 4], [0, 0, -1], 3)!.distance).toBe(3)
    expect(cast(sim, [1, 1, 4], [0, 0, -1], 2.999)).toBeNull()
  })

  it('rotated (quaternion 90° about x): the field becomes a wall in the xz plane', () => {
    const sim = makeSim()
    // local z → world −y; local y → world z
    sim.addCollider({ kind: 'heightfield', origin: [0, 0], cellSize: 1, columns: 3, rows: 3, heights: new Array(9).fill(0) }, { position: [0, 5, 0], rotation: quat(1, 0, 0, Math.PI / 2) })
    const h = cast(sim, [1, 0, 1], [0, 1, 0], 10)!
    expect(h.distance).toBeCloseTo(5, 12)
    h.normal.forEach((v, i) => expect(v).toBeCloseTo([0, -1, 0][i], 12))
    expect(cast(sim, [1, 0, -1], [0, 1, 0], 10)).toBeNull()
  })
})
