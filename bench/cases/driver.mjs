// Driver benchmarks (ms per 60 Hz host step unless said):
// - full20Driven / st200DrivenMany: the scenes of full20 / st200 (bench/cases/vehicles.mjs: the
//   same hatchbacks on the same 30 m grid, gear 1, 10 m/s start, ≈ 11 m/s cruise), but each car
//   follows a gently weaving lane with the path-following driver (maxSpeed 11.2 m/s, the scripted
//   cars' mean speed) instead of scripted inputs, so the difference is the driver's cost.
//   st200DrivenMany makes one stepMany(1/60, N) call per timed run.
// - full20Oval / st200OvalMany: the same counts racing round a 300 m / 60 m oval in three lanes
//   (braking, cornering at 6 m/s², shifting): what a race costs.
// - driver200: the drive-paths system alone for 200 driven cars (every other system removed), µs.
// - driver200Traffic: the same with traffic 'avoid' (width 3 m each side: the next lane; maxSpeed 20–29 m/s, so
//   the field, cars about 15 m apart in each lane, follows and passes): the traffic and drive-paths
//   systems, µs; its metric overDriver200 is that over driver200 measured in the same chunks.
// Each driven case also reports the driver's paired share (see pairedShare): the honest answer to
// "what does the driver add", since full20/st200 run other inputs and so other physics.
// Verified before timing: every car moved forward along its path, on its line, at its level.
import { createWorld } from 'bitecs'
import { createSim, stadiumPath } from '../../dist/index.js'
import { slotOnPath } from '../scenes.mjs'

const STEPS_PER_RUN = 30

/** Best-of-5 CPU ms per host step of `n` steps of `sim` (robust when other processes share the cores). */
function cpuMs(sim, n) {
  const times = [0, 1, 2, 3, 4].map(() => { const u0 = process.cpuUsage(); sim.stepMany(1 / 60, n); const u = process.cpuUsage(u0); return (u.user + u.system) / 1000 / n })
  return Math.min(...times)
}

/** A lane along +x from x = -50 to `length` (6 km) at `y`, weaving ±1.5 m over 120 m (flat [x, y, …], 2 m apart). */
function lanePath(y, length = 6000) {
  const pts = []
  for (let x = -50; x <= length; x += 2) pts.push(x, y + 1.5 * Math.sin((2 * Math.PI * x) / 120))
  return pts
}

/** The full20/st200 scene (cars on a 30 m grid heading +x), each car driven along its row's lane (`length` m long). */
export function laneSim(count, level, hz, length = 6000) {
  const sim = createSim(createWorld())
  const lanes = new Map()
  const cars = []
  for (let i = 0; i < count; i++) {
    const x = (i % 10) * 30, y = Math.floor(i / 10) * 30
    const car = sim.addCar({ position: [x, y], speed: 10, lod: level })
    if (hz) sim.setLod(car, level, hz)
    sim.setInput(car, { gear: 1 }) // gear stays the user's: drive
    if (!lanes.has(y)) lanes.set(y, lanePath(y, length))
    sim.setAi(car, lanes.get(y), { maxSpeed: 11.2, traffic: 'ignore' }) // a row shares its lane's path record; the seed's driver (traffic has its own case)
    cars.push(car)
  }
  return { sim, cars, level, hz }
}

/** `count` cars spread round a 300 m / 60 m oval in three lanes, driven, at `level` (and `hz`), with `ai(i)` added to car i's setAi options (default: traffic 'ignore', the seed's driver). */
export function ovalSim(count, level, hz, ai = () => ({ traffic: 'ignore' })) {
  const sim = createSim(createWorld())
  const path = stadiumPath(300, 60, 2)
  const cars = []
  for (let i = 0; i < count; i++) {
    const offset = 3 * ((i % 3) - 1)
    const car = sim.addCar({ ...slotOnPath(path, i, count, offset), speed: 10, lod: level })
    if (hz) sim.setLod(car, level, hz)
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, path, { closed: true, lateralOffset: offset, ...ai(i) })
    cars.push(car)
  }
  return { sim, cars, level, hz }
}

