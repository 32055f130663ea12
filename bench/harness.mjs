// The benchmark harness: each case verifies its result, warms up, then reports the median of
// several timed repetitions. Cases live in bench/cases/*.mjs and export `cases`: a list of
// { id, unit, what, setup() -> ctx, verify(ctx) (throws on a wrong result), run(ctx) -> units }
// where run returns how many units (rays, steps) it did, and the value is time per unit.
import { performance } from 'node:perf_hooks'

/** Times one case: returns { value, unit } or throws when verification fails. */
export async function timeCase(c, { reps = 7, minMs = 150 } = {}) {
  const ctx = await c.setup()
  await c.verify(ctx)
  // warm-up: at least minMs of runs
  let t0 = performance.now()
  let warm = 0
  while (performance.now() - t0 < minMs || warm < 2) { c.run(ctx); warm++ }
  const samples = []
  for (let r = 0; r < reps; r++) {
    let units = 0
    t0 = performance.now()
    let t1 = t0
    do { units += c.run(ctx); t1 = performance.now() } while (t1 - t0 < minMs / 3)
    samples.push((t1 - t0) / units)
  }
  samples.sort((a, b) => a - b)
  const ms = samples[samples.length >> 1]
  const scale = c.unit.startsWith('ns') ? 1e6 : c.unit.startsWith('µs') || c.unit.startsWith('us') ? 1e3 : 1
  if (c.teardown) await c.teardown(ctx)
  return { value: ms * scale, unit: c.unit, what: c.what, extra: ctx.extra }
}
