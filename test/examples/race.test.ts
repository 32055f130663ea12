import { describe, expect, it } from 'vitest'
import { formatStandings, parseRaceArgs, raceCli, RACE_USAGE, runRace } from '../../examples/race/race'
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
    // values are checked at parse time, naming the flag
    expect(() => parseRaceArgs(['--cars', '0'])).toThrow(/^--cars must be an integer in \[1, 5000\], got 0$/)
    expect(() => parseRaceArgs(['--cars', '2.5'])).toThrow(/--cars/)
    expect(() => parseRaceArgs(['--seconds', '0'])).toThrow(/--seconds must be finite and > 0/)
    expect(() => parseRaceArgs(['--seed', '1.5'])).toThrow(/--seed must be an integer/)
    expect(() => parseRaceArgs(['--top', '0'])).toThrow(/--top must be an integer >= 1/)
    expect(() => parseRaceArgs(['--cars', ''])).toThrow(/--cars needs a number/)
    expect(parseRaceArgs(['--help'])).toEqual({ help: true })
  })

  it('as a CLI: --help on stdout (exit 0), a bad value in one line on stderr (exit 2), the standings (exit 0)', () => {
    const run = (...argv: string[]) => {
      let out = '', err = ''
      const code = raceCli(argv, { out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (err += t) } })
      return { code, out, err }
    }
    const help = run('--help')
    expect(help).toEqual({ code: 0, out: `${RACE_USAGE}\n`, err: '' })
    expect(help.out).toMatch(/--cars N/)
    for (const argv of [['--cars', '0'], ['--laps', '3'], ['--level', 'fast'], ['--seconds']]) {
      const bad = run(...argv)
      expect(bad.code).toBe(2)
      expect(bad.out).toBe('')
      expect(bad.err).toMatch(/^pitlane race: (unknown flag )?--\S+ .+\n$/) // one line naming the flag, no stack
      expect(bad.err.split('\n')).toHaveLength(2)
    }
    const ok = run('--cars', '3', '--seconds', '2', '--top', '2')
    expect(ok.code).toBe(0)
    expect(ok.err).toBe('pitlane race: 3 cars, 2 s, seed 1\n')
    expect(ok.out.trimEnd().split('\n')).toHaveLength(5) // header, two rows, "… 1 more", the cost line
  })
})
