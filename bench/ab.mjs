// A/B of two built dists: `node bench/ab.mjs <distA> <distB> [case…] [--rounds N]` loads every
// named bench case (default: every case) twice in one process, once over each dist, sets both up
// and verifies both, warms both, then times them interleaved: each round times a chunk of A's runs
// then a chunk of B's (the order alternating), in this process's CPU time. It prints each dist's
// median time per unit, the ratio B / A of the medians and the median of each round's own ratio
// (adjacent in time, so a load swing on the machine or a slow phase of the process hits both). A
// dist is a directory built by `npm run build` (e.g. another commit's: `git worktree add /tmp/base
// <commit>`, `npm run build` there, then pass /tmp/base/dist); its bare imports resolve from here.
// `--processes` runs each dist in its own child processes instead (A, B, A, B, …).
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { register } from 'node:module'
import { resolve as resolvePath } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const REPO_URL = new URL('../', import.meta.url).href
/** A ratio B / A above this is flagged (the "within +15%"). */
const FLAG_ABOVE = 1.15
/** CPU ms each round gives each dist's case. */
const CHUNK_MS = 60

const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const distUrl = (dist) => pathToFileURL(resolvePath(dist)).href + '/'

function median(a) {
  const s = [...a].sort((x, y) => x - y)
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

function installHooks() {
  register('./ab-hooks.mjs', import.meta.url, { data: { dist: new URL('dist/', REPO_URL).href, repo: REPO_URL } })
}

/** Every case of bench/cases whose id is in `ids` (all when empty), loaded over `dist`. */
async function loadCases(dist, ids) {
  const dir = new URL('./cases/', import.meta.url)
  const out = []
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()) {
    const mod = await import(`${new URL(f, dir).href}?ab=${encodeURIComponent(distUrl(dist))}`)
    for (const c of mod.cases) if (!ids.length || ids.includes(c.id)) out.push(c)
  }
  return out
}

/** Runs `c` for about `ms` CPU ms; returns CPU ms per unit. */
function timeChunk(c, ctx, ms) {
  const t0 = cpuNow()
  let units = 0, t1 = t0
  do { units += c.run(ctx); t1 = cpuNow() } while (t1 - t0 < ms)
  return (t1 - t0) / units
}

function scale(unit) {
  return unit.startsWith('ns') ? 1e6 : unit.startsWith('µs') || unit.startsWith('us') ? 1e3 : 1
}

async function inProcess(distA, distB, ids, rounds) {
  installHooks()
  const A = await loadCases(distA, ids), B = await loadCases(distB, ids)
  const rows = []
  for (let i = 0; i < A.length; i++) {
    const a = A[i], b = B.find((c) => c.id === a.id)
    try {
      if (!b) throw new Error(`${distB} has no case ${a.id}`)
      const ca = await a.setup(), cb = await b.setup()
      await a.verify(ca); await b.verify(cb)
      timeChunk(a, ca, 150); timeChunk(b, cb, 150)
      const ta = [], tb = [], ratio = []
      for (let r = 0; r < rounds; r++) {
        let x, y
        if (r % 2) { y = timeChunk(b, cb, CHUNK_MS); x = timeChunk(a, ca, CHUNK_MS) } else { x = timeChunk(a, ca, CHUNK_MS); y = timeChunk(b, cb, CHUNK_MS) }
        ta.push(x * scale(a.unit)); tb.push(y * scale(a.unit)); ratio.push(y / x)
      }
      if (a.teardown) await a.teardown(ca)
      if (b.teardown) await b.teardown(cb)
      rows.push({ id: a.id, a: median(ta), b: median(tb), paired: median(ratio) })
    } catch (e) {
      rows.push({ id: a.id, failed: e && e.message })
    }
    process.stderr.write(`${a.id} done\n`)
  }
  console.log(`A = ${distA}\nB = ${distB}\nCPU time in one process, ${rounds} interleaved rounds of ${CHUNK_MS} ms per dist\n`)
  console.log(`${'case'.padEnd(18)} ${'A'.padStart(10)} ${'B'.padStart(10)}    B/A   paired B/A`)
  let flagged = 0
  for (const row of rows) {
    if (row.failed) { console.log(`${row.id.padEnd(18)} FAILED: ${row.failed}`); flagged++; continue }
    const ratio = row.b / row.a
    const flag = Math.min(ratio, row.paired) > FLAG_ABOVE ? `  > ${FLAG_ABOVE}` : ''
    if (flag) flagged++
    console.log(`${row.id.padEnd(18)} ${row.a.toPrecision(4).padStart(10)} ${row.b.toPrecision(4).padStart(10)}  ${ratio.toFixed(3)}   ${row.paired.toFixed(3)}${flag}`)
  }
  if (flagged) process.exitCode = 1
}

async function child(dist, ids) {
  installHooks()
  const { timeCase } = await import('./harness.mjs')
  const out = {}
  for (const c of await loadCases(dist, ids)) {
    try {
      out[c.id] = (await timeCase(c, { clock: 'cpu' })).value
    } catch (e) {
      out[c.id] = `FAILED: ${e && e.message}`
    }
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}

function processes(distA, distB, ids, rounds) {
  const runs = { A: [], B: [] }
  for (let r = 0; r < rounds; r++) {
    for (const [name, dist] of r % 2 ? [['B', distB], ['A', distA]] : [['A', distA], ['B', distB]]) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dist, ...ids], { cwd: resolvePath(HERE, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
      runs[name].push(JSON.parse(out.trim().split('\n').pop()))
      process.stderr.write(`round ${r + 1}/${rounds} ${name} done\n`)
    }
  }
  console.log(`A = ${distA}\nB = ${distB}\nCPU time, median of ${rounds} alternating processes per dist\n`)
  console.log(`${'case'.padEnd(18)} ${'A'.padStart(10)} ${'B'.padStart(10)}    B/A   per-process B/A`)
  let flagged = 0
  for (const id of Object.keys(runs.A[0])) {
    const a = runs.A.map((o) => o[id]), b = runs.B.map((o) => o[id])
    if (![...a, ...b].every((v) => typeof v === 'number')) {
      console.log(`${id.padEnd(18)} ${[...a, ...b].find((v) => typeof v !== 'number')}`)
      flagged++
      continue
    }
    const ratio = median(b) / median(a)
    const per = a.map((v, i) => (b[i] / v).toFixed(2)).join(' ')
    const flag = ratio > FLAG_ABOVE ? `  > ${FLAG_ABOVE}` : ''
    if (flag) flagged++
    console.log(`${id.padEnd(18)} ${median(a).toPrecision(4).padStart(10)} ${median(b).toPrecision(4).padStart(10)}  ${ratio.toFixed(3)}   ${per}${flag}`)
  }
  if (flagged) process.exitCode = 1
}

const argv = process.argv.slice(2)
if (argv[0] === '--child') await child(argv[1], argv.slice(2))
else {
  const take = (flag) => { const at = argv.indexOf(flag); return at >= 0 ? argv.splice(at, flag.startsWith('--rounds') ? 2 : 1) : null }
  const roundsArg = take('--rounds'), separate = take('--processes')
  const [distA, distB, ...ids] = argv
  const rounds = roundsArg ? Number(roundsArg[1]) : separate ? 3 : 21
  if (!distA || !distB || !(rounds >= 1)) {
    console.error('usage: node bench/ab.mjs <distA> <distB> [case…] [--rounds N] [--processes]')
    process.exit(2)
  }
  if (separate) processes(distA, distB, ids, rounds)
  else await inProcess(distA, distB, ids, rounds)
}
