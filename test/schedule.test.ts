import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSchedule } from '../systems/schedule'
import { createSim } from '../src/index'

describe('schedule', () => {
  it('runs phases in order and honours before/after within a phase', () => {
    const s = createSchedule()
    const log: string[] = []
    const sys = (n: string) => (w: any) => { log.push(n); return w }
    s.add(sys('sensor'), { name: 'sensor', phase: 'sensors' })
    s.add(sys('b'), { name: 'b', phase: 'vehicle' })
    s.add(sys('a'), { name: 'a', phase: 'vehicle', before: 'b' })
    s.add(sys('c'), { name: 'c', phase: 'vehicle', after: 'b' })
    s.add(sys('lod'), { name: 'lod', phase: 'lod' })
    s.run({} as any)
    expect(log).toEqual(['lod', 'a', 'b', 'c', 'sensor'])
    expect(s.names()).toEqual(['lod', 'a', 'b', 'c', 'sensor'])
  })

  it('refuses unknown phases, duplicate names, unknown references, contradictions and cycles, changing nothing', () => {
    const s = createSchedule()
    const f = (w: any) => w
    s.add(f, { name: 'x', phase: 'input' })
    s.add(f, { name: 'y', phase: 'input', after: 'x' })
    expect(() => s.add(f, { name: 'z', phase: 'physics' as any })).toThrow(/phase/)
    expect(() => s.add(f, { name: 'x', phase: 'input' })).toThrow(/already/)
    expect(() => s.add(f, { name: 'z', phase: 'input', before: 'nope' })).toThrow(/nope/)
    expect(() => s.add(f, { name: 'z', phase: 'lod', after: 'x' })).toThrow(/later phase/)
    expect(() => s.add(f, { name: 'z', phase: 'input', before: 'x', after: 'y' })).toThrow(/cycle/)
    expect(s.names()).toEqual(['x', 'y'])
    expect(s.remove('x')).toBe(true)
    expect(s.remove('x')).toBe(false)
    expect(s.names()).toEqual(['y'])
  })
})

describe('sim.step', () => {
  it('validates dt and n, and stepMany runs the schedule n times', () => {
    const sim = createSim(createWorld())
    let runs = 0
    sim.schedule.add((w) => { runs++; return w }, { name: 'count', phase: 'input' })
    expect(() => sim.step(0)).toThrow(RangeError)
    expect(() => sim.step(NaN)).toThrow(/dt/)
    expect(() => sim.stepMany(1 / 60, 1.5)).toThrow(/n/)
    expect(() => sim.stepMany(1 / 60, -1)).toThrow(RangeError)
    expect(runs).toBe(0)
    sim.stepMany(1 / 60, 5)
    sim.step(1 / 60)
    expect(runs).toBe(6)
  })
})
