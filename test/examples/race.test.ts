import { describe, expect, it } from 'vitest'
import { formatStandings, parseRaceArgs, runRace } from '../../examples/race/race'
import { createTrack } from '../../examples/track'

const track = createTrack()

describe('headless race', () => {
  it('is deterministic per seed, times real laps and prints its table', () => {
    const a = runRace({ cars: 5, seconds: 120, seed: 5, track })
    const b = runRace({ cars: 5, seconds: 120, seed: 5, track })
    expect(b.standings).toEqual(a.standings)
    const table = formatStandings(a)
    console.log(table)
    expect(table.split("\n")).toHaveLength(5 + 2)
    expect(table).toMatch(/sim cost \d+\.\d{3} ms per step \(\d+\.\d{3} ms CPU\)/)
    // Standings: laps first, then distance.
    for (let i = 1; i < a.standings.length; i++) {
      const p = a.standings[i - 1], q = a.standings[i]
      expect(p.laps > q.laps || (p.laps === q.laps && p.distance >= q.distance)).toBe(true)
    }
    // Physical sense: a timed lap covers the lap at an average speed under the driver's top speed
    // and over a crawl; the leader did at least one.
    expect(a.standings[0].laps).toBeGreaterThanOrEqual(1)
    for (const s of a.standings) {
      if (s.laps === 0) continue
      const average = track.length / s.bestLap
      expect(average).toBeLessThan(s.maxSpeed * 1.1) // a tow may add a little
      expect(average).toBeGreaterThan(15)
      // distance driven agrees with the laps counted (started just behind the line)
      expect(s.distance).toBeGreaterThan(s.laps * track.length)
      expect(s.distance).toBeLessThan((s.laps + 1) * track.length + 100)
    }
  })

  it('gives another race for another seed', () => {
    const a = runRace({ cars: 6, seconds: 20, seed: 5, track })
    const c = runRace({ cars: 6, seconds: 20, seed: 6, track })
    expect(c.standings.map((s) => s.maxSpeed)).not.toEqual(a.standings.map((s) => s.maxSpeed))
  })

  it('rejects bad options and flags', () => {
    expect(() => runRace({ cars: 0 })).toThrow(RangeError)
    expect(() => runRace({ seconds: -1 })).toThrow(RangeError)
    expect(() => parseRaceArgs(['--cars'])).toThrow(RangeError)
    expect(() => parseRaceArgs(['--laps', '3'])).toThrow(RangeError)
    expect(parseRaceArgs(['--cars', '200', '--seconds', '120', '--seed', '3'])).toEqual({ cars: 200, seconds: 120, seed: 3 })
  })
})
