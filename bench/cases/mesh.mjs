// Mesh benchmarks (ns per ray) on a 200,000-triangle terrain mesh (bench/mesh-scenes.mjs: rolling
// hills, 316 m square, no ground plane), the sensor 1.8 m over its middle:
// `meshRay` = sim.rayTest along the 1024×16 pattern of the `rayTest` case (range 120 m);
// `rapierMeshRay` = Rapier's trimesh castRay, the same rays; `threeMeshBvhRay` = three-mesh-bvh's
// MeshBVH.raycastFirst (both sides), the same rays and triangles (f32, the BVH three.js users
// reach for); `meshLidar` = rayTestLidar with the spinning64 pattern over the mesh;
// `meshLidarMoving` = the same with the sensor moving every scan (a new view of the mesh each scan);
// `meshBuild1M` = building a 1,000,000-triangle mesh collider (ms per build; its extras give the
// bytes per triangle it holds and the CPU time of a build, which the target reads).
// meshRay's extras give its CPU time over Rapier's and three-mesh-bvh's on the same rays, and
// meshLidar's its CPU time over rayTest along its own rays, each measured interleaved in one
// process (min of several chunks), the robust ratios on a shared machine.
// Verified before timing: rayTest, Rapier and three-mesh-bvh agree on every ray (the same distance
// within 1e-4 relative; a ray grazing an edge within f32 rounding counted, at most 1 in 1000), a
// sample of rays equals a brute-force f64 Möller–Trumbore over every triangle, and the lidar scan
// equals rayTest along every ray.
import { createWorld } from 'bitecs'
import RAPIER from '@dimforge/rapier3d-compat'
import * as THREE from 'three'
import { MeshBVH } from 'three-mesh-bvh'
import { createSim, createLidarScan, mesh, lidarPresets } from '../../dist/index.js'
import { lidarDirections, sparseScene } from '../scenes.mjs'
import { terrainMesh } from '../mesh-scenes.mjs'

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1]
let shared = null

/** The mesh, the sim holding it, the sensor and the pattern's rays (built once for every case). */
function meshScene() {
  if (shared) return shared
  const terrain = terrainMesh({ cells: 316, cellSize: 1, amp: 3, seed: 5 })
  const sim = createSim(createWorld(), { ground: false })
  const eid = sim.addCollider(mesh(terrain.vertices, terrain.indices))
  const below = sim.rayTest([0, 0, 100], [0, 0, -1], 200).at(0)
  const sensor = [0, 0, below.position[2] + 1.8]
  const pattern = sparseScene().pattern
  const dirs = lidarDirections(pattern)
  shared = { terrain, sim, eid, sensor, range: 120, dirs, rays: dirs.length / 3, triangles: terrain.indices.length / 3 }
  return shared
}

function rayTestRun(ctx) {
  const { sim, dirs, sensor, range } = ctx
  const d = [0, 0, 0]
  for (let i = 0; i < ctx.rays; i++) {
    d[0] = dirs[3 * i]; d[1] = dirs[3 * i + 1]; d[2] = dirs[3 * i + 2]
    sim.rayTest(sensor, d, range)
  }
  return ctx.rays
}

async function rapierSetup(ctx) {
  if (ctx.rapier) return ctx.rapier
  await RAPIER.init()
  const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 })
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.fixed())
  world.createCollider(RAPIER.ColliderDesc.trimesh(new Float32Array(ctx.terrain.vertices), ctx.terrain.indices), body)
  world.step()
  ctx.rapier = { world, ray: new RAPIER.Ray({ x: ctx.sensor[0], y: ctx.sensor[1], z: ctx.sensor[2] }, { x: 0, y: 0, z: 1 }) }
  return ctx.rapier
}

function rapierRun(ctx) {
  const { world, ray } = ctx.rapier
  const { dirs, range } = ctx
  for (let i = 0; i < ctx.rays; i++) {
    ray.dir = { x: dirs[3 * i], y: dirs[3 * i + 1], z: dirs[3 * i + 2] }
    world.castRay(ray, range, true)
  }
  return ctx.rays
}

function threeSetup(ctx) {
  if (ctx.three) return ctx.three
  const geometry = new THREE.BufferGeometry()
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(ctx.terrain.vertices), 3))
  geometry.setIndex(new THREE.BufferAttribute(ctx.terrain.indices, 1))
  const bvh = new MeshBVH(geometry)
  ctx.three = { bvh, ray: new THREE.Ray(new THREE.Vector3(ctx.sensor[0], ctx.sensor[1], ctx.sensor[2]), new THREE.Vector3(0, 0, 1)) }
  return ctx.three
}

