/**
 * The race report on the wire: the standings as rows of integers (times in ms, distance in dm,
 * -1 for none), a few hundred bytes for 20 cars, so two reports a second stay far inside a player's
 * byte budget. reportRace writes it on the server, readReport turns it back into a RaceReport.
 */
import type { RacePhase, RaceReport, RaceStanding, SceneRace } from './types'

/** A report as sent: [phase, lights, raceTime ms, laps, rows (car, laps, best, last, gap, finish, distance, laps down per car), players]. */
export type WireReport = [RacePhase, number, number, number, number[], Record<number, string>]

const FIELDS = 8
const ms = (t: number | null) => (t === null ? -1 : Math.max(0, Math.round(t * 1000)))
const s = (t: number) => (t < 0 ? null : t / 1000)

/** The wire report of `race` (null: still waiting for players). */
export function reportRace(race: SceneRace | null, laps: number, players: Record<number, string>): WireReport {
  const rows: number[] = []
  if (race) {
    for (const st of race.standings()) rows.push(st.car, st.laps, ms(st.bestLap), ms(st.lastLap), ms(st.gap), ms(st.finishTime), Math.round(st.distance * 10), st.lapsDown)
  }
  return [race ? race.phase : 'waiting', race ? race.lights : 0, race ? Math.round(race.raceTime() * 1000) : 0, laps, rows, players]
}

const PHASES = new Set<RacePhase>(['waiting', 'grid', 'lights', 'racing', 'finished'])

/** A RaceReport from a wire report; throws a RangeError when it is not one. */
export function readReport(wire: unknown): RaceReport {
  if (!Array.isArray(wire) || wire.length !== 6 || !PHASES.has(wire[0]) || !Array.isArray(wire[4]) || wire[4].length % FIELDS !== 0) throw new RangeError('not a race report')
  const [phase, lights, raceTime, laps, rows, players] = wire as WireReport
  const standings: RaceStanding[] = []
  for (let i = 0; i < rows.length; i += FIELDS) {
    standings.push({
      car: rows[i], position: i / FIELDS + 1, laps: rows[i + 1],
      bestLap: s(rows[i + 2]), lastLap: s(rows[i + 3]), gap: s(rows[i + 4]), lapsDown: rows[i + 7],
      finished: rows[i + 5] >= 0, finishTime: s(rows[i + 5]), distance: rows[i + 6] / 10,
    })
  }
  return { phase, lights, raceTime: raceTime / 1000, laps, standings, players: { ...players } }
}
