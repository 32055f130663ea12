// Go/no-go measurement of a WebAssembly driver kernel (drive-cars.as.ts) against the JS driveCars.
// Build first: `npm run build` (dist/), then scratch/wasm-driver/build.sh (the kernel and a bundle
// of src/driver/drive-cars.ts: dist/ does not export driveCars; its text is the same function).
// Run: node scratch/wasm-driver/bench.mjs [verifySteps] [rounds]
// 1. Verify: real runs (the st200 lane scene, the 200-car oval, and short open lanes that end):
//    each host step, the driver system is replaced by one that copies the pre-step inputs into the
//    wasm memory, runs the kernel there, runs the JS driveCars on the sim's stores (which drive
//    the sim), and compares steer/throttle/brake and every Driver record field bit for bit.
//    Every kernel variant in out/ is checked (gen-variants.mjs, build.sh: addressing, a split
//    steering loop, optimiser levels).
// 2. Time, interleaved in one process, CPU time, min over rounds: JS driveCars on the st200 lane
//    scene after 600 host steps, each kernel on its copy of the same state (frozen: each call
//    redoes the same step), and what a wasm driver costs if the Car store stays in JS typed arrays:
//    a JS loop copying the 9 input fields of the driven cars in and the 3 outputs out ('copy'), or
//    whole-array copies (12 in, 3 out: 'bulk').
import { commitRemovals } from 'bitecs'
import { laneSim, ovalSim } from '../../bench/cases/driver.mjs'
import { driveCars } from './out/drive-cars.js'
import { CAR_FIELDS, kernels, WasmDriver } from './wasm-driver.mjs'

const DRIVER_STRIDE = 11
const DRIVER_NAMES = ['seg', 'goalSeg', 's', 'distance', 'start', 'laps', 'lateral', 'target', 'finished', 'speedI', 'curveI']
const verifySteps = Number(process.argv[2] ?? 900)
const rounds = Number(process.argv[3] ?? 200)

// --- Scenes: bench/cases/driver.mjs's (the same dist/).

/** The DriveArrays the drive-paths system hoists (same field order: one object shape). */
function hoist(sim) {
  const C = sim.components.Car
  return {
    x: C.x, y: C.y, heading: C.heading, speed: C.speed, vx: C.vx, vy: C.vy, yawRate: C.yawRate, wheelbase: C.wheelbase, maxSteer: C.maxSteer,
    steer: C.steer, throttle: C.throttle, brake: C.brake, state: sim.components.Driver.state,
  }
}

/**
 * Replaces `sim`'s drive-paths system by the checking one (JS drives; wasm runs on a copy of the
 * same pre-step inputs), steps `steps` host steps; returns the counts compared and the differences.
 */
function verifyRun(name, sim, steps) {
  const drivers = sim.internal.drivers
  const wds = Object.keys(kernels).map((v) => [v || 'base', new WasmDriver(sim.components.Car.x.length, drivers.paths, v)])
  const stats = { name, steps: 0, cars: 0, values: 0, diffs: [], laps: 0, finished: 0, wraps: 0, lost: 0 }
  const check = (world) => {
    const C = sim.components.Car, R = sim.components.Driver.state
    commitRemovals(world)
    const cars = drivers.driven.dense
    const dt = sim.internal.lastDt
    const prevS = cars.map((e) => R[e * DRIVER_STRIDE + 2])
    for (const [, wd] of wds) { wd.load(C, R, cars); wd.run(dt) }
    driveCars(hoist(sim), drivers.paths, cars, dt)
    for (let i = 0; i < cars.length; i++) {
      const e = cars[i]
      for (const [v, wd] of wds) {
        for (const f of ['steer', 'throttle', 'brake']) {
          stats.values++
          if (!Object.is(C[f][e], wd.car(f, e))) stats.diffs.push(`${name} ${v} step ${stats.steps} car ${e} ${f}: js ${C[f][e]} wasm ${wd.car(f, e)}`)
        }
        for (let k = 0; k < DRIVER_STRIDE; k++) {
          stats.values++
          const js = R[e * DRIVER_STRIDE + k], wasm = wd.driver(e, k)
          if (!Object.is(js, wasm)) stats.diffs.push(`${name} ${v} step ${stats.steps} car ${e} ${DRIVER_NAMES[k]}: js ${js} wasm ${wasm}`)
        }
      }
      if (Math.abs(R[e * DRIVER_STRIDE + 2] - prevS[i]) > 100) stats.wraps++ // s jumped: wrapped round a closed path
    }
    stats.cars += cars.length
    stats.steps++
    return world
  }
  sim.schedule.remove('drive-paths')
  sim.schedule.add(check, { name: 'drive-check', phase: 'input', after: 'select-lod' })
  if (sim.schedule.names()[1] !== 'drive-check') throw new Error(`schedule ${sim.schedule.names()}`)
  for (let n = 0; n < steps; n++) sim.step(1 / 60)
  const R = sim.components.Driver.state
  for (const e of drivers.driven.dense) {
    stats.laps += R[e * DRIVER_STRIDE + 5]
    stats.finished += R[e * DRIVER_STRIDE + 8]
    if (Math.abs(R[e * DRIVER_STRIDE + 6]) > 12) stats.lost++
  }
  return stats
}

function report(st) {
  console.log(`verify ${st.name}: ${st.steps} host steps, ${st.cars} car-steps, ${st.values} values compared (kernels ${Object.keys(kernels).map((v) => v || 'base')}), ${st.diffs.length} differences` +
    `; at the end: laps ${st.laps} (sum), finished ${st.finished}, s wrapped ${st.wraps}×`)
  for (const d of st.diffs.slice(0, 10)) console.log('  ' + d)
  return st.diffs.length
}

