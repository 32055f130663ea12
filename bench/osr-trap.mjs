// `node bench/osr-trap.mjs [processes] [dist]`: how often a fresh process falls into V8's
// on-stack-replacement trap (docs/decisions/0007-hot-path-rules.md) on st200Terrain. Each process
// runs `bench/index.mjs --only st200,st200Terrain` (the flat scene first, so the terrain sim is
// the process's second sim: its creation deoptimises the models' code); a process counts as
// trapped when st200Terrain allocates more than TRAPPED_ABOVE bytes a step (trapped: ≈ 1.3 MB).
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const TRAPPED_ABOVE = 10_000
const processes = Number(process.argv[2] ?? 20)
const index = fileURLToPath(new URL('./index.mjs', import.meta.url))
let trapped = 0
const rows = []
for (let i = 0; i < processes; i++) {
  const out = execFileSync(process.execPath, [index, '--only', 'st200,st200Terrain'], { encoding: 'utf8' })
  const line = out.split('\n').find((l) => l.startsWith('st200Terrain'))
  const ms = Number(/ms\/step/.test(line) ? line.split(/\s+/)[1] : NaN)
  const bytes = Number(/alloc ([\d.]+) B\/step/.exec(line)?.[1])
  if (!Number.isFinite(ms) || !Number.isFinite(bytes)) throw new Error(`could not read st200Terrain: ${line}`)
  const isTrapped = bytes > TRAPPED_ABOVE
  if (isTrapped) trapped++
  rows.push(`${ms.toFixed(3)} ms ${bytes.toFixed(0)} B${isTrapped ? ' TRAPPED' : ''}`)
  console.log(`process ${i + 1}: st200Terrain ${rows[i]}`)
}
console.log(`trapped in ${trapped} of ${processes} processes`)
