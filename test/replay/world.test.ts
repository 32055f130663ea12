import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { snapshotWorld, restoreWorld } from '../../src/replay/world-snapshot'
import { decodeF64, encodeF64, encodeI32 } from '../../src/replay/codec'
import { buildScene, firstDifference, stateNumbers } from './scene'

const json = (v: unknown) => JSON.stringify(v)
/** Asserts two JSON texts are equal without printing megabytes: reports where they first differ. */
function sameText(a: string, b: string, what: string) {
  if (a === b) return
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  expect.fail(`${what}: texts differ at ${i}: …${a.slice(Math.max(0, i - 80), i + 40)}… vs …${b.slice(Math.max(0, i - 80), i + 40)}…`)
}
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v))

function scene() {
  const s = buildScene({ cars: 6, lidars: 3, obstacles: 3 })
  s.sim.stepMany(1 / 60, 90)
  return s
}

describe('whole-world snapshots', () => {
  it('round-trip exactly through JSON, and the run after a restore is bit-identical', () => {
    const { sim, cars, lidars, obstacles } = scene()
    sim.setPose(obstacles[0], [3, 4, 1])
    const snap = snapshotWorld(sim)
    expect(snap.paths.length).toBe(1) // six cars on one oval: one stored path
    const text = json(snap)
    sim.stepMany(1 / 60, 120)
    const after = stateNumbers(sim, cars, lidars)
    expect(json(snapshotWorld(sim)) !== text).toBe(true)
    restoreWorld(sim, JSON.parse(text))
    sameText(json(snapshotWorld(sim)), text, 'after restore')
    sim.stepMany(1 / 60, 120)
    const again = stateNumbers(sim, cars, lidars)
    expect(firstDifference(after, again)).toBe(-1)
    // A sim whose lidar or obstacle was built differently is refused, naming the entry.
    const odd = buildScene({ cars: 6, lidars: 3, obstacles: 3 })
    odd.sim.remove(odd.lidars[2])
    const l2 = odd.sim.addLidar({ offset: [0, 0, 3], pattern: { yawStart: 0, yawIncrement: 0.1, yawCount: 5, pitchStart: 0, pitchIncrement: 0, pitchCount: 1 }, rangeMin: 0.3, rangeMax: 60 })
    expect(l2).toBe(lidars[2])
    expect(() => restoreWorld(odd.sim, JSON.parse(text))).toThrow(/snap\.lidars\[2\]\.config/)
    // A second sim built by the same set-up code takes the snapshot and runs on identically.
    const other = buildScene({ cars: 6, lidars: 3, obstacles: 3 })
    restoreWorld(other.sim, JSON.parse(text))
    sameText(json(snapshotWorld(other.sim)), text, 'other sim')
    other.sim.stepMany(1 / 60, 120)
    expect(firstDifference(after, stateNumbers(other.sim, other.cars, other.lidars))).toBe(-1)
  })

  it('restores drivers that were cleared or replaced, and clears ones added since', () => {
    const { sim, cars, lidars } = scene()
    const snap = clone(snapshotWorld(sim))
    sim.stepMany(1 / 60, 60)
    const after = stateNumbers(sim, cars, lidars)
    restoreWorld(sim, snap)
    sim.clearAi(cars[1])
    sim.setAi(cars[2], [[0, 0], [100, 0]])
    restoreWorld(sim, snap)
    sameText(json(snapshotWorld(sim)), json(snap), 'drivers restored')
    sim.stepMany(1 / 60, 60)
    expect(firstDifference(after, stateNumbers(sim, cars, lidars))).toBe(-1)
    // Snapshot with no driver on car 3; a driver set since is cleared by the restore.
    sim.clearAi(cars[3])
    const noDriver = clone(snapshotWorld(sim))
    sim.setAi(cars[3], [[0, 0], [50, 0]])
    restoreWorld(sim, noDriver)
    expect(sim.aiStatus(cars[3])).toBe(null)
  })

  it('refuses hostile snapshots with a named TypeError/RangeError and changes nothing', () => {
    const { sim, cars, obstacles } = scene()
    const good = clone(snapshotWorld(sim))
    sim.stepMany(1 / 60, 30)
    const before = json(snapshotWorld(sim))
    const bad = (name: string, edit: (s: any) => unknown, pattern: RegExp) => {
      const s: any = clone(good)
      const r = edit(s)
      const arg = r === undefined ? s : r
      let err: unknown
      try { restoreWorld(sim, arg) } catch (e) { err = e }
      expect(err, name).toBeInstanceOf(Error)
      expect(err instanceof TypeError || err instanceof RangeError, `${name}: ${err}`).toBe(true)
      expect(String((err as Error).message), name).toMatch(pattern)
      sameText(json(snapshotWorld(sim)), before, `${name} changed the world`)
    }
    bad('not an object', () => 42, /snap must be an object/)
    bad('format', (s) => { s.format = 'pitlane-car' }, /snap\.format/)
    bad('version', (s) => { s.version = 2 }, /snap\.version/)
    bad('steps', (s) => { s.steps = -1 }, /snap\.steps/)
    bad('clock truncated', (s) => { s.clock = s.clock.slice(0, 12) }, /snap\.clock/)
    bad('clock NaN', (s) => { s.clock = encodeF64(new Float64Array([NaN, 0])) }, /snap\.clock/)
    bad('car missing', (s) => { s.cars.pop() }, /cars.*not in snap/)
    bad('car unknown', (s) => { s.cars[s.cars.length - 1].id = 9999 }, /missing: 9999/)
    bad('ids not ascending', (s) => { s.cars.reverse() }, /ids ascend/)
    bad('car state NaN', (s) => { s.cars[3].car.state.vx = null }, /snap\.cars\[3\]\.car: snapshot\.state\.vx/)
    bad('car steer out of range', (s) => { s.cars[4].car.input.steer = 3 }, /snap\.cars\[4\]\.car: snapshot\.input\.steer/)
    bad('car level', (s) => { s.cars[1].car.level = 'turbo' }, /snapshot\.level/)
    bad('driver seg', (s) => {
      const d = s.cars[2].driver
      const f = decodeF64(d.fields, 'f')
      f[0] = 1e6
      d.fields = encodeF64(f)
    }, /driver\.fields seg/)
    bad('driver fields short', (s) => { s.cars[2].driver.fields = encodeF64(new Float64Array(3)) }, /driver\.fields must hold/)
    bad('driver options', (s) => { s.cars[2].driver.options.maxSpeed = -5 }, /driver: options\.maxSpeed/)
    bad('driver path too short', (s) => { s.paths[s.cars[2].driver.path] = { x: encodeF64(new Float64Array([0])), y: encodeF64(new Float64Array([0])) } }, /driver: path must have at least/)
    bad('driver path index', (s) => { s.cars[2].driver.path = 7 }, /driver\.path must be an index into snap\.paths/)
    bad('path not finite', (s) => { s.paths[0].x = encodeF64(new Float64Array(decodeF64(s.paths[0].x, 'x').length).fill(NaN)) }, /snap\.paths\[0\] point 0 must be finite/)
    bad('path y truncated', (s) => { s.paths[0].y = s.paths[0].y.slice(0, 16) }, /snap\.paths\[0\]\.y/)
    bad('collider missing', (s) => { s.colliders.splice(0, 1) }, /colliders/)
    bad('collider pose', (s) => { s.colliders[s.colliders.length - 1].pose = encodeF64(new Float64Array(12).fill(Infinity)) }, /colliders\[\d+\]\.pose\[0\] must be finite/)
    bad('lidar accum', (s) => { const p = new Float64Array(25); s.lidars[0].pose = encodeF64(p.fill(-1)) }, /lidars\[0\]\.pose accum/)
    bad('lidar scan count', (s) => { s.lidars[1].scan.count += 1 }, /lidars\[1\]\.scan\.points must hold/)
    bad('lidar scan rays', (s) => { const sc = s.lidars[0].scan; sc.count = 1; sc.points = encodeF64(new Float64Array(3)); sc.distances = encodeF64(new Float64Array(1)); sc.rays = encodeI32(new Int32Array([1e6])) }, /casts \d+ rays/)
    bad('oversized', (s) => { s.cars = new Array(2 ** 21).fill(0) }, /oversized/)
    // __proto__ keys in JSON are own data properties: ignored, never reach a prototype.
    const proto = JSON.parse(json(good).replace('"format"', '"__proto__":{"polluted":1},"format"'))
    restoreWorld(sim, proto)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    sameText(json(snapshotWorld(sim)), json(good), '__proto__')
    void cars; void obstacles
  })

  it('fuzz: a mutated or truncated snapshot is either refused (named error, nothing changed) or leaves a finite world', () => {
    const { sim, cars, lidars } = scene()
    const good = clone(snapshotWorld(sim))
    const text = json(good)
    const hostile = fc.constantFrom<unknown>(NaN, Infinity, -Infinity, -0, 1e308, -1e308, 5e-324, '', 'x', null, true, [], {}, -1, 1.5, 2 ** 31, 1e6)
    fc.assert(fc.property(fc.nat(), hostile, fc.nat({ max: 3 }), (pick, value, mode) => {
      const s = clone(good)
      // collect paths to every leaf
      const leaves: [Record<string, unknown> | unknown[], string | number, string][] = []
      const walk = (o: unknown, path: string) => {
        if (o && typeof o === 'object') for (const k of Object.keys(o)) {
          const v = (o as Record<string, unknown>)[k]
          if (v && typeof v === 'object') walk(v, `${path}.${k}`)
          else leaves.push([o as Record<string, unknown>, k, `${path}.${k}`])
        }
      }
      walk(s, 'snap')
      const [parent, key, path] = leaves[pick % leaves.length]
      let arg: unknown = s
      if (mode === 0) (parent as Record<string, unknown>)[key] = value
      else if (mode === 1) delete (parent as Record<string, unknown>)[key]
      else if (mode === 2) { const v = (parent as Record<string, unknown>)[key]; if (typeof v === 'string') (parent as Record<string, unknown>)[key] = v.slice(0, Math.max(0, v.length - 4 * (1 + (pick % 3)))) ; else (parent as Record<string, unknown>)[key] = value }
      else { try { arg = JSON.parse(text.slice(0, pick % text.length)) } catch { arg = text.slice(0, pick % text.length) } }
      const before = json(snapshotWorld(sim))
      try {
        restoreWorld(sim, arg)
      } catch (e) {
        if (!(e instanceof TypeError || e instanceof RangeError)) return false
        if (!/snap|snapshot/.test((e as Error).message)) { console.log('unnamed', path, (e as Error).message); return false }
        return json(snapshotWorld(sim)) === before
      }
      // Accepted (a harmless edit): the world must still be finite and steppable.
      sim.step(1 / 60)
      const ok = stateNumbers(sim, cars, lidars).every(Number.isFinite)
      if (!ok) console.log('accepted and non-finite', path, value, mode)
      restoreWorld(sim, good)
      return ok
    }), { numRuns: 100 })
  })

  // Once a vehicle bug (decodeSnapshot accepted vx = -1e308, which then overflowed); fixed there.
  it('a car snapshot with an absurd finite state is refused, or the world stays finite', () => {
    const { sim, cars, lidars } = scene()
    const good: any = clone(snapshotWorld(sim))
    good.cars[0].car.state.vx = -1e308
    let refused = false
    try { restoreWorld(sim, good) } catch { refused = true }
    if (!refused) sim.step(1 / 60)
    expect(refused || stateNumbers(sim, cars, lidars).every(Number.isFinite)).toBe(true)
  })
})
