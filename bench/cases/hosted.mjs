// Hosted benchmarks, ms per 60 Hz host step: 20 hatchbacks at full (four-wheel at 1 kHz) on a
// Rapier host, the scene and scripted inputs of `full20` (bench/cases/vehicles.mjs: same lanes,
// throttle and weave written into the input record), plus two rows of 20 barrier boxes beside
// the lanes. `hosted20` is the pitlane side only (reading chassis state, substeps, impulses: the
// sim step minus Rapier's own world.step, which `hosted20Rapier` reports); `hosted20Substep*`
// measure the alternative of docs/decisions/0004-host-substeps.md (one Rapier step per substep).
// Target: hosted20 ≤ 2× full20. The extra column gives min-of-5 CPU times (robust when other
// processes share the cores) of the pitlane side, of Rapier, and of the same scene unhosted,
// and the bytes a whole step and Rapier's world.step alone allocate (the harness's own alloc
// figure of these cases is the step's bytes split as its time is, so it moves with the timing).
// Verified before timing: hosted cars move like the same cars unhosted (speed within 2%, path
// within 0.5 m), every chassis body exists, nothing touches a barrier.
import { performance } from 'node:perf_hooks'
import RAPIER from '@dimforge/rapier3d-compat'
import { createWorld } from 'bitecs'
import { createSim } from '../../dist/index.js'
import { attachRapier } from '../../dist/rapier/index.js'
import { pitlaneSteps } from './vehicles.mjs'
import { bytesPerUnit } from '../harness.mjs'

const DT = 1 / 60
const CARS = 20
const STEPS = 6

function lane(i) {
  return [(i % 10) * 30, Math.floor(i / 10) * 30]
}

function cpuMs() {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/**
 * The scene: cars on a Rapier host with `rate` when `hosted`, else unhosted (the twin). Step it
 * with pitlaneSteps; `ctx.stepRapierOnly(dt)` steps the Rapier world alone (test/perf/alloc.mjs).
 */
export async function rapierScene(hosted, rate = 'host') {
  await RAPIER.init()
  const sim = createSim(createWorld())
  const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 })
  for (let k = 0; k < 40; k++) {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(-100 + (k % 20) * 80, k < 20 ? -60 : 90, 0.5))
    world.createCollider(RAPIER.ColliderDesc.cuboid(40, 0.5, 0.5), body)
  }
  const rapier = attachRapier(sim, world, RAPIER, { rate })
  const ctx = { sim, world, rapier, cars: [], t: 0, rapierMs: 0, rapierCpu: 0, countCpu: false }
  // Rapier's own step, timed apart (wall, and CPU only while cpuPerStep reads it: process.cpuUsage
  // makes an object, garbage that is the bench's, and its time, on a loaded machine far more than
  // a syscall's, would count as Rapier's wall time; the CPU figure of Rapier still holds it)
  const step = rapier.step.bind(rapier)
  rapier.step = (dt) => {
    const t0 = performance.now(), c0 = ctx.countCpu ? cpuMs() : 0
    step(dt)
    if (ctx.countCpu) ctx.rapierCpu += cpuMs() - c0
    ctx.rapierMs += performance.now() - t0
  }
  ctx.stepRapierOnly = step
  for (let i = 0; i < CARS; i++) {
    const car = sim.addCar({ position: lane(i), speed: 10 })
    sim.setInput(car, { gear: 1 })
    if (hosted) rapier.host(car)
    ctx.cars.push(car)
  }
  return ctx
}

// full20's scripted inputs, written straight into the input record
const steps = pitlaneSteps

/**
 * Runs STEPS host steps. The harness reports wall time per unit, so the units are scaled by
 * total / part, which leaves the time per step of `part`: pitlane's side (the step minus
 * Rapier's world.step) or Rapier's alone.
 */
