import { createWorld } from 'bitecs'
import { createSim, mesh } from '../dist/index.js'
import { lidarDirections, sparseScene } from './scenes.mjs'
import { terrainMesh } from './mesh-scenes.mjs'
const terrain = terrainMesh({ cells: 316, cellSize: 1, amp: 3, seed: 5 })
const sim = createSim(createWorld(), { ground: false })
const e = sim.addCollider(mesh(terrain.vertices, terrain.indices))
const m = sim.internal.collision.meshes[0]
const sensor = [0, 0, sim.rayTest([0, 0, 100], [0, 0, -1], 200).at(0).position[2] + 1.8]
const dirs = lidarDirections(sparseScene().pattern), n = dirs.length / 3
const d = [0, 0, 0]
let sum = 0
function run() { for (let i = 0; i < n; i++) { d[0] = dirs[3*i]; d[1] = dirs[3*i+1]; d[2] = dirs[3*i+2]; const l = sim.rayTest(sensor, d, 120); if (l.size()) sum += l.at(0).distance } }
for (let i = 0; i < 5; i++) run()
let best = Infinity
for (let r = 0; r < 9; r++) { const u0 = process.cpuUsage(); run(); const u = process.cpuUsage(u0); best = Math.min(best, (u.user + u.system) * 1000 / n) }
console.log(`nodes ${m.nodeCount} cpu ns/ray ${best.toFixed(0)} checksum ${sum.toFixed(6)}`)