/** Throws unless every car moved forward along its path, stays on its line and is at its level; returns the CPU note. */
function verifyDriven({ sim, cars, level, hz }, seconds = 4) {
  const before = cars.map((c) => sim.aiStatus(c).distance)
  sim.stepMany(1 / 60, Math.round(seconds * 60))
  cars.forEach((c, i) => {
    const st = sim.aiStatus(c)
    const lod = sim.getLod(c)
    if (lod.level !== level) throw new Error(`car ${c} is at ${lod.level}, set ${level}`)
    if (hz && lod.hz !== hz) throw new Error(`car ${c} runs at ${lod.hz} Hz, set ${hz}`)
    if (!(st.distance - before[i] > 5 * seconds)) throw new Error(`car ${c} moved ${st.distance - before[i]} m in ${seconds} s`)
    if (!(Math.abs(st.lateralError) < (st.passing ? 5 : 1))) throw new Error(`car ${c} is ${st.lateralError} m off its line`)
  })
  const speed = cars.reduce((a, c) => a + sim.carState(c).speed, 0) / cars.length
  return `cpu ${cpuMs(sim, 30).toFixed(3)} ms/step; mean speed ${speed.toFixed(1)} m/s`
}

/**
 * The driver's share of the step time, paired: scene A is driven; scene B (built the same, no
 * driver) replays A's steer/throttle/brake chunk by chunk, so both run bit-identical physics (checked)
 * and differ only by the driver. Both record/replay through one copy system of equal cost.
 * Returns the share (min CPU ms/step of each over `rounds` alternating chunks of `chunk` steps; 150
 * rounds: with other processes on the cores, fewer left the share swinging by a few points run to
 * run), the median over rounds of A's chunk over B's next one (adjacent in time, so load swings
 * cancel), and both as text.
 */
