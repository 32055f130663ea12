import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { LodController } from '../../src/index'
import { createReplayRecorder } from '../../src/replay/recorder'
import { createReplayPlayer } from '../../src/replay/player'
import { loadReplay, replayChecksum, type ReplayData } from '../../src/replay/format'
import { decodeF64, encodeF64, encodeI32, decodeI32 } from '../../src/replay/codec'
import { snapshotWorld } from '../../src/replay/world-snapshot'
import { canonicalJson } from '../../src/replay/checksum'
import { buildScene, firstDifference, OVAL, rng, stateNumbers } from './scene'

/** The scene with car 5 driven by the "user" (no driver). */
function setup() {
  const s = buildScene({ cars: 6, lidars: 3, obstacles: 3 })
  s.sim.clearAi(s.cars[5])
  return s
}


const STEPS = 480

/** Records a run with user inputs, a LodController and a manual LOD switch; returns the data and reference states. */
function record() {
  const { sim, cars, lidars } = setup()
  new LodController(sim, { singleTrackBeyond: 40, frozenBeyond: 90, hysteresis: 5, singleTrackHz: 240 }).install({ focus: cars[0] })
  const rec = createReplayRecorder(sim, { keyframeEvery: 100 })
  const rand = rng(7)
  const states: number[][] = [stateNumbers(sim, cars, lidars)]
  const levels = new Set<string>()
  for (let k = 0; k < STEPS; k++) {
    if (k % 3 === 0) sim.setInput(cars[5], { steer: rand() * 2 - 1, throttle: rand(), brake: k % 50 < 5 ? rand() : 0, gear: 1 })
    if (k === 130) sim.setLod(cars[2], 'frozen')
    if (k === 170) sim.setInput(cars[5], { handbrake: 0.5, clutch: 0.25 })
    sim.step(k % 7 === 3 ? 1 / 30 : 1 / 60)
    for (const c of cars) levels.add(`${c}:${sim.getLod(c).level}`)
    states.push(stateNumbers(sim, cars, lidars))
  }
  expect(rec.steps).toBe(STEPS)
  expect(rec.stopped).toBe(null)
  expect(levels.size).toBeGreaterThan(cars.length) // the controller did switch levels
  return { data: JSON.parse(JSON.stringify(rec.save())) as ReplayData, states, rec, sim }
}

function expectSame(a: number[], b: number[], what: string) {
  const at = firstDifference(a, b)
  expect(at, `${what}: first difference at ${at}: ${a[at]} vs ${b[at]}`).toBe(-1)
}