function runPart(ctx, part) {
  const r0 = ctx.rapierMs
  const t0 = performance.now()
  steps(ctx, STEPS)
  const total = performance.now() - t0
  const rapier = ctx.rapierMs - r0
  return (STEPS * total) / Math.max(part === 'rapier' ? rapier : total - rapier, 1e-9)
}

function verify(ctx) {
  const ref = ctx.ref
  steps(ctx, 120)
  steps(ref, 120)
  ctx.cars.forEach((car, i) => {
    const a = ref.sim.carState(ref.cars[i])
    const b = ctx.sim.carState(car)
    if (!ctx.rapier.bodyOf(car)) throw new Error(`car ${car} has no Rapier body`)
    if (!(a.speed > 5)) throw new Error(`unhosted car ${i} did not drive: ${a.speed} m/s`)
    if (!(Math.abs(b.speed - a.speed) < 0.02 * a.speed)) throw new Error(`hosted car ${i}: ${b.speed} m/s, unhosted ${a.speed} m/s`)
    if (!(Math.hypot(b.position[0] - a.position[0], b.position[1] - a.position[1]) < 0.5)) throw new Error(`hosted car ${i} left the unhosted car's path`)
  })
}

// min-of-5 CPU ms per step over batches of 30: [total, Rapier's part]
function cpuPerStep(ctx) {
  let best = [Infinity, 0]
  ctx.countCpu = true
  for (let r = 0; r < 5; r++) {
    const c0 = cpuMs(), r0 = ctx.rapierCpu
    steps(ctx, 30)
    const total = (cpuMs() - c0) / 30
    if (total < best[0]) best = [total, (ctx.rapierCpu - r0) / 30]
  }
  ctx.countCpu = false
  return best
}

/**
 * Bytes a host step allocates, [all of it, Rapier's world.step alone] (the harness's new-space
 * reading). Rapier's part is read from the world stepped alone, as the step leaves it (its
 * bindings allocate per body and collider each step, whatever pitlane does).
 */
function allocPerStep(ctx) {
  const total = bytesPerUnit(() => steps(ctx, 1))
  const rapier = bytesPerUnit(() => { ctx.stepRapierOnly(DT); return 1 })
  return [total, rapier]
}

// the hosted scene with its unhosted twin as ctx.ref
async function hostedScene(rate) {
  const ctx = await rapierScene(true, rate)
  ctx.ref = await rapierScene(false)
  return ctx
}

function hostedCase(id, rate, part, what) {
  return {
    id,
    unit: 'ms/step',
    what,
    setup: () => hostedScene(rate),
    verify,
    run: (ctx) => runPart(ctx, part),
    teardown(ctx) {
      if (part !== 'pitlane') return
      const [total, rapier] = cpuPerStep(ctx)
      const [unhosted] = cpuPerStep(ctx.ref)
      const [bytes, rapierBytes] = allocPerStep(ctx)
      ctx.metrics = { pitlaneSideCpu: total - rapier, stepBytes: bytes, rapierStepBytes: rapierBytes }
      ctx.extra = `cpu: pitlane side ${(total - rapier).toFixed(3)}, Rapier ${rapier.toFixed(3)}, same scene unhosted ${unhosted.toFixed(3)} ms/step; ` +
        `a whole step allocates ${bytes.toFixed(0)} B, Rapier's world.step alone ${rapierBytes.toFixed(0)} B (the harness's alloc figure, next, is scaled by the time's split)`
    },
  }
}

export const cases = [
  hostedCase('hosted20', 'host', 'pitlane', '20 hosted hatchbacks on Rapier, pitlane side (Rapier once per 60 Hz step)'),
  hostedCase('hosted20Rapier', 'host', 'rapier', "the same, Rapier's own world.step (20 chassis, 40 barriers)"),
  hostedCase('hosted20Substep', 'substep', 'pitlane', 'alternative: Rapier once per 1 kHz substep, pitlane side'),
  hostedCase('hosted20SubstepRapier', 'substep', 'rapier', "the alternative, Rapier's own world.steps per 60 Hz step"),
]