function pairedShare(scene, count, level, hz, rounds = 150, chunk = 20) {
  const A = scene(count, level, hz), B = scene(count, level, hz)
  for (const c of B.cars) B.sim.clearAi(c)
  const buf = new Float64Array(chunk * count * 3)
  let ka = 0, kb = 0
  const copy = (sim, cars, k, toBuf) => {
    const C = sim.components.Car
    for (let i = 0; i < cars.length; i++) {
      const c = cars[i], o = (k * cars.length + i) * 3
      if (toBuf) { buf[o] = C.steer[c]; buf[o + 1] = C.throttle[c]; buf[o + 2] = C.brake[c] } else { C.steer[c] = buf[o]; C.throttle[c] = buf[o + 1]; C.brake[c] = buf[o + 2] }
    }
  }
  A.sim.schedule.add((w) => { copy(A.sim, A.cars, ka++, true); return w }, { name: 'record-inputs', phase: 'input', after: 'drive-paths' })
  B.sim.schedule.add((w) => { copy(B.sim, B.cars, kb++, false); return w }, { name: 'replay-inputs', phase: 'input' })
  const cpu = (sim) => { const u0 = process.cpuUsage(); sim.stepMany(1 / 60, chunk); const u = process.cpuUsage(u0); return (u.user + u.system) / 1000 / chunk }
  let a = Infinity, b = Infinity
  const ratios = []
  for (let r = 0; r < rounds; r++) {
    ka = 0; const ta = cpu(A.sim)
    kb = 0; const tb = cpu(B.sim)
    a = Math.min(a, ta); b = Math.min(b, tb)
    ratios.push(ta / tb)
  }
  ratios.sort((x, y) => x - y)
  const median = ratios[rounds >> 1] // each round's A over its B: also steady when the mins are not
  const last = A.cars.length - 1
  if (JSON.stringify(A.sim.carState(A.cars[last])) !== JSON.stringify(B.sim.carState(B.cars[last]))) throw new Error('paired replay diverged from the driven run')
  const pct = (r) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`
  return { share: a / b - 1, medianShare: median - 1, text: `paired: driven ${a.toFixed(3)}, replayed ${b.toFixed(3)} ms/step cpu, driver ${pct(a / b)} (median of rounds ${pct(median)})` }
}

/** A timed case of `count` driven cars built by `scene`, stepping `per` host steps per run. */
function drivenCase(id, what, scene, count, level, hz, per) {
  return {
    id, unit: 'ms/step', what,
    setup: () => scene(count, level, hz),
    verify(ctx) {
      const moved = verifyDriven(ctx), paired = pairedShare(scene, count, level, hz)
      ctx.metrics = { driverShare: paired.share, driverShareMedian: paired.medianShare }
      ctx.extra = `${moved}; ${paired.text}`
    },
    run({ sim }) { sim.stepMany(1 / 60, per); return per },
  }
}

export const cases = [
  drivenCase('full20Driven', 'the full20 scene, each hatchback path-driven along its lane', laneSim, 20, 'full', 0, 1),
  drivenCase('st200DrivenMany', `the st200 scene path-driven, one stepMany(1/60, ${STEPS_PER_RUN}) call`, laneSim, 200, 'singleTrack', 240, STEPS_PER_RUN),
  drivenCase('full20Oval', '20 hatchbacks, four-wheel at 1 kHz, racing round an oval in 3 lanes', ovalSim, 20, 'full', 0, 1),
  drivenCase('st200OvalMany', `200 single-track cars at 240 Hz racing round an oval, stepMany(1/60, ${STEPS_PER_RUN})`, ovalSim, 200, 'singleTrack', 240, STEPS_PER_RUN),
  {
    id: 'driver200',
    unit: 'µs/step',
    what: 'drive-paths alone for 200 cars on the oval (other systems removed), per 60 Hz host step',
    setup() {
      const ctx = ovalSim(200, 'singleTrack', 240)
      verifyDriven(ctx, 1)
      for (const name of ctx.sim.schedule.names()) if (name !== 'drive-paths') ctx.sim.schedule.remove(name)
      return ctx
    },
    verify(ctx) {
      const { sim, cars } = ctx
      if (sim.schedule.names().join() !== 'drive-paths') throw new Error(`schedule is ${sim.schedule.names()}`)
      const C = sim.components.Car
      C.steer[cars[0]] = 5 // the driver must overwrite it
      sim.step(1 / 60)
      if (!(Math.abs(C.steer[cars[0]]) <= 1)) throw new Error('drive-paths did not write the steer input')
      const us = cpuMs(sim, 300) * 1000
      ctx.extra = `cpu ${us.toFixed(1)} µs/step, ${(us / cars.length).toFixed(3)} µs per car`
    },
    run({ sim }) { sim.stepMany(1 / 60, STEPS_PER_RUN); return STEPS_PER_RUN },
  },
  {
    id: 'driver200Traffic',
    unit: 'µs/step',
    what: "traffic and drive-paths alone for 200 cars on the oval with traffic 'avoid' (width 3 m, spread pace), per 60 Hz host step",
    setup() {
      const ctx = trafficOval()
      ctx.plain = ovalSim(200, 'singleTrack', 240, () => ({ traffic: 'ignore' }))
      verifyDriven(ctx.plain, 1)
      for (const name of ctx.plain.sim.schedule.names()) if (name !== 'drive-paths') ctx.plain.sim.schedule.remove(name)
      return ctx
    },
    verify(ctx) {
      const { sim, cars } = ctx
      if (sim.schedule.names().join() !== 'traffic,drive-paths') throw new Error(`schedule is ${sim.schedule.names()}`)
      const following = cars.filter((c) => sim.aiStatus(c).ahead >= 0).length, passing = cars.filter((c) => sim.aiStatus(c).passing).length
      if (following < 20 || passing < 2) throw new Error(`${following} cars follow, ${passing} pass: not a field in traffic`)
      // interleaved chunks: traffic + driver against the driver alone (driver200)
      let a = Infinity, b = Infinity
      for (let r = 0; r < 20; r++) { a = Math.min(a, cpuMs(sim, 30)); b = Math.min(b, cpuMs(ctx.plain.sim, 30)) }
      ctx.metrics = { overDriver200: a / b, driver200Us: b * 1000 }
      ctx.extra = `cpu ${(a * 1000).toFixed(1)} µs/step vs driver200 ${(b * 1000).toFixed(1)} = ${(a / b).toFixed(2)}x; ${following} cars following, ${passing} passing`
    },
    run({ sim }) { sim.stepMany(1 / 60, STEPS_PER_RUN); return STEPS_PER_RUN },
  },
]

/** The driver200 oval with traffic 'avoid', raced for 20 s (so cars follow and pass), then only traffic and drive-paths kept. */
function trafficOval() {
  const ctx = ovalSim(200, 'singleTrack', 240, (i) => ({ width: 3, maxSpeed: 20 + (i % 10) }))
  verifyDriven(ctx, 20)
  for (const name of ctx.sim.schedule.names()) if (name !== 'drive-paths' && name !== 'traffic') ctx.sim.schedule.remove(name)
  return ctx
}
