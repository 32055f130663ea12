// The path level of detail (ms per 60 Hz host step):
// - path1000: 1000 driven cars at 'path' on a 4 km circuit; the value is the path level's own
//   system (step-path-cars) alone, the metrics its cost per car (perCarUs), that over a
//   single-track car's (drive-paths + step-vehicles for 1000 driven single-track cars at 240 Hz:
//   overSingleTrack) and the whole step per path car (wholeStepPerCarUs, with the chassis
//   colliders following and the BVH refit), from interleaved chunks each timed by ownMs.
// - race10k: 10,000 driven cars on a 50 km circuit (points 10 m apart) in three lanes, a LodController focused on one
//   car (full within 60 m, singleTrack to 300 m, path beyond, never frozen) and 8 spinning16 lidars
//   on the cars round it: the mean 60 Hz step after warm-up; metrics worstMs and worstOverMedian
//   over 600 steps (10 s), the lidars' part of the mean (lidarMeanMs, lidarShare), and the same
//   figures in this process's CPU time (cpuMeanMs, cpuMedianMs, cpuWorstMs, cpuWorstOverMedian).
// Verified before timing: every path car moved along its line; in race10k every level is present.
import { createWorld } from 'bitecs'
import { createSim, LodController, lidarPresets, smoothClosedPath } from '../../dist/index.js'

/** A closed circuit of about `length` m: a wobbly loop (flat [x, y, …], `spacing` m apart). */
function circuit(length, spacing = 2) {
  const r = length / (2 * Math.PI), ctrl = []
  for (let i = 0; i < 24; i++) {
    const a = (2 * Math.PI * i) / 24, w = 1 + 0.08 * Math.sin(3 * a) + 0.05 * Math.cos(5 * a)
    ctrl.push(r * w * Math.cos(a), r * w * Math.sin(a))
  }
  return smoothClosedPath(ctrl, spacing)
}

/** `count` driven cars spread round `path` in three lanes (offsets −3, 0, 3 m) at `level`, with `ai` added to their setAi options (default: traffic 'ignore'). */
function fieldSim(count, path, level, hz, ai = { traffic: 'ignore' }) {
  const sim = createSim(createWorld())
  const n = path.length / 2, cars = []
  for (let i = 0; i < count; i++) {
    const k = Math.floor((i * n) / count), lane = (i % 3) - 1
    const x = path[2 * k], y = path[2 * k + 1]
    const h = Math.atan2(path[(2 * k + 3) % path.length] - y, path[(2 * k + 2) % path.length] - x)
    const car = sim.addCar({ position: [x - Math.sin(h) * 3 * lane, y + Math.cos(h) * 3 * lane], heading: h, speed: 15, lod: level === 'path' ? 'singleTrack' : level })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, path, { closed: true, maxSpeed: 25 + (i % 7), lateralOffset: 3 * lane, ...ai })
    if (level === 'path') sim.setLod(car, 'path')
    else if (hz) sim.setLod(car, level, hz)
    cars.push(car)
  }
  return { sim, cars }
}

/**
 * ms per step of `n` steps of `f`: the lesser of the process's CPU time and the wall time. Neither
 * can be below this thread's own time: CPU time also counts the collector's threads (cleaning up
 * after the cases run before this one), wall time any wait for a core.
 */
const ownMs = (f, n) => {
  const u0 = process.cpuUsage(), t0 = performance.now()
  f()
  const wall = performance.now() - t0, u = process.cpuUsage(u0)
  return Math.min((u.user + u.system) / 1000, wall) / n
}

function keepOnly(sim, names) {
  for (const name of sim.schedule.names()) if (!names.includes(name)) sim.schedule.remove(name)
}

export const cases = [
  {
    id: 'path1000',
    unit: 'ms/step',
    what: "1000 driven cars at 'path': the path level's system per 60 Hz host step",
    setup() {
      const path = circuit(4000)
      const ctx = fieldSim(1000, path, 'path')
      ctx.whole = fieldSim(1000, path, 'path')
      ctx.st = fieldSim(1000, path, 'singleTrack', 240)
      ctx.sim.stepMany(1 / 60, 60)
      keepOnly(ctx.sim, ['step-path-cars'])
      keepOnly(ctx.st.sim, ['drive-paths', 'step-vehicles'])
      return ctx
    },
    verify({ sim, cars }) {
      const before = cars.map((c) => sim.aiStatus(c).distance)
      sim.stepMany(1 / 60, 120)
      cars.forEach((c, i) => {
        const moved = sim.aiStatus(c).distance - before[i]
        if (!(moved > 20 && moved < 2 * 31 + 1)) throw new Error(`path car ${c} moved ${moved} m in 2 s`)
        if (sim.getLod(c).level !== 'path' || sim.aiStatus(c).lateralError !== 0) throw new Error(`car ${c} is not on its line at 'path'`)
      })
    },
    run({ sim }) { sim.stepMany(1 / 60, 30); return 30 },
    teardown(ctx) {
      const chunk = 20, rounds = 40, n = ctx.cars.length
      ctx.st.sim.stepMany(1 / 60, 60); ctx.whole.sim.stepMany(1 / 60, 60)
      let path = Infinity, st = Infinity, whole = Infinity
      for (let r = 0; r < rounds; r++) {
        path = Math.min(path, ownMs(() => ctx.sim.stepMany(1 / 60, chunk), chunk))
        st = Math.min(st, ownMs(() => ctx.st.sim.stepMany(1 / 60, chunk), chunk))
        whole = Math.min(whole, ownMs(() => ctx.whole.sim.stepMany(1 / 60, chunk), chunk))
      }
      const perCar = (path * 1000) / n, stPerCar = (st * 1000) / n
      ctx.metrics = { perCarUs: perCar, overSingleTrack: perCar / stPerCar, singleTrackPerCarUs: stPerCar, wholeStepPerCarUs: (whole * 1000) / n }
      ctx.extra = `${perCar.toFixed(4)} µs per path car (own time: the lesser of CPU and wall, best of ${rounds} chunks) vs ${stPerCar.toFixed(3)} per single-track car at 240 Hz (driver + model) = ${(perCar / stPerCar).toFixed(3)}; whole step ${((whole * 1000) / n).toFixed(3)} µs per path car`
    },
  },
  raceCase('race10k', { traffic: 'ignore' }, 'the cars drive through each other (traffic ignore)'),
  raceCase('race10kTraffic', { traffic: 'avoid' }, "traffic 'avoid': each follows the car ahead in its lane"),
]

