// aiStatus.distance: measured along the driven line from where setAi put the car (0 at the start,
// never a lap ahead), laps counted with it, at every level, across level switches and restores.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createPolyline, createSim, nearestOnPath, restoreWorld, snapshotWorld, stadiumPath, type Sim } from '../../src/index'

const DT = 1 / 60
const OVAL = stadiumPath(200, 50, 2) // starts at (-100, -50) heading +x
const CENTRE = createPolyline(OVAL, true)
type Level = 'full' | 'singleTrack' | 'path'

function carAtStart(sim: Sim, level: Level, lateralOffset: number, maxSpeed = 25): number {
  const car = sim.addCar({ position: [-100, -50], heading: 0, speed: 10, lod: level === 'full' ? 'full' : 'singleTrack' })
  sim.setInput(car, { gear: 1 })
  sim.setAi(car, OVAL, { closed: true, lateralOffset, maxSpeed })
  if (level === 'path') sim.setLod(car, 'path')
  return car
}

describe('aiStatus.distance', () => {
  it('is 0 right after setAi at every level and offset (a car at the first point on a right offset is not a lap ahead); laps follow it', () => {
    for (const level of ['full', 'singleTrack', 'path'] as const) {
      const sim = createSim(createWorld())
      const cars = [-1, 0, 1].map((off) => carAtStart(sim, level, off))
      for (const car of cars) expect(sim.aiStatus(car)).toMatchObject({ distance: 0, laps: 0 })
      const L = cars.map((car) => sim.aiPath(car)!.length)
      const last = cars.map(() => 0)
      let back = 0, over = 0, lapsWrong = 0
      for (let k = 0; k < 60 * 45; k++) {
        sim.step(DT)
        cars.forEach((car, i) => {
          const st = sim.aiStatus(car)!, v = sim.carState(car).speed
          // each step adds about what the car drove: no lap's jump, no going back
          back = Math.max(back, last[i] - st.distance)
          over = Math.max(over, st.distance - last[i] - Math.abs(v) * DT)
          if (st.laps !== Math.floor(st.distance / L[i])) lapsWrong++
          last[i] = st.distance
        })
      }
      expect(back, level).toBeLessThan(0.05)
      expect(over, level).toBeLessThan(0.2)
      expect(lapsWrong, level).toBe(0)
      for (const car of cars) expect(sim.aiStatus(car)!.laps, level).toBe(1)
    }
  })

  it('ranks cars as they race: the order by distance is the order of their progress round the track, across level switches and a restore', () => {
    const sim = createSim(createWorld())
    const offsets = [-1, 0, 1, -1, 0, 1, 1, -1]
    const speeds = [14, 15.5, 17, 19, 21, 23, 25, 27]
    const cars = offsets.map((off, i) => carAtStart(sim, 'singleTrack', off, speeds[i]))
    // true progress: the car's position on the centreline, unwrapped step by step
    const progress = cars.map(() => 0), lastS = cars.map((car) => nearestOnPath(CENTRE, sim.carState(car).position[0], sim.carState(car).position[1]).s)
    const levels: Level[] = ['singleTrack', 'path', 'full', 'path', 'singleTrack']
    let snap: ReturnType<typeof snapshotWorld> | undefined, atSnap: number[] = []
    for (let k = 0; k < 60 * 100; k++) {
      if (k % 600 === 0) cars.forEach((car, i) => sim.setLod(car, levels[(i + k / 600) % levels.length]))
      if (k === 3000) { snap = snapshotWorld(sim); atSnap = cars.map((car) => sim.aiStatus(car)!.distance) }
      sim.step(DT)
      cars.forEach((car, i) => {
        const p = sim.carState(car).position, s = nearestOnPath(CENTRE, p[0], p[1]).s
        let ds = s - lastS[i]
        if (ds > CENTRE.length / 2) ds -= CENTRE.length
        else if (ds < -CENTRE.length / 2) ds += CENTRE.length
        progress[i] += ds
        lastS[i] = s
      })
    }
    const distance = cars.map((car) => sim.aiStatus(car)!.distance)
    // a car's distance is its own line's: against the centreline it differs by the offset's share of each bend
    for (let i = 0; i < cars.length; i++) expect(Math.abs(distance[i] - progress[i])).toBeLessThan(2 * Math.PI * Math.abs(offsets[i]) * (progress[i] / CENTRE.length + 1) + 2)
    let pairs = 0
    for (let i = 0; i < cars.length; i++) {
      for (let j = i + 1; j < cars.length; j++) {
        const margin = 2 * Math.PI * Math.abs(offsets[i] - offsets[j]) * (Math.max(progress[i], progress[j]) / CENTRE.length + 1) + 2
        if (Math.abs(progress[i] - progress[j]) <= margin) continue
        pairs++
        expect(Math.sign(distance[i] - distance[j]), `cars ${i} and ${j}`).toBe(Math.sign(progress[i] - progress[j]))
      }
    }
    expect(pairs).toBeGreaterThanOrEqual(20) // (of 28: the field spreads out)
    restoreWorld(sim, snap!)
    expect(cars.map((car) => sim.aiStatus(car)!.distance)).toEqual(atSnap)
  })
})
