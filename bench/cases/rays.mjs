// Ray benchmarks: `rayTest` (sim.rayTest along a 1024×16 lidar pattern from 1.8 m, sparse scene of
// 1000 mixed shapes over 400 m × 400 m plus the ground; ns/ray), `rapierRay` (Rapier castRay,
// solid, the same rays and scene; ns/ray), `rayTestBvh` (rayTest with its origin cache off), `broadphase1000` (1000 car boxes moved every step and
// the broadphase updated; ms/step) and `broadphase1000Rebuild` (the same, rebuilding the dynamic
// tree every step instead of refitting: the measurement behind the refit choice).
// rayTest's extras also give its CPU time over Rapier's on the same rays, measured interleaved in
// one process (min of several chunks each): the two cases' own figures come from different
// moments, which on a shared machine can be 2–4× apart, so their ratio alone is not reliable.
// Verified before timing: rayTest and Rapier agree on every ray (same collider, or a near-tie,
// distance within 1e-4 relative; rare cylinder-rim differences counted); moving-box queries equal
// a brute-force test of every collider.
import { createWorld } from 'bitecs'
import RAPIER from '@dimforge/rapier3d-compat'
import { createSim } from '../../dist/index.js'
import { setColliderPoseFast, updateBroadphase, rayCollider, castRay } from '../../dist/internals.js'
import { addShapesToSim, buildRapierWorld, lidarDirections, sparseScene } from '../scenes.mjs'

let shared = null

async function sharedScene() {
  if (shared) return shared
  await RAPIER.init()
  const scene = sparseScene()
  const sim = createSim(createWorld())
  const eids = addShapesToSim(sim, scene.shapes)
  const { world, indexOf } = buildRapierWorld(RAPIER, scene.shapes, 0)
  const dirs = lidarDirections(scene.pattern)
  const rays = dirs.length / 3
  shared = { scene, sim, eids, world, indexOf, dirs, rays, ray: new RAPIER.Ray({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 1 }) }
  return shared
}

/** Compares rayTest and Rapier on every ray; throws on a real disagreement, returns a summary. */
function verifyRays(ctx) {
  const { sim, world, indexOf, dirs, rays, scene, eids, ray } = ctx
  const C = sim.components.Collider, st = sim.internal.collision
  const tmp = new Float64Array(4)
  const s = scene.sensor
  let hits = 0, shapeHits = 0, rim = 0
  for (let i = 0; i < rays; i++) {
    const d = [dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]]
    const ours = sim.rayTest(s, d, scene.range)
    ray.origin = { x: s[0], y: s[1], z: s[2] }
    ray.dir = { x: d[0], y: d[1], z: d[2] }
    const rh = world.castRay(ray, scene.range, true)
    const idx = rh ? indexOf.get(rh.collider.handle) : undefined
    const theirE = idx === undefined ? -2 : idx < 0 ? sim.ground : eids[idx]
    const ourE = ours.size() ? ours.at(0).collider : -2
    const ourT = ours.size() ? ours.at(0).distance : Infinity
    if (ourE >= 0) hits++
    if (ourE >= 0 && ourE !== sim.ground) shapeHits++
    const tol = 1e-4 * Math.max(1, ourT)
    if (ourE === theirE && (ourE < 0 || Math.abs(ourT - rh.timeOfImpact) <= tol)) continue
    if (ourE >= 0 && theirE >= 0 && rayCollider(st, theirE, s[0], s[1], s[2], d[0], d[1], d[2], scene.range, tmp) && Math.abs(tmp[0] - ourT) <= tol) continue
    const cyl = (e) => e >= 0 && C.kind[e] === 5
    if (!cyl(ourE) && !cyl(theirE)) throw new Error(`ray ${i}: pitlane hits ${ourE} at ${ourT}, Rapier ${theirE} at ${rh && rh.timeOfImpact}`)
    rim++
  }
  if (rim > rays / 1000) throw new Error(`${rim} cylinder-rim disagreements in ${rays} rays`)
  if (shapeHits < 100) throw new Error(`only ${shapeHits} shape hits: the scene does not test much`)
  return `${hits} hits (${shapeHits} on shapes) of ${rays} rays, ${rim} cylinder-rim differences vs Rapier`
}

function movingSetup(rebuild) {
  const sim = createSim(createWorld())
  const st = sim.internal.collision
  const cars = []
  for (let i = 0; i < 1000; i++) {
    const e = sim.addCollider({ kind: 'box', halfExtents: [2.2, 0.9, 0.7] }, { object: 100000 + i, localId: 0 })
    // each car drives its own circle: centre on a 400 m grid, radius 10..40 m
    cars.push(e, ((i % 32) - 16) * 12, (Math.floor(i / 32) - 16) * 12, 10 + (i % 7) * 5, 5 + (i % 11) * 3)
  }
  const ctx = { sim, st, cars: new Float64Array(cars), t: 0, rebuild }
  moveAll(ctx)
  updateBroadphase(st)
  return ctx
}

function moveAll(ctx) {
  const { st, cars } = ctx
  ctx.t += 1 / 60
  const t = ctx.t
  const pitch = 0.01 * Math.sin(t), roll = 0.02 * Math.cos(t) // the same for every car: hoisted
  for (let k = 0; k < cars.length; k += 5) {
    const r = cars[k + 3], w = cars[k + 4] / r
    const a = w * t + k
    setColliderPoseFast(st, cars[k], cars[k + 1] + r * Math.cos(a), cars[k + 2] + r * Math.sin(a), 0.75, a + Math.PI / 2, pitch, roll)
  }
}

