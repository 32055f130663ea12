// Lidar benchmarks (ns per ray): `lidar` = rayTestLidar over the 1024×16 pattern and the sparse
// 1000-shape scene of the `rayTest` case (bench/scenes.mjs); `lidarMoving` = the same with the
// sensor moving every scan (candidate buckets rebuilt each time); `rayTestDense` / `lidarDense` =
// rayTest along each ray vs rayTestLidar on a dense scene (1000 shapes packed within 20 m);
// `lidarAttributes` = `lidar` with every per-point attribute (hits, normals, intensity), its CPU
// time over the plain scan's measured interleaved (metric overLidarCpu).
// Verified before timing: every scan equals rayTest along the same rays, point for point.
import { createWorld } from 'bitecs'
import { createSim, createLidarScan } from '../../dist/index.js'
import { addShapesToSim, lidarDirections, randomShapes, sparseScene } from '../scenes.mjs'

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1]

/** The dense scene: 1000 shapes in a 40 m square around the sensor (most rays hit within a few metres). */
function denseScene() {
  const sparse = sparseScene()
  return { ...sparse, shapes: randomShapes(1000, { size: 40, seed: 11 }) }
}

function setup(scene) {
  const sim = createSim(createWorld())
  addShapesToSim(sim, scene.shapes)
  const p = scene.pattern
  return { sim, scene, scan: createLidarScan(), dirs: lidarDirections(p), rays: p.yawCount * p.pitchCount, moved: 0 }
}

function scanOnce(ctx, pos = ctx.scene.sensor) {
  const p = ctx.scene.pattern
  return ctx.sim.rayTestLidar(IDENTITY, pos, p.yawStart, p.yawIncrement, p.yawCount, p.pitchStart, p.pitchIncrement, p.pitchCount, 0, ctx.scene.range, -1, -1, -1, ctx.scan)
}

/** Throws unless the scan equals rayTest along every ray (sensor axes = world axes). */
function verifyAgainstRayTest(ctx, pos = ctx.scene.sensor) {
  const scan = scanOnce(ctx, pos)
  const { sim, dirs } = ctx
  let k = 0
  for (let i = 0; i < ctx.rays; i++) {
    const list = sim.rayTest(pos, [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]], ctx.scene.range)
    if (list.size() === 0) continue
    const h = list.at(0)
    if (k >= scan.count || scan.rays[k] !== i) throw new Error(`ray ${i}: rayTest hits, the scan ${k < scan.count ? 'has ray ' + scan.rays[k] : 'has no more points'}`)
    for (let a = 0; a < 3; a++) {
      if (!(Math.abs(scan.points[3 * k + a] - (h.position[a] - pos[a])) <= 1e-9)) throw new Error(`ray ${i}: point differs from rayTest`)
    }
    k++
  }
  if (k !== scan.count) throw new Error(`scan has ${scan.count} points, rayTest ${k}`)
  ctx.extra = `${scan.count} hits of ${ctx.rays} rays, strategy ${['-', 'flat', 'buckets', 'bvh', 'raster'][sim.internal.lidars.shared.strategy]}`
}

/** CPU time (ms) of fn(): robust to other processes sharing the cores. */
function cpuMs(fn) {
  const u0 = process.cpuUsage()
  fn()
  const u = process.cpuUsage(u0)
  return (u.user + u.system) / 1000
}

/**
 * Interleaved CPU time of one scan vs rayTest along the same rays, min of `rounds` chunks each: a
 * ratio robust to a busy machine. Run after timing (both warm, as in rays.mjs): measured right
 * after setup, the scan's code was still being optimised in the first chunks.
 */
function pairedRatio(ctx, rounds = 15) {
  let lidar = Infinity, ray = Infinity
  for (let r = 0; r < rounds; r++) {
    lidar = Math.min(lidar, cpuMs(() => { for (let k = 0; k < 4; k++) scanOnce(ctx) }))
    ray = Math.min(ray, cpuMs(() => rayTestRun(ctx)) * 4)
  }
  ctx.metrics = { ...ctx.metrics, overRayTestCpu: lidar / ray }
  ctx.extra += `; ${(lidar / ray).toFixed(3)}× rayTest's CPU time on the same rays (interleaved, min of ${rounds})`
}