function threeRun(ctx) {
  const { bvh, ray } = ctx.three
  const { dirs, range } = ctx
  for (let i = 0; i < ctx.rays; i++) {
    ray.direction.set(dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2])
    bvh.raycastFirst(ray, THREE.DoubleSide, 0, range)
  }
  return ctx.rays
}

/** Brute force: the nearest two-sided Möller–Trumbore distance over every triangle within len, or Infinity. */
function bruteForce(terrain, o, d, len) {
  const V = terrain.vertices, I = terrain.indices
  let best = Infinity
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t], b = 3 * I[t + 1], c = 3 * I[t + 2]
    const e1x = V[b] - V[a], e1y = V[b + 1] - V[a + 1], e1z = V[b + 2] - V[a + 2]
    const e2x = V[c] - V[a], e2y = V[c + 1] - V[a + 1], e2z = V[c + 2] - V[a + 2]
    const px = d[1] * e2z - d[2] * e2y, py = d[2] * e2x - d[0] * e2z, pz = d[0] * e2y - d[1] * e2x
    const det = e1x * px + e1y * py + e1z * pz
    if (det === 0) continue
    const sx = o[0] - V[a], sy = o[1] - V[a + 1], sz = o[2] - V[a + 2]
    const u = (sx * px + sy * py + sz * pz) / det
    if (u < 0 || u > 1) continue
    const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x
    const v = (d[0] * qx + d[1] * qy + d[2] * qz) / det
    if (v < 0 || u + v > 1) continue
    const dist = (e2x * qx + e2y * qy + e2z * qz) / det
    if (dist >= 0 && dist <= len && dist < best) best = dist
  }
  return best
}

/** Throws unless rayTest, Rapier and three-mesh-bvh agree on every ray and a sample equals brute force. */
async function verifyMeshRays(ctx) {
  await rapierSetup(ctx)
  threeSetup(ctx)
  const { sim, dirs, sensor, range } = ctx
  const { world, ray } = ctx.rapier
  const three = ctx.three
  let hits = 0, grazing = 0
  for (let i = 0; i < ctx.rays; i++) {
    const d = [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]]
    const ours = sim.rayTest(sensor, d, range)
    const ourT = ours.size() ? ours.at(0).distance : Infinity
    ray.dir = { x: d[0], y: d[1], z: d[2] }
    const rh = world.castRay(ray, range, true)
    three.ray.direction.set(d[0], d[1], d[2])
    const th = three.bvh.raycastFirst(three.ray, THREE.DoubleSide, 0, range)
    const tol = 1e-4 * Math.max(1, ourT === Infinity ? 1 : ourT)
    const agree = (t) => (t === Infinity && ourT === Infinity) || Math.abs(t - ourT) <= tol
    if (ourT < Infinity) hits++
    if (!agree(rh ? rh.timeOfImpact : Infinity) || !agree(th ? th.distance : Infinity)) grazing++
    if (i % 256 === 0) {
      const bt = bruteForce(ctx.terrain, sensor, d, range)
      if (!(bt === ourT || Math.abs(bt - ourT) <= 1e-9)) throw new Error(`ray ${i}: rayTest ${ourT}, brute force ${bt}`)
    }
  }
  if (grazing > ctx.rays / 1000) throw new Error(`${grazing} rays where rayTest, Rapier and three-mesh-bvh disagree, of ${ctx.rays}`)
  if (hits < ctx.rays / 3) throw new Error(`only ${hits} hits: the scene tests little`)
  ctx.extra = `${hits} hits of ${ctx.rays} rays, ${grazing} edge-grazing differences among the three`
}

/** CPU time (ms) of fn(): robust to other processes sharing the cores. */
function cpuMs(fn) {
  const u0 = process.cpuUsage()
  fn()
  const u = process.cpuUsage(u0)
  return (u.user + u.system) / 1000
}

