/**
 * The soak run shared by the short soak (test/hardening, in npm test) and the long one
 * (test/soak, `npm run soak`): many driven cars at mixed levels on an oval, lidars, random LOD
 * switches, stepped at 60 Hz; checks finiteness and path-keeping as it goes and times every
 * simulated minute (or the whole run when it is shorter).
 */
import { createWorld } from 'bitecs'
import { createSim, stadiumPath, type Sim } from '../../src/index'
import { allNumbers, rng } from '../replay/scene'

/** Options of runSoak. */
export interface SoakOptions {
  cars: number
  lidars: number
  /** Simulated seconds. */
  seconds: number
  /** Fractions of cars starting at full and frozen (the rest singleTrack at 240 Hz). */
  full?: number
  frozen?: number
  /** Random level switches per simulated second (made as swaps of two cars' levels: even). */
  switchesPerSecond?: number
  /** Seconds per timing window (default 60). */
  window?: number
}

/** What a soak saw. */
export interface SoakResult {
  /** Wall ms per host step in each timing window, in order. */
  windows: number[]
  /** CPU ms per host step in each timing window (steadier than wall time on a shared machine). */
  cpuWindows: number[]
  steps: number
  switches: number
  /** Largest |lateralError| of a running driven car at any check, m. */
  maxLateral: number
  /** Non-finite state values seen (must be 0). */
  nonFinite: number
  /** Distance driven by the car that drove least among those never frozen at a check, m. */
  minProgress: number
}


const countNonFinite = (v: unknown) => allNumbers(v).filter((x) => !Number.isFinite(x)).length

/** Builds the soak world: cars spread around a 150 m × 60 m stadium oval, every one driven. */
export function soakSim(o: SoakOptions): { sim: Sim; cars: number[]; lidars: number[] } {
  const sim = createSim(createWorld())
  const path = stadiumPath(150, 60, 2)
  const n = path.length / 2
  const cars: number[] = []
  const full = o.full ?? 0.04, frozen = o.frozen ?? 0.4
  for (let i = 0; i < o.cars; i++) {
    const k = Math.floor((i * n) / o.cars)
    const x = path[2 * k], y = path[2 * k + 1]
    const nx = path[(2 * k + 2) % path.length], ny = path[(2 * k + 3) % path.length]
    const car = sim.addCar({ position: [x, y], heading: Math.atan2(ny - y, nx - x), speed: 5 })
    // (traffic 'ignore': random switches freeze cars on lanes a metre apart, and an avoiding driver rightly waits behind a frozen car)
    sim.setAi(car, path, { closed: true, maxSpeed: 12 + (i % 5), lateralOffset: (i % 5) - 2, traffic: 'ignore' })
    sim.setInput(car, { gear: 1 }) // the driver leaves the gear to the user: drive
    const f = (i * 0.618034) % 1 // spread the levels evenly around the loop
    if (f < frozen) sim.setLod(car, 'frozen')
    else if (f < frozen + (1 - frozen - full)) sim.setLod(car, 'singleTrack', 240)
    cars.push(car)
  }
  const pattern = { yawStart: -Math.PI, yawIncrement: (2 * Math.PI) / 180, yawCount: 180, pitchStart: -0.1, pitchIncrement: 0.05, pitchCount: 4 }
  const lidars: number[] = []
  for (let i = 0; i < o.lidars; i++) lidars.push(sim.addLidar({ mount: cars[Math.floor((i * cars.length) / o.lidars)], offset: [1, 0, 1.6], pattern, rangeMin: 0.5, rangeMax: 60, hz: 10 }))
  return { sim, cars, lidars }
}

/** Runs a soak; see SoakOptions. */
export function runSoak(o: SoakOptions): SoakResult {
  const { sim, cars, lidars } = soakSim(o)
  const rand = rng(99)
  const everFrozen = new Uint8Array(cars.length)
  const startDistance = cars.map((c) => sim.aiStatus(c)!.distance)
  cars.forEach((c, i) => { if (sim.getLod(c).level === 'frozen') everFrozen[i] = 1 })
  const windowSteps = 60 * (o.window ?? 60)
  const total = Math.round(o.seconds * 60)
  const res: SoakResult = { windows: [], cpuWindows: [], steps: 0, switches: 0, maxLateral: 0, nonFinite: 0, minProgress: Infinity }
  let t0 = performance.now()
  let c0 = process.cpuUsage()
  for (let s = 0; s < total; s++) {
    if (s % 60 === 0) {
      // random LOD switches once per simulated second, as swaps of two cars' levels so the mix (and
      // so the honest cost per step) stays the same; they are part of the timed load
      const k = Math.round(o.switchesPerSecond ?? 5)
      for (let j = 0; j < k; j += 2) {
        const a = Math.floor(rand() * cars.length), b = Math.floor(rand() * cars.length)
        const la = sim.getLod(cars[a]).level, lb = sim.getLod(cars[b]).level
        for (const [i, level] of [[a, lb], [b, la]] as const) {
          if (level === 'singleTrack') sim.setLod(cars[i], level, 240)
          else sim.setLod(cars[i], level)
          if (level === 'frozen') everFrozen[i] = 1
          res.switches++
        }
      }
    }
    sim.step(1 / 60)
    res.steps++
    if ((s + 1) % windowSteps === 0 || s + 1 === total) {
      const n = (s % windowSteps) + 1
      res.windows.push((performance.now() - t0) / n)
      const c = process.cpuUsage(c0)
      res.cpuWindows.push((c.user + c.system) / 1000 / n)
      // checks outside the timed window
      for (let i = 0; i < cars.length; i++) {
        const c = cars[i]
        // (aiStatus.gap is Infinity with nothing ahead, by design)
        const st = sim.aiStatus(c)
        res.nonFinite += countNonFinite(sim.carState(c)) + countNonFinite(st && { ...st, gap: st.gap === Infinity ? 0 : st.gap })
        if (sim.getLod(c).level !== 'frozen') res.maxLateral = Math.max(res.maxLateral, Math.abs(sim.aiStatus(c)!.lateralError))
      }
      for (const l of lidars) { const sc = sim.lidarScan(l); for (let i = 0; i < 3 * sc.count; i++) if (!Number.isFinite(sc.points[i])) res.nonFinite++ }
      t0 = performance.now()
      c0 = process.cpuUsage()
    }
  }
  for (let i = 0; i < cars.length; i++) if (!everFrozen[i]) res.minProgress = Math.min(res.minProgress, sim.aiStatus(cars[i])!.distance - startDistance[i])
  return res
}
