// Driver benchmarks: full20Driven = 20 hatchbacks at full (four-wheel at 1 kHz) driven round a
// closed oval, ms per 60 Hz host step; st200DrivenMany = 200 driven single-track cars at 240 Hz,
// one stepMany(1/60, N) call per timed run, ms per host step; driver200 = the drive-paths system
// alone for 200 driven cars (vehicle and later phases removed), µs per host step.
// Compare full20Driven with full20 and st200DrivenMany with st200 (bench/cases/vehicles.mjs).
// Verified before timing: every car laps on the line (lateral error < 1 m), at its level.
import { createWorld } from 'bitecs'
import { createSim, stadiumPath } from '../../dist/index.js'

const STEPS_PER_RUN = 30

/** Best-of-5 CPU ms per host step of `n` steps of `sim` (robust when other processes share the cores). */
function cpuMs(sim, n) {
  const times = [0, 1, 2, 3, 4].map(() => { const u0 = process.cpuUsage(); sim.stepMany(1 / 60, n); const u = process.cpuUsage(u0); return (u.user + u.system) / 1000 / n })
  return Math.min(...times)
}

/** A sim with `count` cars spread round a 300 m / 60 m oval, driven, at `level` (and `hz`). */
function drivenSim(count, level, hz) {
  const sim = createSim(createWorld())
  const path = stadiumPath(300, 60, 2)
  const n = path.length / 2
  const cars = []
  for (let i = 0; i < count; i++) {
    const k = Math.floor((i * n) / count)
    const x = path[2 * k], y = path[2 * k + 1]
    const nx = path[(2 * k + 2) % path.length], ny = path[(2 * k + 3) % path.length]
    const offset = (i % 3) - 1 // three lanes
    const h = Math.atan2(ny - y, nx - x)
    const car = sim.addCar({ position: [x - Math.sin(h) * offset * 3, y + Math.cos(h) * offset * 3], heading: h, speed: 10 })
    sim.setInput(car, { gear: 1 }) // gear stays the user's: drive
    if (level === 'singleTrack') sim.setLod(car, 'singleTrack', hz)
    sim.setAi(car, path, { closed: true, lateralOffset: offset * 3 })
    cars.push(car)
  }
  return { sim, cars, level, hz }
}

/** Throws unless every car moved forward along its path, stays on its line and is at its level. */
function verifyDriven({ sim, cars, level, hz }, seconds = 4) {
  const before = cars.map((c) => sim.aiStatus(c).distance)
  sim.stepMany(1 / 60, Math.round(seconds * 60))
  cars.forEach((c, i) => {
    const st = sim.aiStatus(c)
    const lod = sim.getLod(c)
    if (lod.level !== level) throw new Error(`car ${c} is at ${lod.level}, set ${level}`)
    if (hz && lod.hz !== hz) throw new Error(`car ${c} runs at ${lod.hz} Hz, set ${hz}`)
    if (!(st.distance - before[i] > 5 * seconds)) throw new Error(`car ${c} moved ${st.distance - before[i]} m in ${seconds} s`)
    if (!(Math.abs(st.lateralError) < 1)) throw new Error(`car ${c} is ${st.lateralError} m off its line`)
  })
  return `cpu ${cpuMs(sim, 30).toFixed(3)} ms/step`
}

export const cases = [
  {
    id: 'full20Driven',
    unit: 'ms/step',
    what: '20 hatchbacks, four-wheel at 1 kHz, path-following driver, 60 Hz host step',
    setup: () => drivenSim(20, 'full'),
    verify(ctx) { ctx.extra = verifyDriven(ctx) },
    run({ sim }) { sim.step(1 / 60); return 1 },
  },
  {
    id: 'st200DrivenMany',
    unit: 'ms/step',
    what: `200 driven single-track cars at 240 Hz, one stepMany(1/60, ${STEPS_PER_RUN}) call`,
    setup: () => drivenSim(200, 'singleTrack', 240),
    verify(ctx) { ctx.extra = verifyDriven(ctx) },
    run({ sim }) { sim.stepMany(1 / 60, STEPS_PER_RUN); return STEPS_PER_RUN },
  },
  {
    id: 'driver200',
    unit: 'µs/step',
    what: 'drive-paths alone for 200 driven cars (other systems removed), per 60 Hz host step',
    setup() {
      const ctx = drivenSim(200, 'singleTrack', 240)
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
      ctx.extra = `cpu ${(cpuMs(sim, 300) * 1000).toFixed(1)} µs/step, ${(cpuMs(sim, 300) * 1000 / cars.length).toFixed(3)} µs per car`
    },
    run({ sim }) { sim.stepMany(1 / 60, STEPS_PER_RUN); return STEPS_PER_RUN },
  },
]
