/**
 * The glTF example: the city block of examples/assets/city-block.glb (made by
 * scripts/city-block.mjs) loaded as mesh colliders into a sim without a ground plane (its own
 * ground mesh carries everything), and a spinning lidar's scan of it from the plaza in the middle.
 * Public API only; node or the browser (read the bytes with fetch there, or use WebIO).
 */
import { NodeIO } from '@gltf-transform/core'
import { createWorld } from 'bitecs'
import { createLidarScan, createSim, lidarPresets, type LidarScan, type Sim } from '../src/index'
import { collidersFromGltf } from '../src/gltf/index'

/** The city block in a sim, and what the import said. */
export interface CityBlock {
  sim: Sim
  /** Collider entity ids by glTF node name. */
  colliders: Map<string, number>
  /** The importer's warnings (the lane markings are lines, not triangles). */
  warnings: string[]
}

/** A sim holding the city block read from `glb` (the .glb file's bytes). */
export async function loadCityBlock(glb: Uint8Array): Promise<CityBlock> {
  const sim = createSim(createWorld(), { ground: false })
  const document = await new NodeIO().readBinary(glb)
  const found = collidersFromGltf(document)
  const colliders = new Map<string, number>()
  for (const c of found) colliders.set(c.name, sim.addCollider(c.shape, { position: c.position, rotation: c.rotation, name: c.name }))
  return { sim, colliders, warnings: found.warnings }
}

/** A 16-channel spinning lidar's scan from 1.8 m above the plaza, and its points counted by the node they hit. */
export function scanPlaza(block: CityBlock): { scan: LidarScan; hitsByNode: Record<string, number> } {
  const { sim, colliders } = block
  const p = lidarPresets.spinning16.pattern
  const scan = createLidarScan({ hits: true })
  sim.rayTestLidar([0, 0, 0, 1], [0, 0, 1.8], p.yawStart, p.yawIncrement, p.yawCount, p.pitchStart, p.pitchIncrement, p.pitchCount,
    lidarPresets.spinning16.rangeMin, lidarPresets.spinning16.rangeMax, -1, -1, -1, scan)
  const nameOf = new Map([...colliders].map(([name, eid]) => [eid, name]))
  const hitsByNode: Record<string, number> = {}
  for (let i = 0; i < scan.count; i++) {
    const name = nameOf.get(scan.colliders![i]) ?? '?'
    hitsByNode[name] = (hitsByNode[name] ?? 0) + 1
  }
  return { scan, hitsByNode }
}
