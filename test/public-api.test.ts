// Public API for mods and renderers: the sim clock (time, dt, steps), carDefinition, aiPath, nearestOnPath, and the unchecked collider moves.
import { describe, expect, it } from 'vitest'
import { createWorld, removeEntity } from 'bitecs'
import { createPolyline, createSim, markColliderChanged, nearestOnPath, presets, restoreWorld, setColliderPoseFast, snapshotWorld, type CarDefinition } from '../src/index'
import { mat3FromEuler } from '../src/internals'

describe('the sim clock', () => {
  it('starts at zero and adds each host step; inside a system dt is this step and time the time before it', () => {
    const sim = createSim(createWorld())
    expect([sim.time, sim.dt, sim.steps]).toEqual([0, 0, 0])
    const seen: [number, number, number][] = []
    sim.schedule.add((w) => { seen.push([sim.time, sim.dt, sim.steps]); return w }, { name: 'watch', phase: 'input' })
    sim.step(0.25)
    sim.stepMany(0.5, 2)
    expect(seen).toEqual([[0, 0.25, 0], [0.25, 0.5, 1], [0.75, 0.5, 2]])
    expect([sim.time, sim.dt, sim.steps]).toEqual([1.25, 0.5, 3])
  })

  it('sums dt exactly as n additions (stepMany and step agree) and a refused step leaves it alone', () => {
    const a = createSim(createWorld()), b = createSim(createWorld())
    a.stepMany(1 / 60, 7)
    for (let i = 0; i < 7; i++) b.step(1 / 60)
    let t = 0
    for (let i = 0; i < 7; i++) t += 1 / 60
    expect(a.time).toBe(t)
    expect(b.time).toBe(t)
    expect(() => a.step(0)).toThrow(RangeError)
    expect(() => a.stepMany(1 / 60, 1.5)).toThrow(RangeError)
    expect([a.time, a.dt, a.steps]).toEqual([t, 1 / 60, 7])
  })

  it('is read-only and comes back with a world snapshot', () => {
    const sim = createSim(createWorld())
    sim.stepMany(0.1, 3)
    const snap = snapshotWorld(sim)
    expect(() => { (sim as { time: number }).time = 5 }).toThrow(TypeError)
    sim.step(0.3)
    restoreWorld(sim, snap)
    expect([sim.time, sim.dt, sim.steps]).toEqual([0.1 + 0.1 + 0.1, 0.1, 3])
  })
})

describe('sim.carDefinition', () => {
  it('gives the definition the car runs on, frozen, and unaffected by later edits of the caller\'s object', () => {
    const sim = createSim(createWorld())
    const plain = sim.addCar()
    expect(sim.carDefinition(plain)).toEqual(presets.hatchback)
    const mine = structuredClone(presets.hatchback) as CarDefinition
    mine.mass = 1500
    const car = sim.addCar({ definition: mine })
    const d = sim.carDefinition(car)
    expect(d.mass).toBe(1500)
    mine.mass = 900
    mine.engine.idleRpm = 2000
    expect(d.mass).toBe(1500)
    expect(d.engine.idleRpm).toBe(presets.hatchback.engine.idleRpm)
    expect(Object.isFrozen(d) && Object.isFrozen(d.engine) && Object.isFrozen(d.engine.torqueCurve[0])).toBe(true)
    expect(() => { (d as { mass: number }).mass = 1 }).toThrow(TypeError)
    expect(sim.carState(car).engineRpm).toBeCloseTo(presets.hatchback.engine.idleRpm, 9)
  })

  it('refuses what is not a live car of this sim, naming the argument', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar()
    const box = sim.addCollider({ kind: 'sphere', radius: 1 })
    expect(() => sim.carDefinition('1' as never)).toThrow(TypeError)
    expect(() => sim.carDefinition(-1)).toThrow(/car must be a non-negative integer/)
    expect(() => sim.carDefinition(box)).toThrow(/car \d+ is not a car of this sim/)
    removeEntity(sim.world, car)
    expect(() => sim.carDefinition(car)).toThrow(RangeError)
  })
})

describe('sim.aiPath', () => {
  it('is the driven line (offset included) while the car has a driver, else null', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar()
    expect(sim.aiPath(car)).toBeNull()
    sim.setAi(car, [[0, 0], [100, 0]], { lateralOffset: 2 })
    const line = sim.aiPath(car)!
    expect(line.n).toBe(2)
    expect(line.closed).toBe(false)
    expect(Array.from(line.y)).toEqual([2, 2])
    expect(line.length).toBeCloseTo(100, 12)
    sim.setAi(car, [[0, 0], [50, 0], [50, 50]], { closed: true })
    expect(sim.aiPath(car)!.closed).toBe(true)
    expect(sim.aiPath(car)!.n).toBe(3)
    sim.clearAi(car)
    expect(sim.aiPath(car)).toBeNull()
  })

  it('refuses what is not a live car of this sim', () => {
    const sim = createSim(createWorld())
    const box = sim.addCollider({ kind: 'sphere', radius: 1 })
    expect(() => sim.aiPath(null as never)).toThrow(/car must be an entity id/)
    expect(() => sim.aiPath(1.5)).toThrow(RangeError)
    expect(() => sim.aiPath(box)).toThrow(/not a car of this sim/)
  })
})

