// Traffic in a race: fields with spread pace on a ~1.2 km circuit never overlap (a separating-axis
// test of every pair of chassis rectangles at 20 Hz), pass each other, and finish in pace order;
// under a LodController no car comes into view inside another.
import { describe, expect, it } from 'vitest'
import { LodController } from '../../src/index'
import { CIRCUIT_1200, field, order, run } from './traffic-field'
import { slotOnPath } from '../grid'

// 16 … 38 m/s, mixed round the grid
const maxSpeed = (i: number) => 16 + ((i * 5) % 12) * 2

/** The `k` fastest and slowest cars of `cars` (by maxSpeed). */
function extremes(cars: number[], k: number): { fastest: number[]; slowest: number[] } {
  const byPace = [...cars].sort((a, b) => maxSpeed(cars.indexOf(b)) - maxSpeed(cars.indexOf(a)))
  return { fastest: byPace.slice(0, k), slowest: byPace.slice(-k) }
}

describe('a race with traffic', () => {
  it('12 cars at singleTrack, width 4 m, 180 s: no overlap, at least 10 overtakes, the 4 fastest end ahead of the 4 slowest', () => {
    const { sim, cars, starts } = field({ count: 12, level: 'singleTrack', hz: 120, maxSpeed, ai: { width: 4 }, spread: 0.5 })
    const r = run(sim, cars, starts, 180)
    expect(r.firstOverlap).toBe('')
    expect(r.overlaps).toBe(0)
    expect(r.overtakes).toBeGreaterThanOrEqual(10)
    const places = order(sim, cars, starts), { fastest, slowest } = extremes(cars, 4)
    for (const f of fastest) for (const s of slowest) expect(places.indexOf(f)).toBeLessThan(places.indexOf(s))
    // without traffic the same field drives through itself
    const ghost = field({ count: 12, level: 'singleTrack', hz: 120, maxSpeed, ai: { traffic: 'ignore' }, spread: 0.5 })
    expect(run(ghost.sim, ghost.cars, ghost.starts, 60).overlaps).toBeGreaterThan(0)
  })

  it('6 cars at full level, width 4 m, 180 s: no overlap, overtakes, the 2 fastest end ahead of the 2 slowest', () => {
    const { sim, cars, starts } = field({ count: 6, level: 'full', maxSpeed, ai: { width: 4 }, spread: 0.25 })
    const r = run(sim, cars, starts, 180)
    expect(r.firstOverlap).toBe('')
    expect(r.overtakes).toBeGreaterThanOrEqual(4)
    const places = order(sim, cars, starts), { fastest, slowest } = extremes(cars, 2)
    for (const f of fastest) for (const s of slowest) expect(places.indexOf(f)).toBeLessThan(places.indexOf(s))
  })

  for (const width of [4, 0]) {
    it(`40 cars under a LodController (full, singleTrack, path beyond), width ${width}: no overlap at any level, none comes into view inside another`, () => {
      const { sim, cars, starts } = field({ count: 40, level: 'singleTrack', hz: 120, maxSpeed, ai: { width }, spread: 1 })
      // the focus a point on the circuit: every car comes into view there and leaves it again
      const p = slotOnPath(CIRCUIT_1200, 250, 1000)
      new LodController(sim, { singleTrackBeyond: 40, pathBeyond: 120, frozenBeyond: Infinity, singleTrackHz: 120 }).install({ focus: [p.x, p.y] })
      const levels = new Set<string>()
      let cameIntoView = 0
      let before = cars.map((c) => sim.getLod(c).level)
      const r = run(sim, cars, starts, 90, () => {
        const now = cars.map((c) => sim.getLod(c).level)
        now.forEach((l, i) => { levels.add(l); if (before[i] === 'path' && l !== 'path') cameIntoView++ })
        before = now
      })
      expect([...levels].sort()).toEqual(['full', 'path', 'singleTrack'])
      expect(cameIntoView).toBeGreaterThan(20)
      expect(r.firstOverlap).toBe('')
      if (width) expect(r.overtakes).toBeGreaterThan(10)
    })
  }
})
