// The room's options (they come from clients: anything may be in them) and the race report's wire format.
import { describe, expect, it } from 'vitest'
import { playerName, resolveRoomOptions } from '../../src/colyseus/options'
import { readReport, reportRace } from '../../src/colyseus/report'
import type { SceneRace } from '../../src/colyseus/index'

describe('room options', () => {
  it('fills the defaults', () => {
    const o = resolveRoomOptions(undefined)
    expect(o).toMatchObject({ cars: 20, maxClients: 4, laps: 3, wait: 10, reconnect: 20, snapshotRate: 20 })
    expect(Number.isInteger(o.seed)).toBe(true)
    expect(resolveRoomOptions({ cars: 6, maxClients: 6, seed: 3, snapshotRate: 30 })).toMatchObject({ cars: 6, maxClients: 6, seed: 3, snapshotRate: 30 })
  })

  it('refuses unknown keys, wrong types and out-of-range values, naming the option', () => {
    expect(() => resolveRoomOptions({ carz: 3 })).toThrow(/unknown room option 'carz'/)
    expect(() => resolveRoomOptions({ cars: 5000 })).toThrow(RangeError)
    expect(() => resolveRoomOptions({ cars: '20' })).toThrow(/options.cars/)
    expect(() => resolveRoomOptions({ cars: 4, maxClients: 5 })).toThrow(/options.maxClients/)
    expect(() => resolveRoomOptions({ wait: NaN })).toThrow(/options.wait/)
    expect(() => resolveRoomOptions({ reconnect: -1 })).toThrow(/options.reconnect/)
    expect(() => resolveRoomOptions({ snapshotRate: 25 })).toThrow(/options.snapshotRate/)
    expect(() => resolveRoomOptions([1])).toThrow(TypeError)
    expect(() => playerName({ name: 'x'.repeat(13) }, 'ALO')).toThrow(/options.name/)
    expect(() => playerName({ name: '<script>' }, 'ALO')).toThrow(/options.name/)
    expect(playerName({ name: 'Ann B' }, 'ALO')).toBe('Ann B')
    expect(playerName({}, 'ALO')).toBe('ALO')
  })
})

describe('race report', () => {
  it('round-trips the standings (times to the ms, distance to the dm)', () => {
    const race: SceneRace = {
      phase: 'racing', lights: 0, raceTime: () => 12.3456, update() {},
      standings: () => [
        { car: 7, position: 1, laps: 2, bestLap: 61.2344, lastLap: 62.5, gap: 0, lapsDown: 0, finished: false, finishTime: null, distance: 1234.56 },
        { car: 3, position: 2, laps: 1, bestLap: null, lastLap: null, gap: null, lapsDown: 1, finished: false, finishTime: null, distance: -12.34 },
      ],
    }
    const r = readReport(JSON.parse(JSON.stringify(reportRace(race, 3, { 7: 'Ann' }))))
    expect(r).toMatchObject({ phase: 'racing', lights: 0, raceTime: 12.346, laps: 3, players: { 7: 'Ann' } })
    expect(r.standings[0]).toEqual({ car: 7, position: 1, laps: 2, bestLap: 61.234, lastLap: 62.5, gap: 0, lapsDown: 0, finished: false, finishTime: null, distance: 1234.6 })
    expect(r.standings[1]).toMatchObject({ car: 3, position: 2, bestLap: null, gap: null, lapsDown: 1, distance: -12.3 })
    expect(readReport(reportRace(null, 3, {})).phase).toBe('waiting')
  })

  it('refuses what is not a report', () => {
    for (const bad of [null, 'x', [], ['racing', 0, 0, 3, [1, 2], {}], ['flying', 0, 0, 3, [], {}]]) expect(() => readReport(bad)).toThrow(RangeError)
  })
})