function stepMoving(ctx) {
  moveAll(ctx)
  if (ctx.rebuild) ctx.st.dynamicDirty = true
  updateBroadphase(ctx.st)
  return 1
}

function verifyMoving(ctx) {
  const { sim, st } = ctx
  const tmp = new Float64Array(4), out = new Float64Array(4)
  const all = [sim.ground]
  for (let k = 0; k < ctx.cars.length; k += 5) all.push(ctx.cars[k])
  let hits = 0
  for (let s = 0; s < 30; s++) {
    stepMoving(ctx)
    for (let r = 0; r < 50; r++) {
      const a = r * 0.7 + s, ox = Math.cos(a * 3) * 150, oy = Math.sin(a * 5) * 150
      const dx = Math.cos(a), dy = Math.sin(a), dz = -0.01
      let best = 200, bestE = -1
      for (const e of all) if (rayCollider(st, e, ox, oy, 1, dx, dy, dz, 200, tmp) && (tmp[0] < best || bestE < 0 || (tmp[0] === best && e < bestE))) { best = tmp[0]; bestE = e }
      const got = castRay(st, ox, oy, 1, dx, dy, dz, 200, -1, -1, -1, out)
      if (got !== bestE || (got >= 0 && out[0] !== best)) throw new Error(`moving scene: ray ${r} of step ${s} hits ${got}, brute force ${bestE}`)
      if (got >= 0 && got !== sim.ground) hits++
    }
  }
  if (hits < 50) throw new Error('moving scene: too few box hits to verify anything')
  ctx.extra = `verified ${hits} box hits; dynamic builds ${st.stats.dynamicBuilds}, refits ${st.stats.refits}`
}

/** sim.rayTest along every ray of the pattern, one call each (the rayTest case's unit of work). */
function rayTestRun(ctx) {
  const { sim, dirs, rays, scene } = ctx
  const d = [0, 0, 0], s = scene.sensor, range = scene.range
  for (let i = 0; i < rays; i++) {
    d[0] = dirs[3 * i]; d[1] = dirs[3 * i + 1]; d[2] = dirs[3 * i + 2]
    sim.rayTest(s, d, range)
  }
  return rays
}

/** Rapier castRay (solid) along the same rays. */
function rapierRun(ctx) {
  const { world, dirs, rays, scene, ray } = ctx
  const s = scene.sensor, range = scene.range
  ray.origin = { x: s[0], y: s[1], z: s[2] }
  const d = ray.dir = { x: 0, y: 0, z: 1 }
  for (let i = 0; i < rays; i++) {
    d.x = dirs[3 * i]; d.y = dirs[3 * i + 1]; d.z = dirs[3 * i + 2]
    world.castRay(ray, range, true)
  }
  return rays
}

/** CPU time (µs) of fn(): what this process spent, whatever else runs on the cores. */
function cpuMicros(fn) {
  const t0 = process.cpuUsage()
  fn()
  const t = process.cpuUsage(t0)
  return t.user + t.system
}

/**
 * rayTest's CPU time per ray over Rapier's: chunks of each alternate (rayTest's four passes long,
 * to be about as long as one of Rapier's), min of `rounds` each, so both see the same machine.
 */
function rayTestOverRapier(ctx, rounds = 15) {
  let ours = Infinity, theirs = Infinity
  for (let r = 0; r < rounds; r++) {
    ours = Math.min(ours, cpuMicros(() => { for (let k = 0; k < 4; k++) rayTestRun(ctx) }) / 4)
    theirs = Math.min(theirs, cpuMicros(() => rapierRun(ctx)))
  }
  return ours / theirs
}

export const cases = [
  {
    id: 'rayTest', unit: 'ns/ray', what: 'sim.rayTest, 1024×16 lidar pattern, 1000 sparse shapes + ground',
    setup: sharedScene,
    verify(ctx) { ctx.extra = verifyRays(ctx) },
    run: rayTestRun,
    // after timing (warm): the interleaved ratio goes into the extras
    teardown(ctx) {
      const ratio = rayTestOverRapier(ctx)
      ctx.metrics = { overRapierCpu: ratio }
      ctx.extra += `; ${ratio.toFixed(3)}× Rapier castRay's CPU time per ray (interleaved, min of 15)`
    },
  },
  {
    id: 'rayTestBvh', unit: 'ns/ray', what: 'the same with the origin cache off (BVH traversal per ray)',
    setup: sharedScene,
    verify(ctx) { const c = ctx.sim.internal.collision.originCache; c.enabled = false; try { ctx.extra = verifyRays(ctx) } finally { c.enabled = true } },
    run(ctx) {
      const c = ctx.sim.internal.collision.originCache
      c.enabled = false
      const n = rayTestRun(ctx)
      c.enabled = true
      return n
    },
  },
  {
    id: 'rapierRay', unit: 'ns/ray', what: 'Rapier castRay (solid), same rays and scene',
    setup: sharedScene,
    verify(ctx) { ctx.extra = verifyRays(ctx) },
    run: rapierRun,
  },
  {
    id: 'broadphase1000', unit: 'ms/step', what: '1000 moving car boxes: pose writes + broadphase update (refit)',
    setup: () => movingSetup(false), verify: verifyMoving, run: stepMoving,
  },
  {
    id: 'broadphase1000Rebuild', unit: 'ms/step', what: 'the same, rebuilding the dynamic tree every step',
    setup: () => movingSetup(true), verify: verifyMoving, run: stepMoving,
  },
]
