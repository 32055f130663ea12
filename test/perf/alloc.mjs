// Allocation and hitch measurements against dist/ under plain node (no vitest transform), printed
// as one JSON object; test/perf/perf.test.ts spawns this and asserts on it. Run as
//   node --expose-gc --allow-natives-syntax --max-semi-space-size=64 --min-semi-space-size=64 test/perf/alloc.mjs steady|hosted|race|second-sim
// The new space is made large enough that no scavenge runs while a measurement is taken (garbage
// collections are still watched for, and reported), so heap growth is exactly what was allocated.
//
// steady: for full20, st200, mixed100, full20Terrain and st200Terrain (bench's scenes) after a warm-up of WARM_STEPS steps, and
//   the race's second minute: bytes allocated over MEASURED_STEPS steps / MEASURED_STEPS (the
//   allocation counter after − before, less the reading's own allocation).
// hosted: the same for hosted20, the pitlane side of a step (the whole step less Rapier's
//   world.step alone).
// second-sim: st200 warmed up, then a second sim (st200Terrain) created and stepped; prints nothing
//   itself: run with --trace-opt --trace-deopt, whose lines perf.test.ts reads (whether the second
//   sim threw away the single-track model's optimised code).
// race [pace]: the scripted 2-minute race (race.mjs), per frame after its warm-up: bytes allocated,
//   CPU and wall time. After every frame the process waits pace × PACE_US µs (outside the frame):
//   runs of different paces see V8's background compiles finish at different frames.
import v8 from 'node:v8'
import { PerformanceObserver, performance } from 'node:perf_hooks'
import { pitlaneScene, pitlaneSteps } from '../../bench/cases/vehicles.mjs'
import { mixedSim } from '../../bench/cases/lod.mjs'
import { rapierScene } from '../../bench/cases/hosted.mjs'
import { createRace, DT, RACE_S, WARM_UP_S } from './race.mjs'

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc')

const gcTimes = []
const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcTimes.push([e.startTime, e.startTime + e.duration]) })
observer.observe({ entryTypes: ['gc'] })
/** Lets the observer deliver the entries of collections so far. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const gcsBetween = (t0, t1) => gcTimes.filter(([a, b]) => b >= t0 && a <= t1).length

const YOUNG = new Set(['new_space', 'new_large_object_space'])
/**
 * Bytes allocated so far, as far as a step's garbage goes: the young generation's use (where V8
 * puts every new object; it pretenures only objects that outlive scavenges, never a step's
 * garbage) plus memory outside the heap (typed-array buffers). Compiled code and its metadata (old
 * and code space) do not count: V8 makes them when it chooses, not the step.
 */
function used() {
  let n = v8.getHeapStatistics().external_memory
  for (const s of v8.getHeapSpaceStatistics()) if (YOUNG.has(s.space_name)) n += s.space_used_size
  return n
}
function newSpaceUsed() {
  for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size
  return 0
}
/** What one used() reading allocates (the smallest of many pairs). */
function readingCost() {
  let own = Infinity
  for (let i = 0; i < 50; i++) { const a = used(); const b = used(); if (b >= a) own = Math.min(own, b - a) }
  return own
}

/**
 * Bytes per step of `step` over `steps` steps, with no collection in between (retried up to 5
 * times; null when a collection ran in every attempt). No gc() just before: a full collection makes V8 re-tier code, and the steps after it
 * allocate for a while (the harness's own artefact, not the step's).
 */
async function bytesPerStep(step, steps = MEASURED_STEPS) {
  const own = readingCost()
  for (let attempt = 0; attempt < 5; attempt++) {
    await settle()
    const t0 = performance.now()
    const a = used()
    for (let i = 0; i < steps; i++) step()
    const b = used()
    const t1 = performance.now()
    await settle()
    if (gcsBetween(t0, t1) === 0 && b >= a) return { bytesPerStep: Math.max(0, b - a - own) / steps, steps, attempts: attempt + 1 }
  }
  return { bytesPerStep: null, steps, attempts: 5 } // a collection in every attempt: far more than the bound
}

/** Steps of warm-up before a steady measurement, and steps measured. */
const WARM_STEPS = 2000
const MEASURED_STEPS = 1000
const HOSTED_WARM_STEPS = 300
const HOSTED_MEASURED_STEPS = 200

/** Warms `step` up by calling it WARM_STEPS times (the very closure measured: its own code is warm too), then measures it. */
async function warmThenMeasure(step) {
  for (let i = 0; i < WARM_STEPS; i++) step()
  return bytesPerStep(step)
}

async function steady() {
  const out = {}
  globalThis.gc()
  const full20 = pitlaneScene(20, 'full')
  out.full20 = await warmThenMeasure(() => pitlaneSteps(full20, 1))
  const st200 = pitlaneScene(200, 'singleTrack', 240)
  out.st200 = await warmThenMeasure(() => pitlaneSteps(st200, 1))
  const mixed = mixedSim()
  out.mixed100 = await warmThenMeasure(() => mixed.sim.step(DT))
  // the race once every rare branch has been taken (its first minute): its second minute
  const race = createRace()
  const frames = Math.round(RACE_S / DT)
  let i = 0
  const frame = () => race.frame(i++)
  while (i < frames / 2) frame()
  out.race = await bytesPerStep(frame, frames - i)
  race.check()
  // four-wheel cars on a heightfield: every wheel's ray walks its cells
  const full20Terrain = pitlaneScene(20, 'full', undefined, true)
  out.full20Terrain = await warmThenMeasure(() => pitlaneSteps(full20Terrain, 1))
  // single-track cars on it, in a sim created after the others (their optimised code made before)
  const st200Terrain = pitlaneScene(200, 'singleTrack', 240, true)
  out.st200Terrain = await warmThenMeasure(() => pitlaneSteps(st200Terrain, 1))
  return out
}

