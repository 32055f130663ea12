// LOD benchmark: mixed100 = 100 path-driven cars on an oval, 10 at full (the definition's
// four-wheel model at 1 kHz), 60 single-track at 240 Hz and 30 frozen; ms per 60 Hz host step.
// Verified before timing: every level is as set, driven cars move along the path and stay finite,
// frozen cars do not move.
import { createWorld } from 'bitecs'
import { createSim, stadiumPath } from '../../dist/index.js'
import { pitlaneScene, pitlaneSteps } from './vehicles.mjs'

const LEVELS = ['full', 'singleTrack', 'frozen']

/** Builds the mixed100 sim: returns { sim, cars, levels }. */
export function mixedSim({ full = 10, singleTrack = 60, frozen = 30, hz = 240 } = {}) {
  const sim = createSim(createWorld())
  const path = stadiumPath(150, 60, 2)
  const n = path.length / 2
  const total = full + singleTrack + frozen
  const cars = [], levels = []
  const quota = [full, singleTrack, frozen], taken = [0, 0, 0]
  for (let i = 0; i < total; i++) {
    const k = Math.floor((i * n) / total)
    const x = path[2 * k], y = path[2 * k + 1]
    const nx = path[(2 * k + 2) % path.length], ny = path[(2 * k + 3) % path.length]
    const car = sim.addCar({ position: [x, y], heading: Math.atan2(ny - y, nx - x), speed: 8 })
    sim.setAi(car, path, { closed: true, maxSpeed: 20, traffic: 'ignore' }) // the seed's driver: traffic is measured by its own cases
    sim.setInput(car, { gear: 1 }) // the driver leaves the gear to the user: drive
    // interleave the levels around the loop: each car takes the level furthest behind its quota
    const want = quota.map((q, j) => (q * (i + 1)) / total - taken[j])
    const j = want.indexOf(Math.max(...want))
    taken[j]++
    const level = LEVELS[j]
    if (level === 'singleTrack') sim.setLod(car, 'singleTrack', hz)
    else if (level === 'frozen') sim.setLod(car, 'frozen')
    cars.push(car); levels.push(level)
  }
  return { sim, cars, levels }
}

export const cases = [
  {
    id: 'mixed100',
    unit: 'ms/step',
    what: '100 driven cars: 10 full, 60 single-track at 240 Hz, 30 frozen, 60 Hz host step',
    setup() {
      const ctx = mixedSim()
      const counts = { full: 0, singleTrack: 0, frozen: 0 }
      for (const l of ctx.levels) counts[l]++
      if (counts.full !== 10 || counts.singleTrack !== 60 || counts.frozen !== 30) throw new Error(`level mix ${JSON.stringify(counts)}`)
      return ctx
    },
    verify({ sim, cars, levels }) {
      const before = cars.map((c) => sim.carState(c).position.slice())
      sim.stepMany(1 / 60, 120)
      cars.forEach((c, i) => {
        const lod = sim.getLod(c)
        if (lod.level !== levels[i]) throw new Error(`car ${c} is at ${lod.level}, set ${levels[i]}`)
        if (levels[i] === 'singleTrack' && lod.hz !== 240) throw new Error(`car ${c} runs at ${lod.hz} Hz, set 240`)
        const s = sim.carState(c)
        const moved = Math.hypot(s.position[0] - before[i][0], s.position[1] - before[i][1])
        if (!s.position.every(Number.isFinite)) throw new Error(`car ${c} is not finite`)
        if (levels[i] === 'frozen' ? moved !== 0 : moved < 10) throw new Error(`car ${c} (${levels[i]}) moved ${moved.toFixed(2)} m in 2 s`)
        if (levels[i] !== 'frozen' && Math.abs(sim.aiStatus(c).lateralError) > 3) throw new Error(`car ${c} is ${sim.aiStatus(c).lateralError.toFixed(2)} m off its path`)
      })
    },
    run({ sim }) {
      sim.step(1 / 60)
      return 1
    },
    teardown(ctx) {
      // The target's own comparison with less noise than two wall-clock rows: mixed100 against
      // full20's scene (pitlaneScene/pitlaneSteps, the same code as the full20 row) in this
      // process, CPU time of alternating chunks (adjacent in time, so load swings hit both):
      // min of each over the rounds, and the median of each round's ratio.
      const ref = pitlaneScene(20, 'full')
      pitlaneSteps(ref, 120)
      const chunk = 10, rounds = 60
      const cpu = (step) => { const u0 = process.cpuUsage(); step(); const u = process.cpuUsage(u0); return (u.user + u.system) / 1000 / chunk }
      let mine = Infinity, full = Infinity
      const ratios = []
      for (let r = 0; r < rounds; r++) {
        const a = cpu(() => ctx.sim.stepMany(1 / 60, chunk))
        const b = cpu(() => pitlaneSteps(ref, chunk))
        mine = Math.min(mine, a); full = Math.min(full, b)
        ratios.push(a / b)
      }
      ratios.sort((x, y) => x - y)
      ctx.metrics = { overFull20Cpu: mine / full, overFull20CpuMedian: ratios[rounds >> 1] }
      ctx.extra = `cpu interleaved with full20's scene: ${mine.toFixed(3)} vs ${full.toFixed(3)} ms/step = ${(mine / full).toFixed(2)} x full20 (median of rounds ${ratios[rounds >> 1].toFixed(2)})`
    },
  },
]
