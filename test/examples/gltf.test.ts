// The meshes guide's example (docs/guide/meshes.md), run as written (imports from src/), and
// examples/city-block.ts: the example asset loaded into a sim and scanned by a lidar.
import { expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { NodeIO } from '@gltf-transform/core'
import { createWorld } from 'bitecs'
import { createSim, mesh } from '../../src/index'
import { collidersFromGltf } from '../../src/gltf/index'
import { loadCityBlock, scanPlaza } from '../../examples/city-block'
import { CITY_BLOCK_PATH } from '../../scripts/city-block.mjs'

it('runs the meshes guide example: the city block’s colliders in a sim, a ray onto the spire, a mesh by hand', async () => {
  const sim = createSim(createWorld(), { ground: false })  // the block brings its own ground
  const colliders = collidersFromGltf(await new NodeIO().read(CITY_BLOCK_PATH))
  for (const c of colliders) sim.addCollider(c.shape, { position: c.position, rotation: c.rotation, name: c.name })
  expect(colliders.warnings).toEqual(["node 'Markings', mesh 'Markings', primitive 0: skipped, mode LINES is not TRIANGLES"])
  const hit = sim.rayTest([6.54, -10.39, 100], [0, 0, -1], 200).at(0)!  // the tower's spire, at z = 50
  expect(sim.components.Collider.name[hit.collider]).toBe('Tower.Spire')
  expect(hit.position[2]).toBeCloseTo(50, 5)

  const own = sim.addCollider(mesh([0, 0, 0, 4, 0, 0, 0, 4, 0], [0, 1, 2]), { position: [0, 0, 1] })  // by hand
  expect(sim.rayTest([1, 1, 10], [0, 0, -1], 20).at(0)!.collider).toBe(own)
  expect(readFileSync(join(__dirname, '../../docs/guide/meshes.md'), 'utf8')).toContain("collidersFromGltf(await new NodeIO().read('examples/assets/city-block.glb'))")
})

it('runs examples/city-block.ts: a lidar in the plaza sees the ground, the buildings around it and the tower', async () => {
  const block = await loadCityBlock(new Uint8Array(readFileSync(CITY_BLOCK_PATH)))
  expect([...block.colliders.keys()]).toContain('Tower.Spire')
  expect(block.warnings).toHaveLength(1)
  const { scan, hitsByNode } = scanPlaza(block)
  expect(scan.count).toBeGreaterThan(8000)
  for (const name of ['Ground', 'Building.00', 'Building.01', 'Building.04', 'Tower']) expect(hitsByNode[name]).toBeGreaterThan(50)
  expect(hitsByNode['?']).toBeUndefined()
  const total = Object.values(hitsByNode).reduce((a, b) => a + b, 0)
  expect(total).toBe(scan.count)
})
