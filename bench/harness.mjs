// The benchmark harness: each case verifies its result, warms up, then reports the median of
// several timed repetitions. Cases live in bench/cases/*.mjs and export `cases`: a list of
// { id, unit, what, setup() -> ctx, verify(ctx) (throws on a wrong result), run(ctx) -> units }
// where run returns how many units (rays, steps) it did, and the value is time per unit. After
// timing, the extras also give the bytes a unit allocates (our standard: none per step).
import { performance } from 'node:perf_hooks'
import v8 from 'node:v8'

/** CPU time of this process, ms. */
function cpuNow() {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/**
 * Times one case: returns { value, unit, what, extra, metrics } (metrics: the case's own numbers,
 * ctx.metrics, such as an interleaved ratio, and allocBytes per unit) or throws when verification
 * fails. `clock`: 'wall' (performance.now) or 'cpu' (this process's CPU time, which other
 * processes on a loaded machine do not inflate).
 */
export async function timeCase(c, { reps = 7, minMs = 150, clock = 'wall' } = {}) {
  const now = clock === 'cpu' ? cpuNow : () => performance.now()
  const ctx = await c.setup()
  await c.verify(ctx)
  // warm-up: at least minMs of runs
  let t0 = now()
  let warm = 0
  while (now() - t0 < minMs || warm < 2) { c.run(ctx); warm++ }
  const samples = []
  for (let r = 0; r < reps; r++) {
    let units = 0
    t0 = now()
    let t1 = t0
    do { units += c.run(ctx); t1 = now() } while (t1 - t0 < minMs / 3)
    samples.push((t1 - t0) / units)
  }
  samples.sort((a, b) => a - b)
  const ms = samples[samples.length >> 1]
  // after timing, warm: what a step (ray, …) leaves for the garbage collector
  const bytes = bytesPerUnit(() => c.run(ctx))
  const scale = c.unit.startsWith('ns') ? 1e6 : c.unit.startsWith('µs') || c.unit.startsWith('us') ? 1e3 : 1
  if (c.teardown) await c.teardown(ctx)
  const alloc = `alloc ${bytes < 10 ? bytes.toFixed(1) : bytes.toFixed(0)} B/${c.unit.split('/')[1] ?? 'unit'}`
  return { value: ms * scale, unit: c.unit, what: c.what, extra: ctx.extra ? `${ctx.extra}; ${alloc}` : alloc, metrics: { ...ctx.metrics, allocBytes: bytes } }
}

/**
 * Bytes allocated per unit of `run` (a function returning how many units it did): new-space
 * growth over `chunks` calls, skipping a call during which a scavenge ran, less the reading's own
 * garbage (measured on an empty call). Our standard is no allocation per step.
 */
export function bytesPerUnit(run, chunks = 20) {
  const newSpace = () => { for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size; return 0 }
  let own = Infinity
  for (let i = 0; i < 10; i++) { const a = newSpace(), b = newSpace(); if (b >= a) own = Math.min(own, b - a) }
  let bytes = 0, units = 0
  for (let k = 0; k < chunks; k++) {
    const a = newSpace()
    const n = run()
    const b = newSpace()
    if (b >= a) { bytes += Math.max(0, b - a - own); units += n }
  }
  return units ? bytes / units : NaN
}
