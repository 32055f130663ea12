// The example asset in a sim: rays hit its geometry where glTF-Transform's own world matrices put
// the nodes (turned to z-up by hand here), and a lidar scan of it equals rayTest ray by ray.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { NodeIO, type Node } from '@gltf-transform/core'
import { createWorld } from 'bitecs'
import { createLidarScan, createSim, lidarPresets } from '../../src/index'
import { collidersFromGltf } from '../../src/gltf/index'
import { CITY_BLOCK_PATH } from '../../scripts/city-block.mjs'

const doc = await new NodeIO().readBinary(new Uint8Array(readFileSync(CITY_BLOCK_PATH)))
const sim = createSim(createWorld(), { ground: false })
const ids = new Map<string, number>()
for (const c of collidersFromGltf(doc)) ids.set(c.name, sim.addCollider(c.shape, { position: c.position, rotation: c.rotation, name: c.name }))
const node = (name: string): Node => doc.getRoot().listNodes().find((n) => n.getName() === name)!

/** Where glTF-Transform puts local point u of node `name`, in pitlane's axes (x, −z, y). */
function world(name: string, u: [number, number, number]): [number, number, number] {
  const m = node(name).getWorldMatrix()
  const g = [0, 1, 2].map((k) => m[k] * u[0] + m[4 + k] * u[1] + m[8 + k] * u[2] + m[12 + k])
  return [g[0], -g[2], g[1]]
}

const down = (x: number, y: number) => sim.rayTest([x, y, 100], [0, 0, -1], 200).at(0)

describe('the city block in a sim', () => {
  it('hits each roof at its height, straight down over the roof’s centre (the tower: its spire)', () => {
    for (const name of ['Building.00', 'Building.01', 'Building.02', 'Building.03', 'Building.04', 'Tower', 'Tower.Spire']) {
      const top = world(name, [0, 1, 0])
      const hit = down(top[0], top[1])!
      expect(hit.collider).toBe(ids.get(name === 'Tower' ? 'Tower.Spire' : name))
      expect(hit.position[2]).toBeCloseTo(name === 'Tower' ? 50 : top[2], 5)
      expect(hit.normal[2]).toBeCloseTo(1, 9)
      // just past a roof corner (outward along the diagonal) the ray falls to the ground instead
      const corner = world(name, [0.5, 1, 0.5]), centre = world(name, [0, 1, 0])
      const past = down(corner[0] + 0.05 * (corner[0] - centre[0]) / Math.hypot(corner[0] - centre[0], corner[1] - centre[1]),
        corner[1] + 0.05 * (corner[1] - centre[1]) / Math.hypot(corner[0] - centre[0], corner[1] - centre[1]))!
      if (name !== 'Tower.Spire') expect(past.collider).toBe(ids.get('Ground'))
    }
  })

  it('hits the ground at its grid heights, and the ramp’s slope', () => {
    // glTF vertex (55, h, 55) is pitlane (55, −55, h) with h = 4 · ((55 − 36) / 24)²
    const hit = down(55, -55)!
    expect(hit.collider).toBe(ids.get('Ground'))
    expect(hit.position[2]).toBeCloseTo(4 * ((55 - 36) / 24) ** 2, 5)
    expect(down(0, 0)!.position[2]).toBe(0)
    // the ramp rises 1 m over 8 m from its foot at x = 22 (world) to its top edge at x = 30
    const r = down(26, -28)!
    expect(r.collider).toBe(ids.get('Ramp'))
    expect(r.position[2]).toBeCloseTo(0.5, 5)
  })

  it('hits a building’s wall from the plaza on the box’s surface', () => {
    const c = world('Building.04', [0, 0.5, 0])
    const d = Math.hypot(c[0], c[1])
    const hit = sim.rayTest([0, 0, c[2]], [c[0] / d, c[1] / d, 0], 100).at(0)!
    expect(hit.collider).toBe(ids.get('Building.04'))
    // back into the building's unit-cube frame: on a side face (|x| or |z| = 0.5), between floor and roof
    const m = node('Building.04').getWorldMatrix()
    const g = [hit.position[0], hit.position[2], -hit.position[1]].map((v, k) => v - m[12 + k])
    const u = [0, 1, 2].map((col) => (m[4 * col] * g[0] + m[4 * col + 1] * g[1] + m[4 * col + 2] * g[2]) / (m[4 * col] ** 2 + m[4 * col + 1] ** 2 + m[4 * col + 2] ** 2))
    expect(Math.max(Math.abs(u[0]), Math.abs(u[2]))).toBeCloseTo(0.5, 6)
    expect(u[1]).toBeGreaterThan(0)
    expect(u[1]).toBeLessThan(1)
  })

  it('scans it with a lidar whose every point equals rayTest along the same ray', () => {
    const p = lidarPresets.spinning16.pattern
    const scan = createLidarScan({ hits: true })
    const origin = [0, 0, 1.8]
    sim.rayTestLidar([0, 0, 0, 1], origin, p.yawStart, p.yawIncrement, p.yawCount, p.pitchStart, p.pitchIncrement, p.pitchCount, 0.5, 100, -1, -1, -1, scan)
    expect(scan.count).toBeGreaterThan(8000)
    const seen = new Set<number>()
    for (let i = 0; i < scan.count; i += 7) {
      const x = scan.points[3 * i], y = scan.points[3 * i + 1], z = scan.points[3 * i + 2]
      const len = Math.hypot(x, y, z)
      const hit = sim.rayTest(origin, [x / len, y / len, z / len], 100).at(0)!
      expect(hit.collider).toBe(scan.colliders![i])
      expect(Math.abs(hit.distance - scan.distances[i])).toBeLessThan(1e-9)
      seen.add(hit.collider)
    }
    for (const name of ['Ground', 'Building.01', 'Building.04', 'Tower']) expect(seen).toContain(ids.get(name))
  })
})