/** meshRay's CPU time over Rapier's and three-mesh-bvh's on the same rays, interleaved, min of `rounds` chunks each. */
function pairedRatios(ctx, rounds = 9) {
  let ours = Infinity, rapier = Infinity, three = Infinity
  for (let r = 0; r < rounds; r++) {
    ours = Math.min(ours, cpuMs(() => rayTestRun(ctx)))
    rapier = Math.min(rapier, cpuMs(() => rapierRun(ctx)))
    three = Math.min(three, cpuMs(() => threeRun(ctx)))
  }
  ctx.metrics = { overRapierCpu: ours / rapier, overThreeMeshBvhCpu: ours / three }
  ctx.extra += `; ${(ours / rapier).toFixed(3)}× Rapier's CPU time, ${(ours / three).toFixed(3)}× three-mesh-bvh's (interleaved, min of ${rounds})`
}

function lidarSetup() {
  const ctx = { ...meshScene() }
  const p = lidarPresets.spinning64.pattern
  ctx.pattern = p
  ctx.lidarRays = p.yawCount * p.pitchCount
  ctx.lidarDirs = lidarDirections(p)
  ctx.lidarRange = lidarPresets.spinning64.rangeMax
  ctx.rangeMin = lidarPresets.spinning64.rangeMin
  ctx.scan = createLidarScan()
  return ctx
}

function scanOnce(ctx, sensor = ctx.sensor) {
  const p = ctx.pattern
  return ctx.sim.rayTestLidar(IDENTITY, sensor, p.yawStart, p.yawIncrement, p.yawCount, p.pitchStart, p.pitchIncrement, p.pitchCount, ctx.rangeMin, ctx.lidarRange, -1, -1, -1, ctx.scan)
}

/** rayTest along the lidar's own rays (each from rangeMin out, as the scan casts them). */
function lidarRayTestRun(ctx) {
  const { sim, lidarDirs: dirs, sensor, lidarRange: range, rangeMin } = ctx
  const d = [0, 0, 0], s = [0, 0, 0]
  for (let i = 0; i < ctx.lidarRays; i++) {
    d[0] = dirs[3 * i]; d[1] = dirs[3 * i + 1]; d[2] = dirs[3 * i + 2]
    s[0] = sensor[0] + rangeMin * d[0]; s[1] = sensor[1] + rangeMin * d[1]; s[2] = sensor[2] + rangeMin * d[2]
    sim.rayTest(s, d, range - rangeMin)
  }
  return ctx.lidarRays
}

function verifyLidar(ctx) {
  const scan = scanOnce(ctx)
  const { sim, lidarDirs: dirs, sensor, rangeMin } = ctx
  let k = 0
  for (let i = 0; i < ctx.lidarRays; i++) {
    const d = [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]]
    const list = sim.rayTest([sensor[0] + rangeMin * d[0], sensor[1] + rangeMin * d[1], sensor[2] + rangeMin * d[2]], d, ctx.lidarRange - rangeMin)
    if (list.size() === 0) continue
    const h = list.at(0)
    if (k >= scan.count || scan.rays[k] !== i) throw new Error(`ray ${i}: rayTest hits, the scan ${k < scan.count ? 'has ray ' + scan.rays[k] : 'has no more points'}`)
    for (let a = 0; a < 3; a++) if (!(Math.abs(scan.points[3 * k + a] - (h.position[a] - sensor[a])) <= 1e-9)) throw new Error(`ray ${i}: point differs from rayTest`)
    k++
  }
  if (k !== scan.count) throw new Error(`scan has ${scan.count} points, rayTest ${k}`)
  ctx.extra = `${scan.count} hits of ${ctx.lidarRays} rays, strategy ${['-', 'flat', 'buckets', 'bvh', 'raster'][sim.internal.lidars.shared.strategy]}`
}

/**
 * meshLidar's CPU time per ray over meshRay's (rayTest along the 1024×16 pattern: the target's
 * ratio) and over rayTest's along its own rays, interleaved, min of `rounds` chunks each.
 */
function lidarRatio(ctx, rounds = 9) {
  let lidar = Infinity, ray = Infinity, meshRay = Infinity
  for (let r = 0; r < rounds; r++) {
    lidar = Math.min(lidar, cpuMs(() => scanOnce(ctx)) / ctx.lidarRays)
    ray = Math.min(ray, cpuMs(() => lidarRayTestRun(ctx)) / ctx.lidarRays)
    meshRay = Math.min(meshRay, cpuMs(() => { rayTestRun(ctx); rayTestRun(ctx) }) / (2 * ctx.rays))
  }
  ctx.metrics = { overMeshRayCpu: lidar / meshRay, overRayTestCpu: lidar / ray }
  ctx.extra += `; ${(lidar / meshRay).toFixed(3)}× meshRay's CPU time per ray, ${(lidar / ray).toFixed(3)}× rayTest's on the same rays (interleaved, min of ${rounds})`
}

