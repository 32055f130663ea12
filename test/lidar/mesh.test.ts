// Lidars over meshes: every strategy (forced) gives rayTest's hits along the same rays, the
// `triangles` attribute is rayTest's triangle, normals are rayTest's; rotating sweeps, noise and
// scans' growth keep the triangles.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, createLidarScan, mesh, type Sim } from '../../src/index'
import { LidarStrategy } from '../../src/lidar/caster'
import { oracleScan, scanDifference, toMat3 } from './oracle'
import { terrainMesh, withRandomTriangles } from '../../bench/mesh-scenes.mjs'

const STRATEGIES = [0, LidarStrategy.flat, LidarStrategy.buckets, LidarStrategy.bvh, LidarStrategy.raster]

function meshScene(): { sim: Sim; meshes: number[] } {
  const sim = createSim(createWorld(), { ground: { height: -6 } })
  const terrain = terrainMesh({ cells: 40, cellSize: 1.5, amp: 2, seed: 9 })
  const t = sim.addCollider(mesh(terrain.vertices, terrain.indices), { position: [0, 0, -1], rotation: [0.02, -0.03, 0.2, 0.98] })
  const clutter = withRandomTriangles({ vertices: [], indices: [] }, 120, { spread: 12, size: 3, seed: 2 })
  const c = sim.addCollider(mesh(clutter.vertices, clutter.indices), { position: [4, -3, 4], rotation: [0.3, 0.1, -0.4, 0.86] })
  sim.addCollider({ kind: 'box', halfExtents: [1, 2, 1.5] }, { position: [6, 6, 1] })
  sim.addCollider({ kind: 'sphere', radius: 1.2 }, { position: [-7, 2, 1] })
  return { sim, meshes: [t, c] }
}

const rot = [0, 0, 0.05, Math.sqrt(1 - 0.0025)]
const pos = [0.5, -0.3, 2.2]
const pattern = [0.01, (2 * Math.PI) / 360, 360, -0.45, 0.03, 32] as const

describe('rayTestLidar over meshes', () => {
  for (const force of STRATEGIES) {
    it(`with strategy ${force === 0 ? 'auto' : Object.entries(LidarStrategy).find(([, v]) => v === force)![0]} equals rayTest per ray, triangles and normals included`, () => {
      const { sim, meshes } = meshScene()
      sim.internal.lidars.shared.force = force
      const scan = createLidarScan({ hits: true, normals: true })
      sim.rayTestLidar(rot, pos, ...pattern, 0.3, 60, -1, -1, -1, scan)
      const caster = sim.internal.lidars.shared
      if (force !== 0) expect(caster.strategy).toBe(force)
      // the terrain's rays shared the sensor as their anchor: it was seen from there (mesh-view.ts), not only through its tree
      const st = sim.internal.collision, view = st.meshes[sim.components.Collider.mesh[meshes[0]]]!.viewCache.view
      expect(view).not.toBeNull()
      expect([view!.ax, view!.ay, view!.az].every(Number.isFinite)).toBe(true)
      const oracle = oracleScan(sim, rot, pos, ...pattern, 0.3, 60, -1, -1, -1)
      expect(scanDifference(scan, oracle)).toBeNull()
      // per point, rayTest's collider, triangle and normal (in the sensor frame)
      const R = toMat3(rot)
      let meshPoints = 0
      for (let i = 0; i < scan.count; i++) {
        const r = scan.rays[i], y = Math.floor(r / pattern[5]), p = r % pattern[5]
        const yaw = pattern[0] + y * pattern[1], pitch = pattern[3] + p * pattern[4]
        const dx = Math.cos(pitch) * Math.cos(yaw), dy = Math.cos(pitch) * Math.sin(yaw), dz = Math.sin(pitch)
        const w = [R[0] * dx + R[1] * dy + R[2] * dz, R[3] * dx + R[4] * dy + R[5] * dz, R[6] * dx + R[7] * dy + R[8] * dz]
        const h = sim.rayTest([pos[0] + 0.3 * w[0], pos[1] + 0.3 * w[1], pos[2] + 0.3 * w[2]], w, 59.7).at(0)!
        expect(scan.colliders![i]).toBe(h.collider)
        expect(scan.triangles![i]).toBe(h.triangle)
        if (meshes.includes(h.collider)) { meshPoints++; expect(h.triangle).toBeGreaterThanOrEqual(0) } else expect(h.triangle).toBe(-1)
        const n = h.normal
        for (let k = 0; k < 3; k++) expect(scan.normals![3 * i + k]).toBeCloseTo(R[k] * n[0] + R[3 + k] * n[1] + R[6 + k] * n[2], 12)
      }
      expect(meshPoints).toBeGreaterThan(scan.count / 2)
      expect(scan.count).toBeGreaterThan(5000)
    })
  }

  it('after the mesh moves (setPose), the next scans see it where it is (no stale view of it)', () => {
    const { sim, meshes } = meshScene()
    const scan = createLidarScan({ hits: true })
    for (const [i, p] of [[0, [0, 0, -1]], [1, [0.7, -0.4, -0.6]], [2, [0.7, -0.4, -0.6]], [3, [-1.3, 0.2, -1.4]]] as const) {
      sim.setPose(meshes[0], p, [0.02, -0.03, 0.2 + 0.1 * i, 0.98])
      sim.rayTestLidar(rot, pos, ...pattern, 0.3, 60, -1, -1, -1, scan)
      expect(scanDifference(scan, oracleScan(sim, rot, pos, ...pattern, 0.3, 60, -1, -1, -1))).toBeNull()
    }
  })

  it('rotating sweeps over meshes equal the whole-sweep scan, triangles included, and noise keeps each point\'s triangle', () => {
    const { sim } = meshScene()
    const pat = { yawStart: 0, yawIncrement: (2 * Math.PI) / 240, yawCount: 240, pitchStart: -0.4, pitchIncrement: 0.05, pitchCount: 16 }
    const base = { pattern: pat, rangeMin: 0.3, rangeMax: 60, offset: [0.5, -0.3, 2.2], hz: 10, attributes: { hits: true } }
    const whole = sim.addLidar(base)
    const rotating = sim.addLidar({ ...base, sweep: 'rotating' })
    const noisy = sim.addLidar({ ...base, noise: { range: 0.02, dropout: 0.2, seed: 3 } })
    for (let s = 0; s < 6; s++) sim.step(1 / 60)
    const a = sim.lidarScan(whole), b = sim.lidarScan(rotating), c = sim.lidarScan(noisy)
    expect(a.count).toBeGreaterThan(1000)
    expect(b.count).toBe(a.count)
    expect(Array.from(b.triangles!.subarray(0, b.count))).toEqual(Array.from(a.triangles!.subarray(0, a.count)))
    expect(Array.from(b.points.subarray(0, 3 * b.count))).toEqual(Array.from(a.points.subarray(0, 3 * a.count)))
    expect(a.triangles!.subarray(0, a.count).some((t) => t >= 0)).toBe(true)
    // the noisy lidar drops points: each kept one keeps its ray's triangle and collider
    expect(c.count).toBeLessThan(a.count)
    const byRay = new Map<number, [number, number]>()
    for (let i = 0; i < a.count; i++) byRay.set(a.rays[i], [a.colliders![i], a.triangles![i]])
    for (let i = 0; i < c.count; i++) expect([c.colliders![i], c.triangles![i]]).toEqual(byRay.get(c.rays[i]))
  })
})
