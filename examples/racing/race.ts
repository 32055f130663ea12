/**
 * The race: phases (grid → lights → racing → finished), each car's distance along the circuit,
 * live standings with the gap to the leader, and the finish. Laps and lap times come from the lap
 * timer (addLapTimer); distance comes from projecting each car on the centreline
 * near where it was last step, unwrapped so it keeps growing lap after lap.
 */
import type { LapTimer } from '../../src/index'
import type { RaceStanding } from '../../src/colyseus/index'
import type { Track } from '../track'
import type { Entrant } from './grid'

/** The race's phase, as window.pitlaneDemo.race.phase reports it. */
export type RacePhase = 'grid' | 'lights' | 'racing' | 'finished'

/** One row of the standings: the shape a multiplayer room sends its clients too. */
export type Standing = RaceStanding

/** Options of createRace. */
export interface RaceOptions {
  track: Track
  entrants: readonly Entrant[]
  laps: number
  timer: LapTimer
  /** The sim clock, s. */
  now: () => number
  /** Seed of the random hold before the lights go out. */
  seed: number
  /** Called once when the lights go out. */
  onStart: () => void
  /** Ground position of a car, m. */
  x: (car: number) => number
  y: (car: number) => number
}

/** The race state, updated after every sim step. */
export interface Race {
  readonly phase: RacePhase
  /** Red lights lit (0..5). */
  readonly lights: number
  /** Race laps. */
  readonly laps: number
  /** Sim time of the lights going out, s (NaN before). */
  readonly startTime: number
  /** Seconds since the lights went out (0 before). */
  raceTime(): number
  /** Follows every car along the circuit and moves the phase on; call after each sim step. */
  update(): void
  /** The standings, leader first. */
  standings(): Standing[]
  /** The standing of one car. */
  standingOf(car: number): Standing | undefined
}

/** Seconds on the grid before the first light, and between lights. */
const GRID_TIME = 2
const LIGHT_TIME = 1
/** Checkpoint spacing for the gaps, m. */
const CHECKPOINT = 10
/** The race ends this long after the winner's flag even if the player is still out there, s. */
const FINISH_WINDOW = 30

