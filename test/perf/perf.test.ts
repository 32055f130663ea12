// Performance guards against dist/ under plain node (test/perf/alloc.mjs in child processes, not
// vitest's transform): after warm-up a step of full20, st200, mixed100, a driven race, full20Terrain and st200Terrain allocates
// ≤ 1 KB, and the pitlane side of a hosted20 step (full20's cars on Rapier, less Rapier's own
// world.step) ≤ 10 KB (what is left is Rapier's bindings boxing the numbers of each body read, and
// the impulses' arguments); over a scripted 2-minute race taking every rare branch (race.mjs) no
// frame allocates more than 4 KB and none is slower than 8× the median frame.
//
// The race runs RACE_RUNS times in fresh processes; a frame's time is its least over the runs,
// its bytes their median. The runs step identically, so a hitch or garbage the code causes (a slow
// branch, a deoptimisation, a collection) comes at the same frame of most runs, while a noise
// spike does not: nor does V8 finishing an optimising compile on the main thread, which puts a
// few KB into the young generation. A compile finishes after a time, not after a number of frames,
// and on a quiet machine at the same frame of every run: so each run waits a different time
// between frames (its pace), and a compile's garbage lands at different frames of different runs. A frame is a
// hitch when both its CPU time (process.cpuUsage, which other processes do not inflate) and its
// wall time are over the bound: the process's CPU time also counts its background threads, so an
// optimising compile running beside the main thread (which delays no frame) shows in it, and wall
// time alone would count a neighbour's load. A garbage collection inside a frame counts in both.
//
// The steady figures are likewise the median of STEADY_RUNS processes: node 20 can leave a model
// in on-stack-replacement code for good after its optimised code is thrown away, and that
// process's steps then allocate kilobytes (described in docs/decisions/0007-hot-path-rules.md).
// What opened that door to the single-track model in about one process in eight, a second sim
// throwing its optimised code away, is guarded on its own ("second sim", from V8's
// --trace-opt/--trace-deopt lines of one process, which name the function): the same in every
// process, unlike the trap.
//
// Criteria that main does not meet yet are listed in KNOWN_FAILING with the figures measured;
// they are skipped (their figures still print) unless PITLANE_PERF_STRICT=1, which runs them all.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const NODE_FLAGS = ['--expose-gc', '--allow-natives-syntax', '--max-semi-space-size=64', '--min-semi-space-size=64']
const RACE_RUNS = 5
const STEADY_RUNS = 5
const STEADY_BOUND = 1024
const HOSTED_BOUND = 10 * 1024
const FRAME_BOUND = 4096
const HITCH_RATIO = 8

/**
 * Criteria main does not meet yet, with what was measured (2 cores shared): run with
 * PITLANE_PERF_STRICT=1 to check them.
 */
const KNOWN_FAILING: Record<string, string> = {}
const strict = process.env.PITLANE_PERF_STRICT === '1'
const guard = (name: string) => (KNOWN_FAILING[name] && !strict ? it.skip : it)

function newestMtime(dir: string): number {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)
  }
  return t
}

/** Builds dist/ unless it is newer than every source file (npm test builds first anyway). */
function ensureFreshDist(): void {
  const built = join(ROOT, 'dist/index.js')
  const sources = Math.max(...['src', 'components', 'systems'].map((d) => newestMtime(join(ROOT, d))))
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' })
}

