// The example asset examples/assets/city-block.glb: made by scripts/city-block.mjs (regenerating
// it gives the same bytes), small, and read by collidersFromGltf into the geometry the script built.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { NodeIO } from '@gltf-transform/core'
import { CITY_BLOCK_PATH, cityBlockGlb } from '../../scripts/city-block.mjs'
import { collidersFromGltf, type GltfCollider } from '../../src/gltf/index'

const bytes = readFileSync(CITY_BLOCK_PATH)

/** The world bounding box of collider `c`'s vertices: [min x, min y, min z, max x, max y, max z]. */
function worldBox(c: GltfCollider): number[] {
  const v = c.shape.vertices, R = c.rotation, p = c.position
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]
  for (let i = 0; i < v.length; i += 3) {
    for (let r = 0; r < 3; r++) {
      const w = R[3 * r] * v[i] + R[3 * r + 1] * v[i + 1] + R[3 * r + 2] * v[i + 2] + p[r]
      box[r] = Math.min(box[r], w); box[r + 3] = Math.max(box[r + 3], w)
    }
  }
  return box
}

describe('examples/assets/city-block.glb', () => {
  it('is what scripts/city-block.mjs writes, byte for byte, and under 200 KB', async () => {
    const regenerated = await cityBlockGlb()
    expect(Buffer.from(regenerated).equals(bytes)).toBe(true)
    expect(bytes.length).toBeLessThan(200 * 1024)
  })

  it('reads back as the script built it: ground, six buildings and a spire, a ramp; the lane markings (lines) skipped', async () => {
    const doc = await new NodeIO().readBinary(new Uint8Array(bytes))
    const cs = collidersFromGltf(doc)
    expect(cs.map((c) => c.name)).toEqual(['Ground', 'Building.00', 'Building.01', 'Building.02', 'Building.03', 'Building.04', 'Tower', 'Tower.Spire', 'Ramp'])
    expect(cs.warnings).toEqual(["node 'Markings', mesh 'Markings', primitive 0: skipped, mode LINES is not TRIANGLES"])
    const byName = new Map(cs.map((c) => [c.name, c]))
    expect(byName.get('Ground')!.shape.indices.length / 3).toBe(48 * 48 * 2)
    // Ground: 120 m square, flat in the middle, 4 m high at the edge; z up.
    const g = worldBox(byName.get('Ground')!)
    for (const [got, want] of g.map((x, i) => [x, [-60, -60, 0, 60, 60, 4][i]])) expect(got).toBeCloseTo(want, 9)
    // Buildings stand on z = 0 with their glTF heights (node scale y) as pitlane z.
    const heights: Record<string, number> = { 'Building.00': 18, 'Building.01': 12, 'Building.02': 24, 'Building.03': 9, 'Building.04': 15, Tower: 40 }
    for (const [name, h] of Object.entries(heights)) {
      const b = worldBox(byName.get(name)!)
      expect(b[2]).toBeCloseTo(0, 5)
      expect(b[5]).toBeCloseTo(h, 5)
    }
    // The spire, a child of the tower, is 2 × 2 m and 10 m tall on the roof, centred over the tower.
    const spire = worldBox(byName.get('Tower.Spire')!), tower = worldBox(byName.get('Tower')!)
    expect(spire[2]).toBeCloseTo(40, 5)
    expect(spire[5]).toBeCloseTo(50, 5)
    expect((spire[0] + spire[3]) / 2).toBeCloseTo((tower[0] + tower[3]) / 2, 5)
    expect((spire[1] + spire[4]) / 2).toBeCloseTo((tower[1] + tower[4]) / 2, 5)
    // The Buildings group is turned 30° about the vertical: Building.00's local x axis is 30° off world x.
    const r = byName.get('Building.00')!.rotation
    expect(Math.atan2(r[3], r[0])).toBeCloseTo(Math.PI / 6, 6)
    expect(r[8]).toBeCloseTo(1, 9)
    // The ramp (turned −90° about glTF y) runs along world −x from x = 30, at world y = −28, rising to 1 m.
    const ramp = worldBox(byName.get('Ramp')!)
    for (const [got, want] of ramp.map((x, i) => [x, [22, -30, 0, 30, -26, 1][i]])) expect(got).toBeCloseTo(want, 5)
  })
})
