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

// simd: split's first loop (jobs in SoA, JOB_CAP entries a field, so two jobs load as one v128),
// then the steering two cars at a time in f64x2, every branch a select of both sides: each lane
// does the scalar loop's operations in its order, so the same bits (atan's reductions become one
// division num/den, the unreduced range dividing x by 1, which is exact).
const simdFields = [...jobFields, 'maxSteer']
const simdLoop = `  if (jobs & 1) { // (an odd count: the last job twice, the same result written twice)
    const last = <usize>(jobs - 1) << 3
${simdFields.map((f, k) => `    store<f64>(scratch + last + 8, load<f64>(scratch + last, ${k} * jobField), ${k} * jobField)`).join('\n')}
    store<i32>(scratch + 4 + (<usize>(jobs - 1) << 2), load<i32>(scratch + (<usize>(jobs - 1) << 2), JOB_EIDS * jobField), JOB_EIDS * jobField)
  }
  const one = f64x2.splat(1.0), zero = f64x2.splat(0.0), two = f64x2.splat(2.0)
  for (let j: i32 = 0; j < jobs; j += 2) {
    const jp = scratch + (<usize>j << 3)
${simdFields.map((f, k) => `    const ${f} = v128.load(jp, ${k} * jobField)`).join('\n')}
    const ep = scratch + (<usize>j << 2) + JOB_EIDS * jobField
    const e0 = load<i32>(ep, 0), e1 = load<i32>(ep, 4)
    const d0 = drvBase + <usize>e0 * DRIVER_BYTES, d1 = drvBase + <usize>e1 * DRIVER_BYTES
    const dx = f64x2.sub(gx, px), dy = f64x2.sub(gy, py)
    const fx = f64x2.add(f64x2.mul(ux, dx), f64x2.mul(uy, dy))
    const ly = f64x2.sub(f64x2.mul(ux, dy), f64x2.mul(uy, dx))
    const d2 = f64x2.add(f64x2.mul(fx, fx), f64x2.mul(ly, ly))
    const m2 = f64x2.mul(two, m)
    const kBehind = f64x2.div(m2, f64x2.sqrt(d2)), kAhead = f64x2.div(f64x2.mul(m2, ly), d2)
    const kappa = sel(f64x2.ne(d2, zero), sel(f64x2.lt(fx, zero), sel(f64x2.lt(ly, zero), f64x2.neg(kBehind), kBehind), kAhead), zero)
    let corr = f64x2.replace_lane(f64x2.splat(load<f64>(d0, R_CURVE_I)), 1, load<f64>(d1, R_CURVE_I))
    const shortfall = sel(f64x2.gt(wgt, zero), f64x2.sub(kappa, f64x2.div(yawRate, speed)), zero)
    let u = f64x2.div(atan2x(f64x2.mul(wheelbase, f64x2.add(f64x2.add(kappa, corr), f64x2.mul(f64x2.mul(wgt, f64x2.splat(CURVE_KP)), shortfall)))), maxSteer)
    u = sel(f64x2.lt(u, one), sel(f64x2.gt(u, f64x2.splat(-1.0)), u, f64x2.splat(-1.0)), sel(f64x2.ge(u, one), one, zero))
    store<f64>(STEER + (<usize>e0 << 3), f64x2.extract_lane(u, 0))
    store<f64>(STEER + (<usize>e1 << 3), f64x2.extract_lane(u, 1))
    corr = sel(v128.and(f64x2.lt(u, one), f64x2.gt(u, f64x2.splat(-1.0))), f64x2.add(corr, f64x2.mul(f64x2.mul(f64x2.mul(wgt, f64x2.splat(CURVE_KI)), shortfall), f64x2.splat(stepDt))), corr)
    corr = sel(f64x2.lt(wgt, one), f64x2.sub(corr, f64x2.mul(f64x2.mul(corr, f64x2.sub(one, wgt)), f64x2.splat(0.1))), corr)
    corr = sel(f64x2.gt(corr, f64x2.splat(CURVE_I_MAX)), f64x2.splat(CURVE_I_MAX), sel(f64x2.lt(corr, f64x2.splat(curveIMin)), f64x2.splat(curveIMin), corr))
    store<f64>(d0, f64x2.extract_lane(corr, 0), R_CURVE_I)
    store<f64>(d1, f64x2.extract_lane(corr, 1), R_CURVE_I)
  }
}
`
const simdHelpers = `
/** a where mask, else b (per lane). */
// @ts-ignore: decorator
@inline function sel(mask: v128, a: v128, b: v128): v128 { return v128.bitselect(a, b, mask) }

/** atan of both lanes, each as atan() computes it (a select per branch). */
// @ts-ignore: decorator
@inline function atan2x(x: v128): v128 {
  const ax = f64x2.abs(x), one = f64x2.splat(1.0)
  const small = f64x2.lt(ax, f64x2.splat(0.4375)), r1 = f64x2.lt(ax, f64x2.splat(0.6875)), r2 = f64x2.lt(ax, f64x2.splat(1.1875)), r3 = f64x2.lt(ax, f64x2.splat(2.4375))
  const num = sel(small, x, sel(r1, f64x2.sub(f64x2.mul(f64x2.splat(2.0), ax), one), sel(r2, f64x2.sub(ax, one), sel(r3, f64x2.sub(ax, f64x2.splat(1.5)), f64x2.splat(-1.0)))))
  const den = sel(small, one, sel(r1, f64x2.add(f64x2.splat(2.0), ax), sel(r2, f64x2.add(ax, one), sel(r3, f64x2.add(one, f64x2.mul(f64x2.splat(1.5), ax)), ax))))
  const hi = sel(r1, f64x2.splat(4.63647609000806093515e-01), sel(r2, f64x2.splat(7.85398163397448278999e-01), sel(r3, f64x2.splat(9.82793723247329054082e-01), f64x2.splat(1.57079632679489655800e+00))))
  const lo = sel(r1, f64x2.splat(2.26987774529616870924e-17), sel(r2, f64x2.splat(3.06161699786838301793e-17), sel(r3, f64x2.splat(1.39033110312309984516e-17), f64x2.splat(6.12323399573676603587e-17))))
  const r = f64x2.div(num, den)
  const z = f64x2.mul(r, r), z2 = f64x2.mul(z, z), z4 = f64x2.mul(z2, z2)
  const pa = f64x2.add(f64x2.add(f64x2.splat(3.33333333333329318027e-01), f64x2.mul(z, f64x2.splat(-1.99999999998764832476e-01))), f64x2.mul(z2, f64x2.add(f64x2.splat(1.42857142725034663711e-01), f64x2.mul(z, f64x2.splat(-1.11111104054623557880e-01)))))
  const pb = f64x2.add(f64x2.add(f64x2.splat(9.09088713343650656196e-02), f64x2.mul(z, f64x2.splat(-7.69187620504482999495e-02))), f64x2.mul(z2, f64x2.add(f64x2.splat(6.66107313738753120669e-02), f64x2.mul(z, f64x2.splat(-5.83357013379057348645e-02)))))
  const pc = f64x2.add(f64x2.add(f64x2.splat(4.97687799461593236017e-02), f64x2.mul(z, f64x2.splat(-3.65315727442169155270e-02))), f64x2.mul(z2, f64x2.splat(1.62858201153657823623e-02)))
  const poly = f64x2.mul(z, f64x2.add(pa, f64x2.mul(z4, f64x2.add(pb, f64x2.mul(z4, pc)))))
  const rp = f64x2.mul(r, poly)
  const unreduced = f64x2.sub(r, rp)
  const v = f64x2.sub(hi, f64x2.sub(f64x2.sub(rp, lo), r))
  const reduced = f64x2.mul(v, sel(f64x2.lt(x, f64x2.splat(0.0)), f64x2.splat(-1.0), one))
  let res = sel(small, sel(f64x2.lt(ax, f64x2.splat(7.450580596923828125e-9)), x, unreduced), reduced)
  const big = f64x2.splat(1.57079632679489655800e+00 + 6.12323399573676603587e-17)
  res = sel(f64x2.ge(ax, f64x2.splat(7.378697629483821e19)), sel(f64x2.gt(x, f64x2.splat(0.0)), big, f64x2.neg(big)), res)
  return sel(f64x2.ne(x, x), f64x2.add(x, x), res)
}
`
const JOB_EIDS = simdFields.length
export const JOB_CAP = 4096
const simd = src.slice(0, at) +
  simdFields.map((f, k) => `    store<f64>(scratch + (<usize>jobs << 3), ${f === 'maxSteer' ? 'load<f64>(MAX_STEER + e8)' : f}, ${k} * jobField)\n`).join('') +
  `    store<i32>(scratch + (<usize>jobs << 2), eid, JOB_EIDS * jobField)\n    jobs++\n  }\n` + simdLoop
write('simd', simd
  .replace('pathTab: usize): void {', 'pathTab: usize, scratch: usize): void {\n  let jobs: i32 = 0')
  .replace('/** drive-cars.ts `driveCars`', `const JOB_EIDS: usize = ${JOB_EIDS}\nconst jobField: usize = ${JOB_CAP * 8} // (bytes a job field: room for ${JOB_CAP} jobs)\n${simdHelpers}\n/** drive-cars.ts \`driveCars\``))