function runAlloc(mode: 'steady' | 'hosted' | 'race', pace = 0): any {
  const out = execFileSync(process.execPath, [...NODE_FLAGS, join(ROOT, 'test/perf/alloc.mjs'), mode, String(pace)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
  return JSON.parse(out)
}

/** V8's lines, in alloc.mjs second-sim, that optimise singleTrackSubsteps and that throw its optimised code away. */
function secondSimTrace(): { optimised: string[]; thrownAway: string[] } {
  const out = execFileSync(process.execPath, [...NODE_FLAGS, '--trace-opt', '--trace-deopt', join(ROOT, 'test/perf/alloc.mjs'), 'second-sim'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
  const lines = out.split('\n')
  return {
    optimised: lines.filter((l) => /^\[completed optimizing .*<JSFunction singleTrackSubsteps /.test(l)),
    thrownAway: lines.filter((l) => /<SharedFunctionInfo singleTrackSubsteps>.*for deoptimization|deoptimizing .*<JSFunction singleTrackSubsteps /.test(l)),
  }
}

const median = (a: ArrayLike<number>) => Float64Array.from(a).sort()[a.length >> 1]

/** The race's frames over HITCH_RATIO × the median in both CPU and wall time: [frame, CPU µs, wall ms]. */
function hitches(): number[][] {
  const med = median(frameCpu), medWall = median(frameWall)
  const out: number[][] = []
  for (let i = 0; i < frameCpu.length; i++) {
    if (frameCpu[i] > HITCH_RATIO * med && frameWall[i] > HITCH_RATIO * medWall) out.push([i + firstFrame, frameCpu[i], frameWall[i]])
  }
  return out
}

interface Steady { bytesPerStep: number | null; runs?: (number | null)[] }
let steady: Record<string, Steady>
let frameBytes: Float64Array // per frame, the median over the runs
let mostBytes = 0 // the most any frame of any run allocated (printed only)
let frameCpu: Float64Array // per frame, the least over the runs (µs)
let frameWall: Float64Array // per frame, the least over the runs (ms)
let firstFrame = 0
let summary = ''

describe('performance guards (dist/, plain node)', () => {
  beforeAll(() => {
    ensureFreshDist()
    const steadyRuns: Record<string, Steady>[] = Array.from({ length: STEADY_RUNS }, () => ({ ...runAlloc('steady'), ...runAlloc('hosted') }))
    steady = {}
    for (const name of Object.keys(steadyRuns[0])) {
      // (null: a collection in every attempt, counted as the most)
      const values = steadyRuns.map((r) => r[name].bytesPerStep)
      const sorted = values.map((v) => v ?? Infinity).sort((a, b) => a - b)
      const middle = sorted[STEADY_RUNS >> 1]
      steady[name] = { bytesPerStep: middle === Infinity ? null : middle, runs: values }
    }
    const runs = Array.from({ length: RACE_RUNS }, (_, k) => runAlloc('race', k))
    firstFrame = runs[0].from
    const n = runs[0].bytes.length
    frameBytes = new Float64Array(n)
    frameCpu = new Float64Array(n).fill(Infinity)
    frameWall = new Float64Array(n).fill(Infinity)
    for (const r of runs) {
      for (let i = 0; i < n; i++) {
        mostBytes = Math.max(mostBytes, r.bytes[i])
        frameCpu[i] = Math.min(frameCpu[i], r.cpuUs[i])
        frameWall[i] = Math.min(frameWall[i], r.ms[i])
      }
    }
    for (let i = 0; i < n; i++) frameBytes[i] = median(runs.map((r) => r.bytes[i]))
    const med = median(frameCpu), medWall = median(frameWall)
    const worst = frameCpu.reduce((w, v, i) => (v > frameCpu[w] ? i : w), 0)
    const worstWall = frameWall.reduce((w, v, i) => (v > frameWall[w] ? i : w), 0)
    const heaviest = frameBytes.reduce((w, v, i) => (v > frameBytes[w] ? i : w), 0)
    summary = [
      ...Object.entries(steady).map(([k, v]) => `${k}: ${v.bytesPerStep === null ? 'a collection in every attempt' : `${v.bytesPerStep.toFixed(0)} B/step`} (median of ${v.runs!.map((b) => (b === null ? 'collections' : b.toFixed(0))).join(', ')})`),
      `race (${RACE_RUNS} runs, frames ${firstFrame}–${runs[0].frames}): median ${med} µs CPU; worst frame ${worst + firstFrame} ${frameCpu[worst]} µs (${(frameCpu[worst] / med).toFixed(1)}×), ` +
        `wall median ${medWall.toFixed(3)} ms, worst frame ${worstWall + firstFrame} ${frameWall[worstWall].toFixed(3)} ms (${(frameWall[worstWall] / medWall).toFixed(1)}×); ` +
        `frames over ${HITCH_RATIO}× in CPU ${frameCpu.filter((v) => v > HITCH_RATIO * med).length}, in wall time ${frameWall.filter((v) => v > HITCH_RATIO * medWall).length}, in both ${hitches().length}; heaviest frame (median of the runs) ${heaviest + firstFrame} ${frameBytes[heaviest]} B, in any one run ${mostBytes} B; ` +
        `frames over 4 KB: ${frameBytes.filter((v) => v > FRAME_BOUND).length}; collections ${runs.map((r) => r.gcs).join('/')}; laps ${runs[0].seen.laps}, LOD switches ${runs[0].seen.switches}`,
    ].join('\n')
    console.log(`performance guards:\n${summary}`)
  }, 180_000)

  for (const name of ['full20', 'st200', 'mixed100', 'race', 'full20Terrain', 'st200Terrain']) {
    guard(`${name} steady`)(`after warm-up, a step of ${name} allocates ≤ 1 KB`, () => {
      const b = steady[name].bytesPerStep
      expect(b, `${name}: ${b} B/step`).not.toBeNull()
      expect(b!).toBeLessThanOrEqual(STEADY_BOUND)
    })
  }

  guard('hosted20 steady')("after warm-up, the pitlane side of a hosted20 step (Rapier's world.step excluded) allocates ≤ 10 KB", () => {
    const b = steady.hosted20.bytesPerStep
    expect(b, `hosted20 pitlane side: ${b} B/step`).not.toBeNull()
    expect(b!).toBeLessThanOrEqual(HOSTED_BOUND)
  })

  guard('second sim')("a second sim leaves the single-track model's optimised code in place", () => {
    ensureFreshDist()
    const { optimised, thrownAway } = secondSimTrace()
    // (optimised first: otherwise there is nothing to keep, and the check below proves nothing)
    expect(optimised.length, 'singleTrackSubsteps optimised while st200 warms up').toBeGreaterThan(0)
    expect(thrownAway, 'singleTrackSubsteps deoptimised').toEqual([])
  }, 60_000)

  guard('race frames')('no frame of the 2-minute race allocates more than 4 KB', () => {
    const over = [...frameBytes].map((b, i) => [i + firstFrame, b]).filter(([, b]) => b > FRAME_BOUND)
    expect(over.slice(0, 10), `${over.length} frames over 4 KB (frame, bytes)`).toEqual([])
  })

  guard('race hitches')('no frame of the 2-minute race is slower than 8× the median frame', () => {
    const over = hitches()
    expect(over.slice(0, 10), `median ${median(frameCpu)} µs, ${median(frameWall)} ms; ${over.length} frames over ${HITCH_RATIO}× (frame, CPU µs, wall ms)`).toEqual([])
  })
})
