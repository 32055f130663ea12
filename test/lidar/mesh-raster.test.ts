// The mesh raster (src/lidar/mesh-raster.ts): a mesh candidate binned on the lidar's own yaw/pitch
// grid gives rayTest's hits per ray on a posed, rotated mesh, with the sensor inside the mesh's box
// near its surface, patterns crossing the yaw wrap both ways, and allocates nothing once warm.
import { describe, expect, it } from 'vitest'
import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { createSim, createLidarScan, mesh } from '../../src/index'
import { LidarStrategy } from '../../src/lidar/caster'
import { oracleScan, scanDifference } from './oracle'
import { terrainMesh } from '../../bench/mesh-scenes.mjs'

function scene() {
  const sim = createSim(createWorld(), { ground: false })
  const terrain = terrainMesh({ cells: 60, cellSize: 1, amp: 2.5, seed: 4 })
  const eid = sim.addCollider(mesh(terrain.vertices, terrain.indices), { position: [3, -2, 0.5], rotation: [0.05, -0.04, 0.3, Math.sqrt(1 - 0.0025 - 0.0016 - 0.09)] })
  const below = sim.rayTest([3, -2, 50], [0, 0, -1], 100).at(0)!
  return { sim, eid, surface: below.position }
}

const rot = [0.02, 0.03, -0.6, Math.sqrt(1 - 0.0004 - 0.0009 - 0.36)]
const patterns: [number, number, number, number, number, number][] = [
  [2.9, 0.004, 300, 0.1, -0.02, 40], // across +π
  [-2.8, -0.005, 250, 0.3, -0.03, 30], // across −π, decreasing yaw
  [0, (2 * Math.PI) / 720, 720, 0.05, -0.05, 24], // a full turn
]

describe('mesh raster', () => {
  for (const height of [0.6, 0.02, 1e-4]) {
    for (const [k, pat] of patterns.entries()) {
      it(`equals rayTest per ray (sensor ${height} m over the surface, pattern ${k})`, () => {
        const { sim, eid, surface } = scene()
        const pos = [surface[0], surface[1], surface[2] + height]
        for (const force of [LidarStrategy.flat, LidarStrategy.buckets]) {
          sim.internal.lidars.shared.force = force
          for (const [rMin, rMax] of [[0, 40], [0.3, 25]]) {
            // a standing sensor: the raster is built once the scans pay for it (the first or second)
            const scan = createLidarScan({ hits: true, normals: true })
            const oracle = oracleScan(sim, rot, pos, ...pat, rMin, rMax, -1, -1, -1)
            for (let i = 0; i < 2; i++) {
              sim.rayTestLidar(rot, pos, ...pat, rMin, rMax, -1, -1, -1, scan)
              expect(scanDifference(scan, oracle)).toBeNull()
            }
            expect(sim.internal.lidars.shared.meshRaster.eid).toBe(eid)
            expect(scan.count).toBeGreaterThan(1000)
          }
        }
      })
    }
  }

  it('follows the mesh when it moves, and a small pattern on a sensor moving every scan keeps the tree', () => {
    const { sim, eid, surface } = scene()
    const pos = [surface[0], surface[1], surface[2] + 0.4]
    const pat = patterns[2]
    const scan = createLidarScan()
    for (const [x, yaw] of [[3, 0.6], [3.4, 0.7], [3.4, 0.7], [2.5, -0.2]]) {
      const half = yaw / 2
      sim.setPose(eid, [x, -2, 0.5], [0, 0, Math.sin(half), Math.cos(half)])
      sim.rayTestLidar(rot, pos, ...pat, 0.1, 30, -1, -1, -1, scan)
      expect(sim.internal.lidars.shared.meshRaster.eid).toBe(eid)
      expect(scanDifference(scan, oracleScan(sim, rot, pos, ...pat, 0.1, 30, -1, -1, -1))).toBeNull()
    }
    // 60 rays a scan, the sensor moving every scan: a build would cost more than the rays save
    for (let i = 0; i < 3; i++) {
      const p = [pos[0] + 0.01 * i, pos[1], pos[2]]
      sim.rayTestLidar(rot, p, 0, 0.1, 60, -0.2, 0, 1, 0, 30, -1, -1, -1, scan)
      expect(sim.internal.lidars.shared.meshRaster.eid).toBe(-1)
      expect(scanDifference(scan, oracleScan(sim, rot, p, 0, 0.1, 60, -0.2, 0, 1, 0, 30, -1, -1, -1))).toBeNull()
    }
  })

  for (const [move, bound] of [[0, 4096], [0.01, 32768]] as const) {
    it(`allocates nothing per ray once warm (${move === 0 ? 'a standing sensor' : 'rebuilt every scan'})`, () => {
      const { sim, surface } = scene()
      const young = () => v8.getHeapSpaceStatistics().filter((s) => s.space_name.startsWith('new')).reduce((n, s) => n + s.space_used_size, 0)
      const scan = createLidarScan()
      const pat = patterns[0]
      const poses = [[surface[0], surface[1], surface[2] + 0.5], [surface[0], surface[1], surface[2] + 0.5 + move]]
      let perScan = Infinity
      for (let round = 0; round < 5 && !(perScan < bound); round++) {
        for (let i = 0; i < 20; i++) sim.rayTestLidar(rot, poses[i & 1], ...pat, 0, 40, -1, -1, -1, scan)
        const a = young()
        for (let i = 0; i < 10; i++) sim.rayTestLidar(rot, poses[i & 1], ...pat, 0, 40, -1, -1, -1, scan)
        const b = young()
        if (b >= a) perScan = (b - a) / 10
      }
      // a per-ray allocation would be ≥ 16 B × 12,000 rays a scan; a rebuild collects candidates (a few KB)
      expect(perScan).toBeLessThan(bound)
    })
  }
})