describe('nearestOnPath', () => {
  it('finds the closest point of every segment (brute force over a dense sampling) and its side', () => {
    const poly = createPolyline([[0, 0], [10, 0], [10, 10], [0, 10]], true)
    const out = { s: 0, lateral: 0, distance: 0, segment: 0 }
    for (const [x, y] of [[5, 1], [5, -2], [12, 5], [-1, 11], [3, 9.5], [10, 10]]) {
      const p = nearestOnPath(poly, x, y, out)
      expect(p).toBe(out)
      let best = Infinity, bestS = 0
      for (let s = 0; s <= 40; s += 0.001) {
        const q = s < 10 ? [s, 0] : s < 20 ? [10, s - 10] : s < 30 ? [30 - s, 10] : [0, 40 - s]
        const d = Math.hypot(x - q[0], y - q[1])
        if (d < best) { best = d; bestS = s }
      }
      expect(p.distance).toBeCloseTo(best, 6)
      expect(Math.abs(p.lateral)).toBeCloseTo(best, 6)
      if (best > 0.01) expect(p.s).toBeCloseTo(bestS, 2)
      expect(p.s).toBeGreaterThanOrEqual(10 * p.segment - 1e-9)
      expect(p.s).toBeLessThanOrEqual(10 * p.segment + 10 + 1e-9)
    }
    // the loop runs anticlockwise: inside is left (+), outside right (-)
    expect(nearestOnPath(poly, 5, 1).lateral).toBeCloseTo(1, 12)
    expect(nearestOnPath(poly, 5, -2).lateral).toBeCloseTo(-2, 12)
  })

  it('refuses what is not a polyline or a finite point', () => {
    const poly = createPolyline([[0, 0], [10, 0]], false)
    expect(() => nearestOnPath([[0, 0], [1, 0]] as never, 0, 0)).toThrow(/poly must be a Polyline/)
    expect(() => nearestOnPath(poly, NaN, 0)).toThrow(/x must be finite/)
    expect(() => nearestOnPath(poly, 0, '1' as never)).toThrow(TypeError)
  })
})

describe('setColliderPoseFast and markColliderChanged (unchecked, by sim)', () => {
  it('moves a collider as setPose does, and makes raw store writes visible to queries', () => {
    const a = createSim(createWorld()), b = createSim(createWorld())
    const ea = a.addCollider({ kind: 'box', halfExtents: [1, 2, 0.5] }), eb = b.addCollider({ kind: 'box', halfExtents: [1, 2, 0.5] })
    setColliderPoseFast(a, ea, 20, 3, 1, 0.4, 0.1, -0.2)
    const rot = new Float64Array(9)
    mat3FromEuler(rot, 0, 0.4, 0.1, -0.2)
    b.setPose(eb, [20, 3, 1], rot)
    expect(Array.from(a.components.Collider.position.subarray(3 * ea, 3 * ea + 3))).toEqual([20, 3, 1])
    for (let k = 0; k < 9; k++) expect(a.components.Collider.rotation[9 * ea + k]).toBeCloseTo(b.components.Collider.rotation[9 * eb + k], 15)
    const hit = (sim: typeof a) => { const l = sim.rayTest([0, 3, 1], [1, 0, 0], 100); return l.size() ? l.at(0)!.distance : -1 }
    expect(hit(a)).toBeCloseTo(hit(b), 12)
    expect(hit(a)).toBeGreaterThan(15)
    // a raw write of the group is seen once marked
    a.components.Collider.group[ea] = 4
    markColliderChanged(a, ea)
    expect(a.rayTest([0, 3, 1], [1, 0, 0], 100, -1, -1, 1).size()).toBe(0) // a level ray above the ground meets only the box
    expect(a.rayTest([0, 3, 1], [1, 0, 0], 100, -1, -1, 4).at(0)!.collider).toBe(ea)
  })
})

describe('the entry points', () => {
  it('export the user API from pitlane and the math, stride and unchecked helpers only from pitlane/internals', async () => {
    const pub = Object.keys(await import('../src/index'))
    const internals = Object.keys(await import('../src/internals'))
    const inner = /^(vec3|dot3|length3|normalize3|mat3|quat|DRIVER_)|^(castRay|rayCollider|updateBroadphase|setColliderPoseMat3Fast)$/
    expect(pub.filter((n) => inner.test(n))).toEqual([])
    for (const n of ['mat3FromEuler', 'mat3FromQuat', 'quatFromMat3', 'vec3', 'normalize3', 'DRIVER_STRIDE', 'castRay']) expect(internals).toContain(n)
    for (const n of ['createSim', 'LodController', 'snapshotWorld', 'createLidarScan', 'sphere', 'setColliderPoseFast', 'storeGeneration']) expect(pub).toContain(n)
  })
})