/**
 * hosted20 (bench's scene: full20's cars on a Rapier host, 40 barriers): the bytes of a whole
 * step less those of Rapier's world.step, stepped alone on the same world (Rapier's own, per body
 * and collider, whatever pitlane does). Fewer steps than the other scenes: a step costs more.
 * In a process of its own: run after steady's scenes, an occasional process measured it at about
 * three times its usual figure (V8's state left by the other sims; never seen in a fresh process).
 */
async function hosted() {
  const ctx = await rapierScene(true)
  for (let i = 0; i < HOSTED_WARM_STEPS; i++) pitlaneSteps(ctx, 1)
  const whole = await bytesPerStep(() => pitlaneSteps(ctx, 1), HOSTED_MEASURED_STEPS)
  const step = () => ctx.stepRapierOnly(DT)
  for (let i = 0; i < HOSTED_MEASURED_STEPS; i++) step()
  const rapier = await bytesPerStep(step, HOSTED_MEASURED_STEPS)
  const both = whole.bytesPerStep !== null && rapier.bytesPerStep !== null
  return { hosted20: { bytesPerStep: both ? whole.bytesPerStep - rapier.bytesPerStep : null, steps: whole.steps, wholeStep: whole.bytesPerStep, rapierStep: rapier.bytesPerStep } }
}

/** st200 warmed up, then a second sim on terrain created and stepped (the caller reads V8's trace). */
function secondSim() {
  const st200 = pitlaneScene(200, 'singleTrack', 240)
  for (let i = 0; i < WARM_STEPS; i++) pitlaneSteps(st200, 1)
  const st200Terrain = pitlaneScene(200, 'singleTrack', 240, true)
  for (let i = 0; i < 200; i++) pitlaneSteps(st200Terrain, 1)
  return {}
}

/** One measured frame: [bytes allocated (with the readings' own), CPU µs, wall ms]. */
function measureFrame(run, out) {
  const a = used()
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  run()
  const t1 = performance.now()
  const c = process.cpuUsage(c0)
  out[0] = used() - a
  out[1] = c.user + c.system
  out[2] = t1 - t0
}

// The race's measuring code stays in the interpreter: optimised at a frame of V8's choosing, it
// would allocate less than when its own cost was read (every later frame reading low), and its
// compile, on another thread, would count in that frame's process CPU time.
// (natives syntax, --allow-natives-syntax, is parsed in scripts, not in modules)
const neverOptimize = new Function('f', '%NeverOptimizeFunction(f)')
neverOptimize(measureFrame)
neverOptimize(raceRun)

/** The wait after a frame per unit of pace, µs. */
const PACE_US = 40

const sleeper = new Int32Array(new SharedArrayBuffer(4))
/** Sleeps about `us` µs (and no less), allocating nothing: the background compiles run meanwhile. */
function waitUs(us) {
  if (us > 0) Atomics.wait(sleeper, 0, 0, us / 1000)
}

async function raceRun(pace) {
  globalThis.gc()
  const wait = pace * PACE_US
  const race = createRace()
  const frames = Math.round(RACE_S / DT)
  const from = Math.round(WARM_UP_S / DT)
  const bytes = new Float64Array(frames - from)
  const cpuUs = new Float64Array(frames - from)
  const ms = new Float64Array(frames - from)
  const m = [0, 0, 0]
  // the warm-up frames are measured too (and dropped), so that the readings' own code (node's
  // wrappers of cpuUsage and the heap statistics) is optimised before its cost is read
  for (let i = 0; i < from; i++) { measureFrame(() => race.frame(i), m); waitUs(wait) }
  // The readings' own allocation, read beside every frame: it falls a little as node's code
  // warms, so the least of them is taken (a frame then reads at most that fall too high, never low).
  let own = Infinity
  const nothing = () => {}
  await settle()
  const start = performance.now()
  for (let i = from; i < frames; i++) {
    measureFrame(nothing, m)
    if (m[0] >= 0 && m[0] < own) own = m[0]
    measureFrame(() => race.frame(i), m)
    bytes[i - from] = m[0]
    cpuUs[i - from] = m[1]
    ms[i - from] = m[2]
    waitUs(wait)
  }
  const end = performance.now()
  for (let k = 0; k < bytes.length; k++) bytes[k] -= own
  await settle()
  const seen = race.check()
  return { from, frames, gcs: gcsBetween(start, end), newSpaceMB: newSpaceUsed() / 2 ** 20, seen, bytes: Array.from(bytes), cpuUs: Array.from(cpuUs), ms: Array.from(ms) }
}

const mode = process.argv[2]
const result = mode === 'steady' ? await steady() : mode === 'hosted' ? await hosted() : mode === 'race' ? await raceRun(Number(process.argv[3] ?? 0)) : mode === 'second-sim' ? secondSim() : null
if (!result) throw new Error(`mode must be steady, hosted, race or second-sim, got ${mode}`)
observer.disconnect()
process.stdout.write(JSON.stringify(result) + '\n')
