/** The racing demo's settings from the URL: the LOD bands nest, a band edge may be never, and a query round-trips. */
import { describe, expect, it } from 'vitest'
import { DEFAULTS, readSettings, settingsQuery } from '../../examples/racing/settings'

describe('demo settings', () => {
  it('race far cars at the path level by default, none frozen', () => {
    expect(readSettings('')).toMatchObject({ singleTrackBeyond: 30, pathBeyond: 300, frozenBeyond: Infinity })
  })
  it('read the path and frozen edges, never for none, and keep the bands nested', () => {
    expect(readSettings('?path=never').pathBeyond).toBe(Infinity)
    expect(readSettings('?path=120&frozen=500')).toMatchObject({ pathBeyond: 120, frozenBeyond: 500 })
    expect(readSettings('?st=50&path=20&frozen=10')).toMatchObject({ singleTrackBeyond: 50, pathBeyond: 50, frozenBeyond: 50 })
    expect(readSettings('?path=abc').pathBeyond).toBe(300)
  })
  it('read the resolution as a scale in [0.25, 2] or auto', () => {
    expect(readSettings('').resolution).toBe('auto')
    expect(readSettings('?res=0.75').resolution).toBe(0.75)
    expect(readSettings('?res=9').resolution).toBe(2)
    expect(readSettings('?res=abc').resolution).toBe('auto')
    expect(readSettings('?res=auto').resolution).toBe('auto')
  })
  it('write only what differs from the defaults, and read it back', () => {
    expect(settingsQuery(DEFAULTS)).toBe('')
    expect(settingsQuery({ ...DEFAULTS, pathBeyond: Infinity })).toBe('?path=never')
    expect(settingsQuery({ ...DEFAULTS, frozenBeyond: 800 })).toBe('?frozen=800')
    for (const s of [{ ...DEFAULTS, pathBeyond: Infinity }, { ...DEFAULTS, pathBeyond: 150, frozenBeyond: 900, cars: 40 }, { ...DEFAULTS, resolution: 0.5 }]) expect(readSettings(settingsQuery(s))).toEqual(s)
  })
})
