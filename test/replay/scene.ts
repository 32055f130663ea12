/** A shared test scene for LOD, replay and hardening tests: driven cars at mixed levels, lidars, obstacles. */
import { createWorld } from 'bitecs'
import { createSim, type Sim } from '../../src/index'
import { stadiumPath } from '../../src/driver/path'
import { slotOnPath } from '../grid'

/** The oval every scene car drives (closed, anticlockwise, 2 m spacing). */
export const OVAL = stadiumPath(120, 40, 2)

/** Options of buildScene. */
export interface SceneOptions {
  cars?: number
  /** Level of car i (default: i % 5 = 0 full, 4 frozen, otherwise singleTrack at 240 Hz). */
  levelOf?: (i: number) => 'full' | 'singleTrack' | 'frozen'
  lidars?: number
  obstacles?: number
}

/** Builds a scene: cars spread around the oval with drivers, some lidars (mounted and fixed), some boxes. */
export function buildScene(opts: SceneOptions = {}): { sim: Sim; cars: number[]; lidars: number[]; obstacles: number[] } {
  const { cars: nCars = 6, lidars: nLidars = 2, obstacles: nObs = 4 } = opts
  const levelOf = opts.levelOf ?? ((i: number) => (i % 5 === 0 ? 'full' : i % 5 === 4 ? 'frozen' : 'singleTrack'))
  const sim = createSim(createWorld())
  const cars: number[] = []
  for (let i = 0; i < nCars; i++) {
    const { x, y, heading } = slotOnPath(OVAL, i, nCars)
    const car = sim.addCar({ position: [x, y], heading, speed: 6 + (i % 3) })
    sim.setAi(car, OVAL, { closed: true, maxSpeed: 14 + (i % 4), lateralOffset: (i % 3) - 1 })
    sim.setInput(car, { gear: 1 }) // the driver leaves the gear to the user: drive
    const level = levelOf(i)
    if (level === 'singleTrack') sim.setLod(car, 'singleTrack', 240)
    else if (level === 'frozen') sim.setLod(car, 'frozen')
    cars.push(car)
  }
  const obstacles: number[] = []
  for (let i = 0; i < nObs; i++) {
    const a = (2 * Math.PI * i) / Math.max(1, nObs)
    obstacles.push(sim.addCollider({ kind: i % 2 ? 'box' : 'cylinder', radius: 1, halfHeight: 1, halfExtents: [1, 2, 1] } as never, { position: [25 * Math.cos(a), 15 * Math.sin(a), 1] }))
  }
  const lidars: number[] = []
  const pattern = { yawStart: -Math.PI, yawIncrement: (2 * Math.PI) / 36, yawCount: 36, pitchStart: -0.05, pitchIncrement: 0.05, pitchCount: 2 }
  for (let i = 0; i < nLidars; i++) {
    const mounted = i % 2 === 0 && cars.length > 0
    lidars.push(sim.addLidar({
      ...(mounted ? { mount: cars[(i / 2) % cars.length], offset: [0.5, 0, 1.5] } : { offset: [0, 0, 3] }),
      pattern, rangeMin: 0.3, rangeMax: 60, hz: i % 3 === 0 ? undefined : 10,
    }))
  }
  return { sim, cars, lidars, obstacles }
}

/** Every number of every car's carState, aiStatus and every lidar scan, in a fixed order (for bit comparisons). */
export function stateNumbers(sim: Sim, cars: number[], lidars: number[]): number[] {
  const out: number[] = []
  const walk = (v: unknown) => {
    if (typeof v === 'number') out.push(v)
    else if (typeof v === 'boolean') out.push(v ? 1 : 0)
    else if (v && typeof v === 'object') {
      if (ArrayBuffer.isView(v)) { const a = v as unknown as ArrayLike<number>; for (let i = 0; i < a.length; i++) out.push(a[i]) }
      else for (const k of Object.keys(v).sort()) walk((v as Record<string, unknown>)[k])
    }
  }
  // (aiStatus.gap is Infinity with no car ahead: −1 here, so every number is finite)
  for (const c of cars) { walk(sim.carState(c)); const st = sim.aiStatus(c); walk(st && { ...st, gap: st.gap === Infinity ? -1 : st.gap }); walk(sim.getInput(c)) }
  for (const l of lidars) {
    const s = sim.lidarScan(l)
    out.push(s.count)
    for (let i = 0; i < 3 * s.count; i++) out.push(s.points[i])
    for (let i = 0; i < s.count; i++) out.push(s.rays[i], s.distances[i])
  }
  return out
}

/** Index of the first number that differs bitwise (Object.is), or -1 when all are identical. */
export function firstDifference(a: number[], b: number[]): number {
  if (a.length !== b.length) return Math.min(a.length, b.length)
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i
  return -1
}

/** Seeded numbers in [0, 1): the shared generator (test/random.ts). */
export { seededRandom as rng } from '../random'

/** Every number inside `v` (objects, arrays, typed arrays), in key order as found. */
export function allNumbers(v: unknown, out: number[] = []): number[] {
  if (typeof v === 'number') out.push(v)
  else if (v && typeof v === 'object') {
    if (ArrayBuffer.isView(v)) { const a = v as unknown as ArrayLike<number>; for (let i = 0; i < a.length; i++) out.push(a[i]) }
    else for (const k of Object.keys(v)) allNumbers((v as Record<string, unknown>)[k], out)
  }
  return out
}
