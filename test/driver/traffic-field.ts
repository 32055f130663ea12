/** Test helpers for traffic: a field of driven cars on a circuit, chassis overlap by the separating-axis test, overtakes counted. */
import { createWorld } from 'bitecs'
import { createSim, smoothClosedPath, type Sim } from '../../src/index'
import { slotOnPath } from '../grid'

/** A ~1.2 km circuit with a long straight, fast and slow bends (flat points 2 m apart). */
export const CIRCUIT_1200 = smoothClosedPath([
  [0, 0], [250, 0], [330, 40], [340, 130], [260, 170], [200, 130], [130, 170], [40, 180], [-40, 130], [-60, 50],
], 2)

/** Every car's chassis rectangle (centre, heading, half length and width), for the overlap test. */
export interface Box { x: number; y: number; c: number; s: number; hl: number; hw: number }

/** The chassis rectangle of `car` (the definition's body length and width). */
export function boxOf(sim: Sim, car: number): Box {
  const C = sim.components.Car, d = sim.internal.vehicles.defs[car]!.def
  const h = C.heading[car]
  return { x: C.x[car], y: C.y[car], c: Math.cos(h), s: Math.sin(h), hl: d.length / 2, hw: d.width / 2 }
}

/** True when two rectangles overlap (separating-axis test over the four edge normals). */
export function overlaps(a: Box, b: Box): boolean {
  const dx = b.x - a.x, dy = b.y - a.y
  for (const [ax, ay] of [[a.c, a.s], [-a.s, a.c], [b.c, b.s], [-b.s, b.c]]) {
    const ra = a.hl * Math.abs(a.c * ax + a.s * ay) + a.hw * Math.abs(-a.s * ax + a.c * ay)
    const rb = b.hl * Math.abs(b.c * ax + b.s * ay) + b.hw * Math.abs(-b.s * ax + b.c * ay)
    if (Math.abs(dx * ax + dy * ay) > ra + rb) return false
  }
  return true
}

/** The pairs of `cars` whose chassis overlap now (a sort along x prunes the pairs; brute force is the test's own second opinion). */
export function overlapping(sim: Sim, cars: readonly number[]): [number, number][] {
  const boxes = cars.map((c) => boxOf(sim, c))
  const out: [number, number][] = []
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j]
      if (Math.abs(a.x - b.x) > 6 || Math.abs(a.y - b.y) > 6) continue
      if (overlaps(a, b)) out.push([cars[i], cars[j]])
    }
  }
  return out
}

/** Options of a field. */
export interface FieldOptions {
  count: number
  level: 'full' | 'singleTrack'
  hz?: number
  /** maxSpeed of car i. */
  maxSpeed: (i: number) => number
  ai?: Record<string, unknown>
  path?: ArrayLike<number>
  /** Fraction of the lap the grid spans (cars evenly spread over it from the start). */
  spread?: number
}

/** A sim with `count` driven cars spread round the circuit. */
export function field(o: FieldOptions): { sim: Sim; cars: number[]; path: ArrayLike<number>; starts: number[] } {
  const path = o.path ?? CIRCUIT_1200
  const sim = createSim(createWorld())
  const cars: number[] = [], starts: number[] = []
  const spread = o.spread ?? 1
  for (let i = 0; i < o.count; i++) {
    const { x, y, heading } = slotOnPath(path, Math.round((i * spread * 1000) / o.count), 1000)
    const car = sim.addCar({ position: [x, y], heading, speed: 10, lod: o.level })
    if (o.hz) sim.setLod(car, o.level, o.hz)
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, path, { closed: true, maxSpeed: o.maxSpeed(i), ...o.ai })
    cars.push(car)
    starts.push(((i * spread) / o.count) * sim.aiPath(car)!.length)
  }
  return { sim, cars, path, starts }
}

/** Each car's place in the race: its station at the start (on the circuit of the field) plus its distance since. */
export function racePositions(sim: Sim, cars: readonly number[], starts: readonly number[]): number[] {
  return cars.map((c, i) => starts[i] + sim.aiStatus(c)!.distance)
}

/** Race order: the cars sorted by race position, first first. */
export function order(sim: Sim, cars: readonly number[], starts: readonly number[]): number[] {
  const pos = racePositions(sim, cars, starts)
  return cars.map((c, i) => [c, pos[i]] as const).sort((a, b) => b[1] - a[1]).map(([c]) => c)
}

/**
 * Runs `seconds` at 60 Hz host steps (stepMany), checking chassis overlaps at 20 Hz and counting
 * overtakes: a pair whose race positions change order (one drives past the other on the road).
 */
export function run(sim: Sim, cars: readonly number[], starts: readonly number[], seconds: number, onSample?: (t: number) => void): { overlaps: number; firstOverlap: string; overtakes: number } {
  let count = 0, first = ''
  let overtakes = 0
  let before = racePositions(sim, cars, starts)
  for (let k = 0; k < seconds * 20; k++) {
    sim.stepMany(1 / 60, 3)
    const hits = overlapping(sim, cars)
    if (hits.length && !first) first = `t=${((k + 1) / 20).toFixed(2)} s: ${hits.map((h) => h.join('&')).join(', ')}`
    count += hits.length
    const now = racePositions(sim, cars, starts)
    for (let i = 0; i < cars.length; i++) {
      for (let j = 0; j < cars.length; j++) if (before[i] < before[j] && now[i] > now[j]) overtakes++
    }
    before = now
    onSample?.((k + 1) / 20)
  }
  return { overlaps: count, firstOverlap: first, overtakes }
}