/** A grid mesh of about `triangles` triangles (rolling hills, 0.5 m cells). */
function bigMesh(triangles) {
  return terrainMesh({ cells: Math.round(Math.sqrt(triangles / 2)), cellSize: 0.5, amp: 3, seed: 8 })
}

export const cases = [
  {
    id: 'meshRay',
    unit: 'ns/ray',
    what: 'rayTest along the 1024×16 pattern, 200,000-triangle terrain mesh',
    setup: meshScene,
    verify: verifyMeshRays,
    run: rayTestRun,
    teardown: pairedRatios,
  },
  {
    id: 'rapierMeshRay',
    unit: 'ns/ray',
    what: 'Rapier trimesh castRay, the same rays and mesh',
    async setup() { const ctx = { ...meshScene() }; await rapierSetup(ctx); return ctx },
    verify: verifyMeshRays,
    run: rapierRun,
  },
  {
    id: 'threeMeshBvhRay',
    unit: 'ns/ray',
    what: "three-mesh-bvh raycastFirst (DoubleSide), the same rays and triangles",
    setup() { const ctx = { ...meshScene() }; threeSetup(ctx); return ctx },
    verify: verifyMeshRays,
    run: threeRun,
  },
  {
    id: 'meshLidar',
    unit: 'ns/ray',
    what: 'rayTestLidar, spinning64 (2048×64), over the 200,000-triangle mesh',
    setup: lidarSetup,
    verify: verifyLidar,
    run(ctx) { scanOnce(ctx); return ctx.lidarRays },
    teardown: lidarRatio,
  },
  {
    id: 'meshLidarMoving',
    unit: 'ns/ray',
    what: 'meshLidar with the sensor moved 1 cm every scan (the mesh seen afresh from each pose)',
    setup: lidarSetup,
    verify: verifyLidar,
    run(ctx) {
      ctx.moved = ((ctx.moved ?? 0) + 1) % 1000
      scanOnce(ctx, [ctx.sensor[0] + 0.01 * ctx.moved, ctx.sensor[1], ctx.sensor[2]])
      return ctx.lidarRays
    },
  },
  {
    id: 'meshBuild1M',
    unit: 'ms/build',
    what: 'building a 1,000,000-triangle mesh collider (its tree included)',
    setup() {
      const m = bigMesh(1_000_000)
      return { m, sim: createSim(createWorld(), { ground: false }), triangles: m.indices.length / 3 }
    },
    verify(ctx) {
      const e = ctx.sim.addCollider(mesh(ctx.m.vertices, ctx.m.indices))
      const data = ctx.sim.internal.collision.meshes[ctx.sim.components.Collider.mesh[e]]
      if (data.treeTriangles !== ctx.triangles) throw new Error(`${data.treeTriangles} triangles in the tree of ${ctx.triangles}`)
      const hit = ctx.sim.rayTest([1.3, -2.7, 50], [0, 0, -1], 100).at(0)
      if (!hit || hit.triangle < 0) throw new Error('a ray down onto the mesh misses it')
      const tree = data.order.byteLength + data.bounds.byteLength + data.nodes.byteLength + data.stack.byteLength + data.stackT.byteLength
      const copies = data.vertices.byteLength + data.indices.byteLength
      ctx.metrics = { treeBytesPerTriangle: tree / ctx.triangles, bytesPerTriangle: (tree + copies) / ctx.triangles }
      ctx.extra = `${ctx.triangles} triangles; ${(tree / ctx.triangles).toFixed(1)} B/triangle of tree, ${((tree + copies) / ctx.triangles).toFixed(1)} B/triangle with its copies of the vertices and indices`
      ctx.sim.remove(e)
    },
    run(ctx) {
      const e = ctx.sim.addCollider(mesh(ctx.m.vertices, ctx.m.indices))
      ctx.sim.remove(e)
      return 1
    },
    teardown(ctx) {
      // CPU time of a build (min of 3): what the target reads, robust to a shared machine
      let cpu = Infinity
      for (let r = 0; r < 3; r++) cpu = Math.min(cpu, cpuMs(() => ctx.sim.remove(ctx.sim.addCollider(mesh(ctx.m.vertices, ctx.m.indices)))))
      ctx.metrics.cpuMs = cpu
      ctx.extra += `; ${cpu.toFixed(0)} ms CPU a build (min of 3)`
    },
  },
]