// --- 1. Verify
let diffs = 0
if (verifySteps > 0) { // (0: timing only)
  diffs += report(verifyRun('st200 lane', laneSim(200, 'singleTrack', 240).sim, verifySteps))
  diffs += report(verifyRun('oval200', ovalSim(200, 'singleTrack', 240).sim, Math.max(verifySteps, 4200)))
  diffs += report(verifyRun('short lanes (open end, finish)', laneSim(20, 'singleTrack', 240, 250).sim, 2400))
}

// --- 2. Time
const { sim, cars: carList } = laneSim(200, 'singleTrack', 240)
sim.stepMany(1 / 60, 600)
const drivers = sim.internal.drivers
commitRemovals(sim.world)
const cars = drivers.driven.dense
const C = sim.components.Car
const wd = new WasmDriver(C.x.length, drivers.paths)
wd.load(C, sim.components.Driver.state, cars)
const variants = Object.keys(kernels).filter((v) => v).map((v) => [v, new WasmDriver(C.x.length, drivers.paths, v)])
for (const [, w] of variants) w.load(C, sim.components.Driver.state, cars)
const V = hoist(sim)
const DT = 1 / 60
const CALLS = 100 // driveCars calls per timed chunk (each over the 200 cars)
const copyIn = CAR_FIELDS.slice(0, 9).map((f) => C[f]), copyOut = CAR_FIELDS.slice(9).map((f) => C[f])

/** The copy a wasm driver needs when the Car store stays in JS typed arrays: 9 inputs in, 3 outputs out. */
function copyInOut(F, base, cap, cars) {
  const [x, y, heading, speed, vx, vy, yawRate, wheelbase, maxSteer] = copyIn, [steer, throttle, brake] = copyOut
  const oY = base + cap, oH = oY + cap, oS = oH + cap, oVx = oS + cap, oVy = oVx + cap, oYaw = oVy + cap, oWb = oYaw + cap, oMs = oWb + cap
  const oSt = oMs + cap, oTh = oSt + cap, oBr = oTh + cap
  for (let i = 0; i < cars.length; i++) {
    const e = cars[i]
    F[base + e] = x[e]; F[oY + e] = y[e]; F[oH + e] = heading[e]; F[oS + e] = speed[e]; F[oVx + e] = vx[e]
    F[oVy + e] = vy[e]; F[oYaw + e] = yawRate[e]; F[oWb + e] = wheelbase[e]; F[oMs + e] = maxSteer[e]
  }
  // (the kernel runs here)
  for (let i = 0; i < cars.length; i++) {
    const e = cars[i]
    steer[e] = F[oSt + e]; throttle[e] = F[oTh + e]; brake[e] = F[oBr + e]
  }
}

/**
 * The same by bulk copies of whole arrays (the first `cap` ids): all 12 fields in (the outputs
 * too, so the copy back leaves the cars without a driver as they were), the 3 outputs back.
 */
function copyBulk(F, base, cap) {
  for (let k = 0; k < 9; k++) F.set(copyIn[k].subarray(0, cap), base + k * cap)
  for (let k = 0; k < 3; k++) F.set(copyOut[k].subarray(0, cap), base + (9 + k) * cap)
  // (the kernel runs here)
  for (let k = 0; k < 3; k++) copyOut[k].set(F.subarray(base + (9 + k) * cap, base + (10 + k) * cap))
}

const cpu = (fn) => { const u0 = process.cpuUsage(); fn(); const u = process.cpuUsage(u0); return (u.user + u.system) * 1000 / (CALLS * cars.length) } // ns per car
const runs = {
  js: () => { for (let k = 0; k < CALLS; k++) driveCars(V, drivers.paths, cars, DT) },
  wasm: () => { for (let k = 0; k < CALLS; k++) wd.run(DT) },
  ...Object.fromEntries(variants.map(([v, w]) => [v, () => { for (let k = 0; k < CALLS; k++) w.run(DT) }])),
  copy: () => { for (let k = 0; k < CALLS; k++) copyInOut(wd.f64, wd.carBase >> 3, wd.cap, cars) },
  bulk: () => { for (let k = 0; k < CALLS; k++) copyBulk(wd.f64, wd.carBase >> 3, wd.cap) },
}
const best = {}, all = {}
for (const k of Object.keys(runs)) { best[k] = Infinity; all[k] = [] }
for (let r = 0; r < rounds; r++) {
  for (const k of Object.keys(runs)) { const t = cpu(runs[k]); all[k].push(t); if (t < best[k]) best[k] = t }
}
const median = (a) => [...a].sort((p, q) => p - q)[a.length >> 1]
console.log(`time (st200 lane after 600 host steps, ${cars.length} driven cars, ${rounds} interleaved rounds of ${CALLS} calls, CPU): ns per car, min / median`)
for (const k of Object.keys(runs)) console.log(`  ${k.padEnd(5)} ${best[k].toFixed(1)} / ${median(all[k]).toFixed(1)}`)
console.log(`  wasm + copy ${(best.wasm + best.copy).toFixed(1)}, wasm + bulk ${(best.wasm + best.bulk).toFixed(1)} ns per car (sums of mins; the Car store capacity ${wd.cap}); js / wasm ${(best.js / best.wasm).toFixed(2)}×`)
console.log(`modules: ${Object.entries(kernels).map(([v, k]) => `${v || 'base'} ${k.bytes} bytes`).join(', ')}; cars ${carList.length}`)
if (diffs > 0) process.exitCode = 1
