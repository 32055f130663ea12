// Every options object of the public API refuses a misspelled key, naming it and the accepted ones,
// and changes nothing; error classes as the README promises; raw Car components are refused at
// once (versioned worlds: test/hardening/versioned-ids.test.ts).
import { describe, expect, it, vi } from 'vitest'
import { addComponent, addEntity, createWorld, hasComponent } from 'bitecs'
import {
  LodController, createLidarScan, createReplayRecorder, createSim, lidarPresets, presets, snapshotWorld, sphere, stadiumPath, surfaceGrid, surfaces, toPcd,
} from '../../src/index'
import { attachRapier } from '../../src/rapier/index'
import RAPIER from '@dimforge/rapier3d-compat'

const sim0 = () => createSim(createWorld())

/** Calls `f` with `{ ...good, [typo]: value }` and checks the refusal names the key and lists `expected`. */
function refusesTypo(f: (o: never) => unknown, good: object, typo: string, expected: string[], name = 'options'): void {
  let err: unknown
  try { f({ ...good, [typo]: 1 } as never) } catch (e) { err = e }
  expect(err).toBeInstanceOf(RangeError)
  const message = (err as Error).message
  expect(message).toContain(`${name}.${typo} is not an option`)
  for (const key of expected) expect(message).toContain(key)
  f(good as never) // the same object without the typo is accepted
}

