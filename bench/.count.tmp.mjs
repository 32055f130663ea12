import { createWorld } from 'bitecs'
import { createSim, mesh } from '../dist/index.js'
import { MESH_COUNTS } from '../dist/internals.js'
import { lidarDirections, sparseScene } from './scenes.mjs'
import { terrainMesh } from './mesh-scenes.mjs'
const terrain = terrainMesh({ cells: 316, cellSize: 1, amp: 3, seed: 5 })
const sim = createSim(createWorld(), { ground: false })
sim.addCollider(mesh(terrain.vertices, terrain.indices))
const sensor = [0, 0, sim.rayTest([0, 0, 100], [0, 0, -1], 200).at(0).position[2] + 1.8]
const dirs = lidarDirections(sparseScene().pattern), n = dirs.length / 3
MESH_COUNTS.fill(0)
let hits = 0, hn = 0, ht = 0
for (let i = 0; i < n; i++) { const c0 = MESH_COUNTS[0], c1 = MESH_COUNTS[1]; const l = sim.rayTest(sensor, [dirs[3*i], dirs[3*i+1], dirs[3*i+2]], 120); if (l.size()) { hits++; hn += MESH_COUNTS[0]-c0; ht += MESH_COUNTS[1]-c1 } }
console.log('per ray nodes', MESH_COUNTS[0] / n, 'tris', MESH_COUNTS[1] / n, 'hit rays: nodes', hn / hits, 'tris', ht / hits, 'miss rays nodes', (MESH_COUNTS[0]-hn)/(n-hits), 'tris', (MESH_COUNTS[1]-ht)/(n-hits))
