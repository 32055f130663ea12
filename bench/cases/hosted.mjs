// Hosted benchmarks: 20 hatchbacks at full (four-wheel at 1 kHz) on a Rapier host, scripted
// inputs (throttle and a slow weave, each car in its own lane inside a ring of 40 barrier boxes),
// 60 Hz host step. `hosted20` is the pitlane side only (reading chassis state, substeps,
// impulses: the sim step minus Rapier's own world.step, which `hosted20Rapier` reports);
// `hosted20Substep*` measure the alternative of docs/decisions/0004-host-substeps.md (one Rapier
// step per substep). The extra column shows the same scene unhosted (compare hosted20 with it and
// with full20 in bench/cases/vehicles.mjs: target ≤ 2×).
// Verified before timing: hosted cars move like the same cars unhosted (speed within 2%), every
// chassis body exists and nothing hit a barrier.
import { performance } from 'node:perf_hooks'
import RAPIER from '@dimforge/rapier3d-compat'
import { createWorld } from 'bitecs'
import { createSim } from '../../dist/index.js'
import { attachRapier } from '../../dist/rapier/index.js'

const CARS = 20
const STEPS_PER_RUN = 10

function lane(i) {
  return [(i % 5) * 40 - 80, Math.floor(i / 5) * 40 - 60]
}

/** The scene: `hosted` cars on a Rapier host with `rate`, or none hosted (the reference). */
async function scene(hosted, rate = 'host') {
  await RAPIER.init()
  const sim = createSim(createWorld())
  const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 })
  for (let k = 0; k < 40; k++) {
    const a = (k / 40) * 2 * Math.PI
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(260 * Math.cos(a), 260 * Math.sin(a), 0.5).setRotation({ x: 0, y: 0, z: Math.sin(a / 2), w: Math.cos(a / 2) }))
    world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 20, 0.5), body)
  }
  const rapier = attachRapier(sim, world, RAPIER, { rate })
  // time Rapier's own step separately
  const ctx = { sim, world, rapier, cars: [], rapierMs: 0, step: 0 }
  const step = rapier.step.bind(rapier)
  rapier.step = (dt) => { const t0 = performance.now(); step(dt); ctx.rapierMs += performance.now() - t0 }
  for (let i = 0; i < CARS; i++) {
    const car = sim.addCar({ position: lane(i), heading: 0, speed: 5 })
    sim.setInput(car, { gear: 1, throttle: 0.3 })
    if (hosted) rapier.host(car)
    ctx.cars.push(car)
  }
  return ctx
}

// scripted inputs: each car weaves gently (a different phase per car)
function drive(ctx) {
  const t = ctx.step++ / 60
  for (let i = 0; i < ctx.cars.length; i++) ctx.sim.setInput(ctx.cars[i], { steer: 0.15 * Math.sin(0.7 * t + i) })
}

/**
 * Runs STEPS_PER_RUN host steps. The harness reports wall time per unit, so the units are scaled
 * by total / part, which leaves the time per step of `part`: pitlane's side (the step minus
 * Rapier's world.step) or Rapier's alone.
 */
function runPart(ctx, part) {
  const r0 = ctx.rapierMs
  const t0 = performance.now()
  for (let s = 0; s < STEPS_PER_RUN; s++) { drive(ctx); ctx.sim.step(1 / 60) }
  const total = performance.now() - t0
  const rapier = ctx.rapierMs - r0
  return (STEPS_PER_RUN * total) / Math.max(part === 'rapier' ? rapier : total - rapier, 1e-9)
}

function verify(ctx) {
  const ref = ctx.ref
  for (let s = 0; s < 180; s++) { drive(ctx); ctx.sim.step(1 / 60); drive(ref); ref.sim.step(1 / 60) }
  ctx.cars.forEach((car, i) => {
    const a = ref.sim.carState(ref.cars[i])
    const b = ctx.sim.carState(car)
    if (!ctx.rapier.bodyOf(car)) throw new Error(`car ${car} has no Rapier body`)
    if (!(a.speed > 6)) throw new Error(`reference car ${i} only reached ${a.speed} m/s`)
    if (!(Math.abs(b.speed - a.speed) < 0.02 * a.speed)) throw new Error(`hosted car ${i}: ${b.speed} m/s, unhosted ${a.speed} m/s`)
    if (!(Math.hypot(b.position[0] - a.position[0], b.position[1] - a.position[1]) < 0.5)) throw new Error(`hosted car ${i} is off the unhosted car's path`)
  })
  ctx.rapierMs = 0
}

// the same scene unhosted, ms per step (pitlane integrating every chassis itself): median of 7 batches
function unhostedMs(ctx) {
  const ref = ctx.ref
  const batches = []
  for (let b = 0; b < 7; b++) {
    const t0 = performance.now()
    for (let s = 0; s < 20; s++) { drive(ref); ref.sim.step(1 / 60) }
    batches.push((performance.now() - t0) / 20)
  }
  return batches.sort((a, b) => a - b)[3]
}

// the hosted scene with its unhosted twin as ctx.ref
async function hostedScene(rate) {
  const ctx = await scene(true, rate)
  ctx.ref = await scene(false)
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
      if (part === 'pitlane') ctx.extra = `(same scene unhosted: ${unhostedMs(ctx).toFixed(3)} ms/step)`
    },
  }
}

export const cases = [
  hostedCase('hosted20', 'host', 'pitlane', '20 hosted hatchbacks on Rapier, pitlane side (Rapier once per 60 Hz step)'),
  hostedCase('hosted20Rapier', 'host', 'rapier', "the same, Rapier's own world.step (20 chassis, 40 barriers)"),
  hostedCase('hosted20Substep', 'substep', 'pitlane', 'alternative: Rapier once per 1 kHz substep, pitlane side'),
  hostedCase('hosted20SubstepRapier', 'substep', 'rapier', "the alternative, Rapier's own world.steps per 60 Hz step"),
]