describe('options objects refuse a misspelled key', () => {
  it('createSim and its ground', () => {
    refusesTypo((o) => createSim(createWorld(), o), { gravity: 9.81 }, 'gravty', ['gravity', 'ground', 'surfaces'])
    refusesTypo((o) => createSim(createWorld(), { ground: o }), { height: 0 }, 'heigth', ['height'], 'options.ground')
  })

  it('addCar, addCollider, addLidar and its pattern, noise and attributes, setAi, setInput: and nothing is added', () => {
    const sim = sim0()
    const before = JSON.stringify(snapshotWorld(sim))
    const fail = (f: () => unknown) => expect(f).toThrow(RangeError)
    fail(() => sim.addCar({ positon: [5, 5] } as never))
    fail(() => sim.addCollider(sphere(1), { positon: [5, 5] } as never))
    fail(() => sim.addLidar({ ...lidarPresets.spinning16, colisionMask: 1 } as never))
    fail(() => sim.addLidar({ ...lidarPresets.spinning16, pattern: { ...lidarPresets.spinning16.pattern, yawcount: 3 } } as never))
    expect(JSON.stringify(snapshotWorld(sim))).toBe(before)
    refusesTypo((o) => sim.addCar(o), { position: [5, 5] }, 'positon', ['definition', 'position', 'heading', 'speed', 'lod', 'groundMask'])
    refusesTypo((o) => sim.addCollider(sphere(1), o), { position: [5, 5] }, 'positon', ['position', 'rotation', 'group', 'object', 'localId', 'name', 'surface'])
    refusesTypo((o) => sim.addLidar(o), { ...lidarPresets.spinning16 }, 'colisionMask', ['mount', 'offset', 'rotation', 'pattern', 'collisionMask', 'hz'])
    refusesTypo((o) => sim.addLidar({ ...lidarPresets.spinning16, pattern: o }), { ...lidarPresets.spinning16.pattern }, 'yawcount', ['yawCount', 'pitchCount'], 'options.pattern')
    refusesTypo((o) => sim.addLidar({ ...lidarPresets.spinning16, noise: o }), { range: 0.01 }, 'rnage', ['range', 'dropout', 'intensityDropout', 'seed'], 'options.noise')
    refusesTypo((o) => sim.addLidar({ ...lidarPresets.spinning16, attributes: o }), { hits: true }, 'hit', ['hits', 'normals', 'intensity'], 'options.attributes')
    const car = sim.addCar()
    refusesTypo((o) => sim.setAi(car, stadiumPath(50, 20), o), { maxSpeed: 20 }, 'maxspeed', ['maxSpeed', 'lookahead'])
    expect(() => sim.setInput(car, { throtle: 1 } as never)).toThrow(/input\.throtle is not an input field \(steer, throttle/)
  })

  it('LodController, its install, the replay recorder, surfaceGrid, createLidarScan, toPcd, schedule.add and attachRapier', async () => {
    const sim = sim0()
    const car = sim.addCar()
    refusesTypo((o) => new LodController(sim, o), { singleTrackBeyond: 100 }, 'singletrackBeyond', ['singleTrackBeyond', 'frozenBeyond', 'hysteresis', 'singleTrackHz'])
    const lod = new LodController(sim)
    refusesTypo((o) => lod.install(o), { focus: car }, 'focsu', ['focus'])
    refusesTypo((o) => createReplayRecorder(sim, o), { keyframeEvery: 60 }, 'keyframeEvry', ['keyframeEvery'])
    const grid = { origin: [0, 0], cellSize: 1, columns: 2, rows: 2, palette: [surfaces.tarmac] }
    refusesTypo((o) => surfaceGrid(o), grid, 'colums', ['origin', 'cellSize', 'columns', 'rows', 'palette', 'cells', 'outside'])
    refusesTypo((o) => createLidarScan(o), { hits: true }, 'normal', ['hits', 'normals', 'intensity'])
    let n = 0
    refusesTypo((o) => sim.schedule.add((w) => w, { ...(o as object), name: `s${n++}` } as never), { phase: 'input', after: 'drive-paths' }, 'afer', ['name', 'phase', 'before', 'after'])
    refusesTypo((o) => toPcd(createLidarScan(), o), { binary: true }, 'binray', ['binary', 'fields'])
    await RAPIER.init()
    refusesTypo((o) => attachRapier(createSim(createWorld()), new RAPIER.World({ x: 0, y: 0, z: -9.81 }), RAPIER, o), { stepWorld: true }, 'stepworld', ['rate', 'stepWorld', 'ccd'])
  })
})

describe('createDebugRenderer (pitlane/pixi) refuses a misspelled key', () => {
  it('names the key and the accepted ones; the options without it draw', async () => {
    // pixi.js reads navigator when it loads, which Node 20 lacks: a stand-in for this import only
    if (typeof navigator === 'undefined') vi.stubGlobal('navigator', { userAgent: 'node' })
    const { Container } = await import('pixi.js')
    const { createDebugRenderer } = await import('../../src/pixi/index')
    const sim = sim0()
    sim.addCar()
    refusesTypo((o) => createDebugRenderer(sim, new Container(), o).update(), { cars: true }, 'colour', ['colliders', 'cars', 'paths', 'lidars', 'carColor', 'flipY'])
    vi.unstubAllGlobals()
  }, 60_000)
})

describe('error classes and refusals', () => {
  it('"not a car" is a RangeError naming the id; an options.definition without a name says undefined once', () => {
    const sim = sim0()
    const wall = sim.addCollider(sphere(1))
    expect(() => sim.carState(wall)).toThrow(RangeError)
    expect(() => sim.carState(wall)).toThrow(`car ${wall} is not a car of this sim`)
    expect(() => sim.setAi(wall, stadiumPath(50, 20))).toThrow(RangeError)
    expect(() => sim.addCar({ definition: { ...presets.hatchback, name: undefined } as never })).toThrow(/options\.definition\.name must be a string, got undefined$/)
  })

  it('addComponent(world, e, Car) is refused at once and undone: the entity stays, not a car, and the sim still steps', () => {
    const sim = sim0()
    const car = sim.addCar({ speed: 5 })
    const e = addEntity(sim.world)
    expect(() => addComponent(sim.world, e, sim.components.Car)).toThrow(/make cars with sim\.addCar/)
    expect(hasComponent(sim.world, e, sim.components.Car)).toBe(false)
    sim.step(1 / 60)
    expect(sim.carState(car).position[0]).toBeGreaterThan(0)
  })

})

describe('store arrays and storeGeneration', () => {
  it('an array kept across adds is current exactly while storeGeneration is unchanged', async () => {
    const { storeGeneration } = await import('../../src/index')
    const sim = sim0()
    const Car = sim.components.Car
    let speed = Car.speed, seen = storeGeneration(Car), refreshed = 0
    const cars: number[] = []
    for (let i = 0; i < 300; i++) {
      cars.push(sim.addCar({ position: [i * 10, 0], speed: i % 40 }))
      expect(Car.speed === speed).toBe(storeGeneration(Car) === seen)
      if (storeGeneration(Car) !== seen) { speed = Car.speed; seen = storeGeneration(Car); refreshed++ }
    }
    expect(refreshed).toBeGreaterThan(0)
    for (const car of cars) expect(speed[car]).toBe(sim.carState(car).speed)
  })
})