function rayTestRun(ctx) {
  const { sim, dirs, scene } = ctx
  const d = [0, 0, 0]
  for (let i = 0; i < ctx.rays; i++) {
    d[0] = dirs[3 * i]; d[1] = dirs[3 * i + 1]; d[2] = dirs[3 * i + 2]
    sim.rayTest(scene.sensor, d, scene.range)
  }
  return ctx.rays
}

/** A case timing rayTestLidar on `scene()`, verified against rayTest, with its CPU time over rayTest's after timing. */
function scanCase(id, what, scene) {
  return { id, unit: 'ns/ray', what, setup: () => setup(scene()), verify: verifyAgainstRayTest, run(ctx) { scanOnce(ctx); return ctx.rays }, teardown: pairedRatio }
}

export const cases = [
  scanCase('lidar', 'rayTestLidar, 1024×16 pattern, sparse scene of 1000 shapes (as rayTest)', sparseScene),
  {
    id: 'lidarAttributes',
    unit: 'ns/ray',
    what: 'rayTestLidar as `lidar`, with hits, normals and intensity per point',
    setup() {
      const ctx = setup(sparseScene())
      ctx.plainScan = ctx.scan
      ctx.scan = createLidarScan({ hits: true, normals: true, intensity: true })
      return ctx
    },
    verify(ctx) {
      verifyAgainstRayTest(ctx)
      // the attributes are rayTest's: collider and normal of the same ray
      const { sim, dirs, scan } = ctx
      for (let k = 0; k < scan.count; k += 13) {
        const i = scan.rays[k], h = sim.rayTest(ctx.scene.sensor, [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]], ctx.scene.range).at(0)
        if (h.collider !== scan.colliders[k] || h.object !== scan.objects[k]) throw new Error(`ray ${i}: collider ${scan.colliders[k]}, rayTest ${h.collider}`)
        for (let a = 0; a < 3; a++) if (!(Math.abs(h.normal[a] - scan.normals[3 * k + a]) <= 1e-9)) throw new Error(`ray ${i}: normal differs from rayTest`)
        if (!(scan.intensities[k] >= 0 && scan.intensities[k] <= 1)) throw new Error(`ray ${i}: intensity ${scan.intensities[k]}`)
      }
    },
    run(ctx) { scanOnce(ctx); return ctx.rays },
    teardown(ctx) {
      let withAttr = Infinity, plain = Infinity
      const attr = ctx.scan
      for (let r = 0; r < 15; r++) {
        ctx.scan = attr
        withAttr = Math.min(withAttr, cpuMs(() => { for (let k = 0; k < 4; k++) scanOnce(ctx) }))
        ctx.scan = ctx.plainScan
        plain = Math.min(plain, cpuMs(() => { for (let k = 0; k < 4; k++) scanOnce(ctx) }))
      }
      ctx.scan = attr
      ctx.metrics = { overLidarCpu: withAttr / plain }
      ctx.extra += `; ${(withAttr / plain).toFixed(3)}× the plain scan's CPU time (interleaved, min of 15)`
    },
  },
  {
    id: 'lidarMoving',
    unit: 'ns/ray',
    what: 'rayTestLidar as `lidar`, the sensor moving 1 cm every scan (caches rebuilt per scan)',
    setup: () => setup(sparseScene()),
    verify: (ctx) => verifyAgainstRayTest(ctx, [0.37, -0.21, 1.8]),
    run(ctx) {
      ctx.moved = (ctx.moved + 1) % 1000
      scanOnce(ctx, [ctx.moved * 0.01, 0, 1.8])
      return ctx.rays
    },
  },
  {
    id: 'rayTestDense',
    unit: 'ns/ray',
    what: 'repeated rayTest along the 1024×16 pattern, dense scene (1000 shapes within 20 m)',
    setup: () => setup(denseScene()),
    verify: (ctx) => { verifyAgainstRayTest(ctx); ctx.extra = ctx.extra.replace(/, strategy .*/, '') },
    run: rayTestRun,
  },
  scanCase('lidarDense', 'rayTestLidar, 1024×16 pattern, dense scene (as rayTestDense)', denseScene),
]
