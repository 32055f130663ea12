// sim.restore(car, snap) with truncated, mutated and oversized car snapshots: refused with a named
// error and the car untouched, or (a harmless edit) accepted with a finite state.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createWorld } from 'bitecs'
import { createSim } from '../../src/index'
import { OVAL } from '../replay/scene'

describe('sim.restore with untrusted car snapshots', () => {
  it('fuzz: truncated, mutated and oversized snapshots', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ position: [0, -40], speed: 8 })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, OVAL, { closed: true })
    sim.stepMany(1 / 60, 60)
    const good = sim.snapshot(car)
    const text = JSON.stringify(good)
    const hostile = fc.constantFrom<unknown>(NaN, Infinity, -Infinity, -0, '-0', '0', '', null, true, [], {}, -1, 1.5, 2 ** 31, 1e6, 'singleTrack', 'fourWheel', 'frozen', 'x'.repeat(1e5), new Array(1e5).fill(0))
    let refused = 0, accepted = 0
    fc.assert(fc.property(fc.nat(), hostile, fc.nat({ max: 3 }), (pick, value, mode) => {
      const s = JSON.parse(text)
      const leaves: [Record<string, unknown>, string, string][] = []
      const walk = (o: Record<string, unknown>, path: string) => {
        for (const k of Object.keys(o)) {
          const v = o[k]
          leaves.push([o, k, `${path}.${k}`])
          if (v && typeof v === 'object') walk(v as Record<string, unknown>, `${path}.${k}`)
        }
      }
      walk(s, 'snapshot')
      const [parent, key, path] = leaves[pick % leaves.length]
      let arg: unknown = s
      if (mode === 0) parent[key] = value
      else if (mode === 1) delete parent[key]
      else if (mode === 2) parent[`extra${pick}`] = value
      else { try { arg = JSON.parse(text.slice(0, pick % text.length) + '}') } catch { arg = text.slice(0, pick % text.length) } }
      const before = JSON.stringify(sim.snapshot(car))
      try {
        sim.restore(car, arg)
      } catch (e) {
        refused++
        return (e instanceof TypeError || e instanceof RangeError) && /snap/.test((e as Error).message) && JSON.stringify(sim.snapshot(car)) === before
      }
      accepted++
      sim.step(1 / 60)
      const ok = Object.values(sim.carState(car)).flat().every((v) => typeof v !== 'number' || Number.isFinite(v))
      sim.restore(car, good)
      return ok
    }), { numRuns: 300 })
    console.log(`restore fuzz: ${refused} refused, ${accepted} accepted (harmless edits)`)
    expect(refused).toBeGreaterThan(100)
  })
})