/** The race10k case (`id`) with `ai` added to every car's setAi options (`note` says what they do). */
function raceCase(id, ai, note) {
  return {
    id,
    unit: 'ms/step',
    what: `10,000 driven cars on a 50 km circuit, LodController (full 60 m, singleTrack 300 m, path beyond), 8 spinning16 lidars, ${note}: mean step`,
    setup() {
      const ctx = fieldSim(10000, circuit(50000, 10), 'singleTrack', 240, ai) // (10 m apart: setAi reads every point of the path)
      const { sim, cars } = ctx
      const focus = cars[0]
      new LodController(sim, { singleTrackBeyond: 60, pathBeyond: 300, frozenBeyond: Infinity, singleTrackHz: 240 }).install({ focus })
      // the lidars on the cars nearest the focus (every 3rd one behind it: one per lane, round the focus)
      for (let k = 0; k < 8; k++) {
        sim.addLidar({ ...lidarPresets.spinning16, mount: cars[(cars.length - 3 * k) % cars.length] })
        sim.step(1 / 60) // a step apart, so their scans fall in different steps
      }
      sim.stepMany(1 / 60, 240)
      return ctx
    },
    verify({ sim, cars }) {
      const levels = { full: 0, singleTrack: 0, path: 0, frozen: 0 }
      for (const c of cars) levels[sim.getLod(c).level]++
      if (!levels.full || !levels.singleTrack || !levels.path || levels.frozen) throw new Error(`levels ${JSON.stringify(levels)}`)
      const d0 = cars.map((c) => sim.aiStatus(c).distance)
      sim.stepMany(1 / 60, 60)
      cars.forEach((c, i) => { if (!(sim.aiStatus(c).distance - d0[i] > 5)) throw new Error(`car ${c} did not race`) })
      // with traffic, cars catch the slower ones ahead in their lane and follow them
      const following = cars.filter((c) => sim.aiStatus(c).ahead >= 0).length
      if (ai.traffic === 'avoid' ? following < 1000 : following > 0) throw new Error(`${following} cars follow another`)
    },
    run({ sim }) { sim.stepMany(1 / 60, 10); return 10 },
    teardown(ctx) {
      // the lidars' share: two user systems read the clock just before and after scan-lidars
      let lidarStart = 0n, lidarNs = 0n
      ctx.sim.schedule.add(() => { lidarStart = process.hrtime.bigint() }, { name: `${id}-lidars-begin`, phase: 'sensors', before: 'scan-lidars' })
      ctx.sim.schedule.add(() => { lidarNs += process.hrtime.bigint() - lidarStart }, { name: `${id}-lidars-end`, phase: 'sensors', after: 'scan-lidars' })
      // wall time per step (the target), and this process's CPU time per step (what the other
      // processes of a loaded machine do not inflate)
      const times = [], cpuTimes = []
      for (let k = 0; k < 600; k++) {
        const u0 = process.cpuUsage(), t0 = process.hrtime.bigint()
        ctx.sim.step(1 / 60)
        times.push(Number(process.hrtime.bigint() - t0) / 1e6)
        const u = process.cpuUsage(u0)
        cpuTimes.push((u.user + u.system) / 1000)
      }
      const stats = (list) => {
        const sorted = [...list].sort((a, b) => a - b)
        return { mean: list.reduce((a, b) => a + b, 0) / list.length, median: sorted[list.length >> 1], worst: sorted[list.length - 1] }
      }
      const { mean, median, worst } = stats(times), cpu = stats(cpuTimes)
      const lidarMs = Number(lidarNs) / 1e6 / times.length
      const levels = { full: 0, singleTrack: 0, path: 0 }
      for (const c of ctx.cars) levels[ctx.sim.getLod(c).level]++
      ctx.metrics = {
        meanMs: mean, medianMs: median, worstMs: worst, worstOverMedian: worst / median, lidarMeanMs: lidarMs, lidarShare: lidarMs / mean,
        cpuMeanMs: cpu.mean, cpuMedianMs: cpu.median, cpuWorstMs: cpu.worst, cpuWorstOverMedian: cpu.worst / cpu.median,
      }
      ctx.extra = `600 steps: mean ${mean.toFixed(2)} ms (lidars ${lidarMs.toFixed(2)}), median ${median.toFixed(2)}, worst ${worst.toFixed(2)} (${(worst / median).toFixed(1)} x median); ` +
        `CPU mean ${cpu.mean.toFixed(2)}, median ${cpu.median.toFixed(2)}, worst ${cpu.worst.toFixed(2)} (${(cpu.worst / cpu.median).toFixed(1)} x); ${levels.full} full, ${levels.singleTrack} singleTrack, ${levels.path} path`
    },
  }
}
