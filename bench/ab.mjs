// A/B of two built dists: `node bench/ab.mjs <distA> <distB> [case…] [--rounds N]` runs the named
// bench cases (default: every case) against each dist in alternating child processes (A, B, A, B,
// …: a load swing on the machine hits both), each case timed as `npm run bench` times it but in
// CPU time, and prints each case's median over the rounds per dist and the ratio B / A. A dist is
// a directory built by `npm run build` (e.g. another commit's: `git worktree add /tmp/base <commit>`,
// `npm ci && npm run build` there, then pass /tmp/base/dist); its bare imports resolve from here.
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { register } from 'node:module'
import { resolve as resolvePath } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const REPO_URL = new URL('../', import.meta.url).href
/** A ratio B / A above this is flagged (the "within +15%"). */
const FLAG_ABOVE = 1.15

async function child(dist, ids) {
  register('./ab-hooks.mjs', import.meta.url, { data: { from: new URL('dist/', REPO_URL).href, to: pathToFileURL(resolvePath(dist)).href + '/', repo: REPO_URL } })
  const { timeCase } = await import('./harness.mjs')
  const dir = new URL('./cases/', import.meta.url)
  const out = {}
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()) {
    const mod = await import(new URL(f, dir))
    for (const c of mod.cases) {
      if (ids.length && !ids.includes(c.id)) continue
      try {
        out[c.id] = (await timeCase(c, { clock: 'cpu' })).value
      } catch (e) {
        out[c.id] = `FAILED: ${e && e.message}`
      }
    }
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}

function median(a) {
  const s = [...a].sort((x, y) => x - y)
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

function parent(args) {
  const roundsAt = args.indexOf('--rounds')
  const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 3
  const [distA, distB, ...ids] = args
  if (!distA || !distB || !(rounds >= 1)) {
    console.error('usage: node bench/ab.mjs <distA> <distB> [case…] [--rounds N]')
    process.exit(2)
  }
  const runs = { A: [], B: [] }
  for (let r = 0; r < rounds; r++) {
    for (const [name, dist] of r % 2 ? [['B', distB], ['A', distA]] : [['A', distA], ['B', distB]]) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dist, ...ids], { cwd: resolvePath(HERE, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
      runs[name].push(JSON.parse(out.trim().split('\n').pop()))
      process.stderr.write(`round ${r + 1}/${rounds} ${name} done\n`)
    }
  }
  console.log(`A = ${distA}\nB = ${distB}\nCPU time, median of ${rounds} alternating runs per dist\n`)
  console.log(`${'case'.padEnd(18)} ${'A'.padStart(10)} ${'B'.padStart(10)}    B/A   per-round B/A`)
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
else parent(argv)
