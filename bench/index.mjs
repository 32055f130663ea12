// `npm run bench [-- --json FILE] [-- --only id,id]`: runs every case in bench/cases against dist/.
import { readdirSync, writeFileSync } from 'node:fs'
import { timeCase } from './harness.mjs'
import { checkTargets } from './targets.mjs'

const args = process.argv.slice(2)
const jsonAt = args.indexOf('--json')
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : null
const onlyAt = args.indexOf('--only')
const only = onlyAt >= 0 ? new Set(args[onlyAt + 1].split(',')) : null

const dir = new URL('./cases/', import.meta.url)
const files = readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()
const results = {}
let failed = 0
for (const f of files) {
  const mod = await import(new URL(f, dir))
  for (const c of mod.cases) {
    if (only && !only.has(c.id)) continue
    try {
      // a case with measure() reports a figure that is not a time (bytes): no timing runs
      const r = c.measure ? await c.measure() : await timeCase(c)
      results[c.id] = r
      console.log(`${c.id.padEnd(18)} ${r.value.toFixed(r.value < 10 ? 3 : 1).padStart(10)} ${r.unit.padEnd(8)} ${c.what}${r.extra ? '  ' + r.extra : ''}`)
    } catch (e) {
      failed++
      console.log(`${c.id.padEnd(18)} FAILED: ${e && e.message}`)
    }
  }
}
const targets = checkTargets(results)
if (targets.length) {
  console.log('\ntargets (this run):')
  for (const t of targets) console.log(`  ${t.met ? 'met ' : 'NOT '} ${t.target}: ${t.value.toPrecision(3)} (bound ${t.bound.toPrecision(3)})`)
}
if (jsonFile) {
  const cases = {}
  for (const [id, r] of Object.entries(results)) cases[id] = { value: r.value, unit: r.unit, metrics: r.metrics }
  writeFileSync(jsonFile, JSON.stringify({ cases, targets }, null, 2))
}
if (failed) process.exitCode = 1
