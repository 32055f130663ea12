// Writes kernel variants of drive-cars.as.ts into out/ (the same arithmetic in the same order per
// car, so the same bits; bench.mjs checks them all):
//  - drive-cars.fixed.as.ts: the Car SoA and the path index at fixed addresses for capacity
//    FIXED_CAP (what WasmDriver lays out for it), so every Car access is one load with an immediate
//    offset off the entity's byte index (no base registers): does addressing matter?
//  - drive-cars.split.as.ts: the steering (pursuit curvature, atan, the divisions, the curvature
//    loop) moved to a second loop over a scratch of jobs written by the first: each loop's chain of
//    latency per car is shorter, so the CPU overlaps more cars: is the loop latency-bound?
import { readFileSync, writeFileSync } from 'node:fs'
import { FIXED_CAP, layout } from './wasm-driver.mjs'

const src = readFileSync(new URL('./drive-cars.as.ts', import.meta.url), 'utf8')
const write = (name, text) => writeFileSync(new URL(`./out/drive-cars.${name}.as.ts`, import.meta.url), text)

const L = layout(FIXED_CAP)
const names = ['X', 'Y', 'HEADING', 'SPEED', 'VX', 'VY', 'YAW', 'WHEELBASE', 'MAX_STEER', 'STEER', 'THROTTLE', 'BRAKE']
const consts = names.map((n, k) => `const ${n}_OFF: usize = ${L.carBase + k * FIXED_CAP * 8}`).join('\n') + `\nconst PATH_OF_OFF: usize = ${L.pathOf}\n`
const fixed = src
  .replace(/^  const cb = .*\n.*\n.*WHEELBASE = .*\n/m, '')
  .replace(/load<f64>\((\w+) \+ e8\)/g, 'load<f64>(e8, $1_OFF)')
  .replace(/store<f64>\((\w+) \+ e8, (.*)\)$/gm, 'store<f64>(e8, $2, $1_OFF)')
  .replace('load<i32>(pathOf + (<usize>eid << 2))', 'load<i32>(<usize>eid << 2, PATH_OF_OFF)')
  .replace('/** atan.ts', consts + '\n/** atan.ts')
if (/\w \+ e8/.test(fixed) || fixed.includes('pathOf +')) throw new Error('a Car access was left unrewritten')
write('fixed', fixed)

// split: the job record (96 bytes): eid, then the steering's inputs
const jobFields = ['gx', 'gy', 'px', 'py', 'ux', 'uy', 'm', 'wgt', 'yawRate', 'speed', 'wheelbase']
const at = src.indexOf('    // --- Steer'), end = src.lastIndexOf('  }\n}')
if (at < 0 || end < at) throw new Error('steer block not found')
const split = src.slice(0, at) +
  '    const job = scratch + <usize>jobs * 96\n    store<i32>(job, eid)\n' +
  jobFields.map((f, k) => `    store<f64>(job, ${f}, ${8 + 8 * k})\n`).join('') +
  '    jobs++\n  }\n  for (let j: i32 = 0; j < jobs; j++) {\n    const job = scratch + <usize>j * 96\n    const eid = load<i32>(job)\n' +
  `    const ${jobFields.map((f, k) => `${f} = load<f64>(job, ${8 + 8 * k})`).join(', ')}\n` +
  '    const e8 = <usize>eid << 3, d = drvBase + <usize>eid * DRIVER_BYTES\n' +
  src.slice(at)
if (!split.includes('pathTab: usize): void {')) throw new Error('signature not found')
write('split', split.replace('pathTab: usize): void {', 'pathTab: usize, scratch: usize): void {\n  let jobs: i32 = 0'))