describe('replays', () => {
  const { data, states } = record()

  it('reproduce the recorded run bit for bit in a fresh sim set up the same way, and seek', () => {
    const { sim, cars, lidars } = setup()
    const player = createReplayPlayer(sim, data)
    expect(player.steps).toBe(STEPS)
    player.seek(0)
    expectSame(stateNumbers(sim, cars, lidars), states[0], 'step 0')
    expect(player.advance(STEPS + 5)).toBe(STEPS)
    expectSame(stateNumbers(sim, cars, lidars), states[STEPS], 'end')
    for (const k of [250, 37, 100, 399, STEPS, 0, 101]) {
      player.seek(k)
      expect(player.position).toBe(k)
      expectSame(stateNumbers(sim, cars, lidars), states[k], `seek ${k}`)
    }
    player.advance(10)
    expectSame(stateNumbers(sim, cars, lidars), states[111], 'seek 101 + 10')
    // Not vacuous: one recorded input changed (re-signed) gives a different run.
    const edited = JSON.parse(JSON.stringify(data))
    const v = decodeF64(edited.events.value, 'v')
    const fields = decodeI32(edited.events.field, 'f')
    const i0 = fields.findIndex((f) => f === 1) // a throttle change
    v[i0] = v[i0] * 0.5
    edited.events.value = encodeF64(v)
    edited.checksum = replayChecksum(edited)
    const p2 = createReplayPlayer(sim, edited)
    p2.seek(0)
    p2.advance(STEPS)
    expect(firstDifference(stateNumbers(sim, cars, lidars), states[STEPS])).not.toBe(-1)
    // The replay is compact: input changes, not a record per car per step.
    expect(data.events.count).toBeLessThan(STEPS * 6)
    console.log(`replay: ${STEPS} steps of 6 cars, ${data.events.count} events, ${data.keyframes.length} keyframes, ${JSON.stringify(data).length} bytes of JSON`)
    expect(data.keyframes.map((k) => k.step)).toEqual([0, 100, 200, 300, 400])
  })

  it('keyframe() after a change that is not an input (setAi, setPose) keeps the replay exact', () => {
    const { sim, cars, lidars, obstacles } = setup()
    const rec = createReplayRecorder(sim, { keyframeEvery: 1000 })
    sim.stepMany(1 / 60, 50)
    sim.setAi(cars[5], OVAL, { closed: true, maxSpeed: 9 })
    sim.setPose(obstacles[0], [10, 10, 1])
    rec.keyframe()
    sim.stepMany(1 / 60, 70)
    const end = stateNumbers(sim, cars, lidars)
    const data = JSON.parse(JSON.stringify(rec.save()))
    expect(data.keyframes.map((k: { step: number }) => k.step)).toEqual([0, 50])
    const other = setup()
    const player = createReplayPlayer(other.sim, data)
    player.seek(120)
    expectSame(stateNumbers(other.sim, other.cars, other.lidars), end, 'after the keyframe')
  })

  it('stops recording (keeping what it has) when the set of cars changes', () => {
    const { sim } = setup()
    const rec = createReplayRecorder(sim)
    sim.stepMany(1 / 60, 5)
    sim.addCar({ position: [0, 0] })
    sim.stepMany(1 / 60, 5)
    expect(rec.steps).toBe(5)
    expect(rec.stopped).toMatch(/set of cars changed before step 5/)
    expect(loadReplay(rec.save()).steps).toBe(5)
    expect(sim.schedule.names().some((n) => n.startsWith('replay-'))).toBe(false)
    expect(() => createReplayRecorder(sim, { keyframeEvery: 0 })).toThrow(/options\.keyframeEvery/)
    expect(() => createReplayRecorder({} as never)).toThrow(/sim/)
  })

  it('refuses truncated, mutated and oversized replays with a clear error, changing nothing', () => {
    const { sim } = setup()
    sim.stepMany(1 / 60, 3)
    const before = JSON.stringify(snapshotWorld(sim))
    const resign = (d: any) => { d.checksum = replayChecksum(d); return d }
    const cases: [string, (d: any) => unknown, RegExp][] = [
      ['not an object', () => 'replay', /replay must be an object/],
      ['format', (d) => { d.format = 'x' }, /replay\.format/],
      ['version', (d) => { d.version = 9 }, /replay\.version/],
      ['truncated events', (d) => { d.events.value = d.events.value.slice(0, -8) }, /checksum does not match/],
      ['edited dt', (d) => { d.dt = encodeF64(new Float64Array(STEPS).fill(1 / 60)) }, /checksum does not match/],
      ['checksum type', (d) => { d.checksum = '1' }, /replay\.checksum must be a number/],
      ['oversized steps', (d) => { d.steps = 2 ** 30 }, /replay\.steps is oversized/],
      ['oversized cars', (d) => { d.cars = new Array(70000).fill(1) }, /replay\.cars is oversized/],
      ['oversized keyframes', (d) => { d.keyframes = new Array(70000).fill(0) }, /replay\.keyframes is oversized/],
      // Re-signed (an attacker can recompute the checksum): the content checks still refuse.
      ['dt count', (d) => resign(Object.assign(d, { dt: encodeF64(new Float64Array(3)) })), /replay\.dt must hold 480 numbers/],
      ['dt value', (d) => { const dt = new Float64Array(STEPS).fill(1 / 60); dt[5] = -1; return resign(Object.assign(d, { dt: encodeF64(dt) })) }, /replay\.dt\[5\]/],
      ['event order', (d) => { const s = decodeI32(d.events.step, 's'); s.reverse(); d.events.step = encodeI32(s); return resign(d) }, /out of order/],
      ['event car', (d) => { const c = decodeI32(d.events.car, 'c'); c[0] = 99; d.events.car = encodeI32(c); return resign(d) }, /replay\.events\.car\[0\]/],
      ['event field', (d) => { const c = decodeI32(d.events.field, 'f'); c[0] = 42; d.events.field = encodeI32(c); return resign(d) }, /replay\.events\.field\[0\]/],
      ['event value', (d) => { d.events.value = encodeF64(new Float64Array(d.events.count).fill(NaN)); return resign(d) }, /replay\.events\.value\[0\]/],
      ['event count', (d) => { d.events.count += 1; return resign(d) }, /must hold/],
      ['keyframe 0', (d) => { d.keyframes[0].step = 5; return resign(d) }, /keyframes\[0\]\.step must be 0/],
      ['keyframe order', (d) => { d.keyframes[2].step = 50; return resign(d) }, /keyframes\[2\]\.step must be >/],
      ['keyframe world', (d) => { d.keyframes[1].world.version = 7; return resign(d) }, /keyframes\[1\]\.world\.version/],
      ['keyframe cars', (d) => { d.keyframes[1].world.cars.pop(); return resign(d) }, /does not hold the replay's cars/],
      ['repeated car', (d) => { d.cars[1] = d.cars[0]; return resign(d) }, /repeats car/],
    ]
    for (const [name, edit, pattern] of cases) {
      const d = JSON.parse(JSON.stringify(data))
      const r = edit(d)
      let err: unknown
      try { createReplayPlayer(sim, r === undefined ? d : r) } catch (e) { err = e }
      expect(err instanceof TypeError || err instanceof RangeError, `${name}: ${err}`).toBe(true)
      expect((err as Error).message, name).toMatch(pattern)
    }
    expect(JSON.stringify(snapshotWorld(sim)) === before).toBe(true)
    // A replay of other cars is refused at seek, before anything changes.
    const other = setup()
    other.sim.remove(other.cars[3])
    const p = createReplayPlayer(other.sim, data)
    const otherBefore = JSON.stringify(snapshotWorld(other.sim))
    expect(() => p.seek(10)).toThrow(/snap does not match this sim's cars/)
    expect(JSON.stringify(snapshotWorld(other.sim)) === otherBefore).toBe(true)
    expect(() => p.advance(1)).toThrow(/seek/)
    expect(() => p.seek(STEPS + 1)).toThrow(RangeError)
    expect(() => p.seek('1' as never)).toThrow(TypeError)
  })

  it('fuzz: any mutation of the saved text is refused with a named error', () => {
    const text = JSON.stringify(data)
    const canonicalText = canonicalJson(data)
    fc.assert(fc.property(fc.nat({ max: text.length - 1 }), fc.integer({ min: 32, max: 126 }), fc.boolean(), (at, code, truncate) => {
      const t = truncate ? text.slice(0, at) : text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1)
      if (t === text) return true
      let parsed: unknown
      try { parsed = JSON.parse(t) } catch { return true } // not JSON any more: the caller's parse fails
      // A digit change can leave a number's value as it was (0.30000000000000004 → …02 is the same double).
      if (canonicalJson(parsed) === canonicalText) return true
      try { loadReplay(parsed) } catch (e) {
        return (e instanceof TypeError || e instanceof RangeError) && /replay/.test((e as Error).message)
      }
      return false
    }), { numRuns: 300 })
  })
})