/** Creates the race over `entrants`, starting on the grid now. */
export function createRace(o: RaceOptions): Race {
  const { track, entrants, timer } = o
  const L = track.length
  const n = track.count
  const cx = track.centre
  const t0 = o.now()
  // the hold after the fifth light: 0.6–1.6 s, the same for a seed
  const hold = 0.6 + ((Math.imul(o.seed + 1, 2654435761) >>> 0) / 4294967296)
  const lightsOut = t0 + GRID_TIME + 5 * LIGHT_TIME + hold

  const count = entrants.length
  const seg = new Int32Array(count)
  const along = new Float64Array(count) // s on the centreline, [0, L)
  const distance = new Float64Array(count)
  const prevDistance = new Float64Array(count)
  const finishAt = new Float64Array(count).fill(NaN)
  const passed: Float64Array[] = [] // sim time each checkpoint was reached, per car
  const reached = new Int32Array(count)
  let phase: RacePhase = 'grid'
  let startTime = NaN
  let winnerAt = NaN
  let prevT = t0

  /** Nearest centreline segment to (x, y) within `reach` segments of `hint` (all when reach < 0); writes along[i]. */
  function project(i: number, x: number, y: number, reach: number): number {
    let best = Infinity, bestSeg = 0, bestT = 0
    const from = reach < 0 ? 0 : seg[i]! - reach, to = reach < 0 ? n - 1 : seg[i]! + reach
    for (let k = from; k <= to; k++) {
      const a = ((k % n) + n) % n, b = (a + 1) % n
      const ax = cx[2 * a]!, ay = cx[2 * a + 1]!, dx = cx[2 * b]! - ax, dy = cx[2 * b + 1]! - ay
      let t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
      t = t < 0 ? 0 : t > 1 ? 1 : t
      const ex = ax + dx * t - x, ey = ay + dy * t - y, d = ex * ex + ey * ey
      if (d < best) { best = d; bestSeg = a; bestT = t }
    }
    seg[i] = bestSeg
    along[i] = (bestSeg + bestT) * track.spacing
    return best
  }

  function follow(i: number, x: number, y: number): void {
    const s0 = along[i]!
    const far = project(i, x, y, 6)
    // a car put somewhere else (reset, or a big slide) is found again by a full search
    if (far > (track.halfWidth + 25) ** 2) project(i, x, y, -1)
    let ds = along[i]! - s0
    if (ds > L / 2) ds -= L
    else if (ds < -L / 2) ds += L
    distance[i]! += ds
  }

  function stamp(i: number, t: number, tPrev: number): void {
    const d = distance[i]!, d0 = prevDistance[i]!
    let list = passed[i]
    while (d >= reached[i]! * CHECKPOINT) {
      const k = reached[i]!
      if (!list || k >= list.length) {
        const grown = new Float64Array(Math.max(64, (list?.length ?? 0) * 2))
        if (list) grown.set(list)
        list = passed[i] = grown
      }
      const mark = k * CHECKPOINT
      list[k] = d > d0 ? tPrev + ((t - tPrev) * (mark - d0)) / (d - d0) : t
      reached[i] = k + 1
    }
  }

  for (let i = 0; i < count; i++) {
    project(i, o.x(entrants[i]!.car), o.y(entrants[i]!.car), -1)
    distance[i] = along[i]! > L / 2 ? along[i]! - L : along[i]!
    prevDistance[i] = distance[i]!
  }
  const player = entrants.findIndex((e) => e.player)

  const race: Race = {
    get phase() { return phase },
    get lights() {
      if (phase === 'grid' || phase === 'racing' || phase === 'finished') return 0
      return Math.min(5, 1 + Math.floor((o.now() - t0 - GRID_TIME) / LIGHT_TIME))
    },
    laps: o.laps,
    get startTime() { return startTime },
    raceTime: () => (Number.isFinite(startTime) ? o.now() - startTime : 0),
    update() {
      const t = o.now()
      if (phase === 'grid' && t >= t0 + GRID_TIME) phase = 'lights'
      if (phase === 'lights' && t >= lightsOut) {
        phase = 'racing'
        startTime = t
        o.onStart()
      }
      for (let i = 0; i < count; i++) {
        const car = entrants[i]!.car
        prevDistance[i] = distance[i]!
        follow(i, o.x(car), o.y(car))
        if (Number.isFinite(startTime)) stamp(i, t, prevT)
        if (finishAt[i] === finishAt[i] || !Number.isFinite(startTime)) continue
        // the flag: the race distance done, or any crossing after the winner's
        const crossed = timer.lastCrossing(car)
        if (timer.laps(car) >= o.laps || (winnerAt === winnerAt && crossed > winnerAt)) {
          finishAt[i] = crossed
          if (!(winnerAt <= crossed)) winnerAt = crossed
        }
      }
      prevT = t
      if (phase === 'racing') {
        const playerDone = player >= 0 && finishAt[player] === finishAt[player]
        let allDone = true
        for (let i = 0; i < count; i++) if (finishAt[i] !== finishAt[i]) { allDone = false; break }
        if (playerDone || allDone || (winnerAt === winnerAt && t - winnerAt > FINISH_WINDOW)) phase = 'finished'
      }
    },
    standings() {
      const order: number[] = []
      for (let i = 0; i < count; i++) order.push(i)
      order.sort((a, b) => {
        const fa = finishAt[a]!, fb = finishAt[b]!
        if (fa === fa || fb === fb) {
          if (fa === fa && fb === fb) return fa - fb
          return fa === fa ? -1 : 1
        }
        return distance[b]! - distance[a]! || a - b
      })
      const lead = order[0]!
      return order.map((i, k) => {
        const car = entrants[i]!.car
        const best = timer.bestLap(car), last = timer.lastLap(car)
        const lapsDown = Math.max(0, Math.floor((distance[lead]! - distance[i]!) / L))
        let gap: number | null = null
        if (Number.isFinite(startTime)) {
          if (k === 0) gap = 0
          else if (finishAt[i] === finishAt[i] && finishAt[lead] === finishAt[lead]) gap = finishAt[i]! - finishAt[lead]!
          else {
            const j = reached[i]! - 1
            const mine = passed[i], theirs = passed[lead]
            gap = j >= 0 && mine && theirs && j < reached[lead]! ? mine[j]! - theirs[j]! : null
          }
        }
        return {
          car, position: k + 1, laps: timer.laps(car),
          bestLap: Number.isFinite(best) ? best : null, lastLap: Number.isFinite(last) ? last : null,
          gap, lapsDown, finished: finishAt[i] === finishAt[i],
          finishTime: finishAt[i] === finishAt[i] ? finishAt[i]! - startTime : null,
          distance: distance[i]!,
        }
      })
    },
    standingOf(car) {
      return race.standings().find((s) => s.car === car)
    },
  }
  return race
}
