// The bit-identity fingerprint: scenarios covering every model, level, driver, host, snapshot and
// ray path, each hashed (FNV-1a over the raw bytes) field by field: every array of the Car,
// Collider, Driver and Lidar stores and the public results (car states, driver status, ray hits,
// lidar scans). The golden file holds one line per scenario, so parallel changes merge.
// Regenerate with UPDATE_FINGERPRINT=1 (all scenarios) or UPDATE_FINGERPRINT=name,name (those
// only), and say in the commit message which scenarios changed and why.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import RAPIER from '@dimforge/rapier3d-compat'
import { createWorld } from 'bitecs'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  createSim, createLidarScan, surfaceGrid, surfaces, presets, LodController, stadiumPath, snapshotWorld, restoreWorld,
  sphere, box, capsule, cylinder, heightfield, lidarPresets, type Sim, type SimOptions, type LidarScan,
} from '../src/index'
import { attachRapier } from '../src/rapier/index'
import { seededRandom, randomQuat } from './random'

const GOLDEN = fileURLToPath(new URL('./fingerprint.golden.json', import.meta.url))
const DT = 1 / 60

// ---- hashing ---------------------------------------------------------------------------------

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

function fnvBytes(h: number, bytes: Uint8Array, n = bytes.length): number {
  for (let i = 0; i < n; i++) h = Math.imul(h ^ bytes[i], FNV_PRIME)
  return h >>> 0
}

const scratch = new Float64Array(1)
const scratchBytes = new Uint8Array(scratch.buffer)

/** A running hash over numbers (as float64 bits), strings and the shape of plain data. */
class Hasher {
  h = FNV_OFFSET
  count = 0
  num(v: number): void {
    scratch[0] = v
    this.h = fnvBytes(this.h, scratchBytes)
    this.count++
  }
  str(s: string): void {
    for (let i = 0; i < s.length; i++) this.num(s.charCodeAt(i))
  }
  /** Plain data: numbers, strings, booleans, null, arrays, typed arrays, objects (keys sorted). */
  value(v: unknown): void {
    if (typeof v === 'number') this.num(v)
    else if (typeof v === 'string') { this.str('s'); this.str(v) }
    else if (typeof v === 'boolean') this.num(v ? 1 : 0)
    else if (v === null || v === undefined) this.str(v === null ? 'null' : 'undef')
    else if (ArrayBuffer.isView(v) || Array.isArray(v)) {
      const a = v as ArrayLike<unknown>
      this.str('['); this.num(a.length)
      for (let i = 0; i < a.length; i++) this.value(a[i])
    } else if (typeof v === 'object') {
      this.str('{')
      for (const k of Object.keys(v).sort()) { this.str(k); this.value((v as Record<string, unknown>)[k]) }
    } else throw new TypeError(`cannot hash ${typeof v}`)
  }
  hex(): string {
    return `${this.h.toString(16).padStart(8, '0')}/${this.count}`
  }
}

/** Hash of a typed array's raw bytes up to its last non-zero byte (a store's capacity does not count). */
function hashArrayBytes(a: ArrayBufferView): string {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  let n = bytes.length
  while (n > 0 && bytes[n - 1] === 0) n--
  return `${fnvBytes(FNV_OFFSET, bytes, n).toString(16).padStart(8, '0')}/${n}`
}

/** One hash per array of every store of `sim.components` (Car, Collider, Driver, Lidar, …). */
function hashStores(sim: Sim, out: Record<string, string>): void {
  const comps = sim.components as unknown as Record<string, Record<string, unknown>>
  for (const name of Object.keys(comps).sort()) {
    const c = comps[name]
    for (const field of Object.keys(c).sort()) {
      const v = c[field]
      if (ArrayBuffer.isView(v)) out[`${name}.${field}`] = hashArrayBytes(v)
      else if (Array.isArray(v)) { const h = new Hasher(); h.value(v.map((x) => x ?? null)); out[`${name}.${field}`] = h.hex() }
    }
  }
}

/** Hashes the first `count` points of a scan (points, rays, distances). */
function hashScan(h: Hasher, scan: LidarScan): void {
  h.num(scan.count)
  for (let i = 0; i < scan.count * 3; i++) h.num(scan.points[i])
  for (let i = 0; i < scan.count; i++) { h.num(scan.rays[i]); h.num(scan.distances[i]) }
}

/** What a scenario records beside the stores: a trace of public results, by name. */
class Recorder {
  readonly traces = new Map<string, Hasher>()
  /** What the scenario went through (checked below, so a scenario cannot silently stop covering it). */
  readonly facts = { minSpeed: Infinity, maxSpeed: -Infinity, levels: new Set<string>(), hits: 0, misses: 0, minScan: Infinity, maxScan: 0 }
  trace(name: string): Hasher {
    let h = this.traces.get(name)
    if (!h) { h = new Hasher(); this.traces.set(name, h) }
    return h
  }
  cars(sim: Sim, cars: readonly number[], name = 'carState'): void {
    const h = this.trace(name)
    for (const c of cars) {
      const s = sim.carState(c)
      h.value(s)
      this.facts.minSpeed = Math.min(this.facts.minSpeed, s.speed)
      this.facts.maxSpeed = Math.max(this.facts.maxSpeed, s.speed)
      this.facts.levels.add(s.level)
    }
  }
  ai(sim: Sim, cars: readonly number[]): void {
    const h = this.trace('aiStatus')
    for (const c of cars) h.value(sim.aiStatus(c))
  }
  /** The driven cars' states and their drivers' status. */
  driven(sim: Sim, cars: readonly number[]): void {
    this.cars(sim, cars)
    this.ai(sim, cars)
  }
  ray(sim: Sim, start: ArrayLike<number>, dir: ArrayLike<number>, length: number, object = -1, localId = -1, mask = -1): void {
    const h = this.trace('rayTest')
    const list = sim.rayTest(start, dir, length, object, localId, mask)
    h.num(list.size())
    if (list.size()) this.facts.hits++
    else this.facts.misses++
    for (const hit of list) {
      h.num(hit.object); h.num(hit.localId); h.num(hit.collider); h.num(hit.distance)
      for (let i = 0; i < 3; i++) { h.num(hit.position[i]); h.num(hit.normal[i]) }
    }
  }
  scan(scan: LidarScan, name = 'lidarScan'): void {
    hashScan(this.trace(name), scan)
    this.facts.minScan = Math.min(this.facts.minScan, scan.count)
    this.facts.maxScan = Math.max(this.facts.maxScan, scan.count)
  }
}

const facts: Record<string, Recorder['facts']> = {}
let current = ''

function finish(sim: Sim, rec: Recorder): Record<string, string> {
  facts[current] = rec.facts
  const out: Record<string, string> = {}
  hashStores(sim, out)
  for (const [name, h] of [...rec.traces].sort((a, b) => (a[0] < b[0] ? -1 : 1))) out[name] = h.hex()
  return out
}

function newSim(options?: SimOptions): Sim {
  return createSim(createWorld(), options)
}

/** A new sim and the recorder of its scenario. */
function newScenario(options?: SimOptions): { sim: Sim; rec: Recorder } {
  return { sim: newSim(options), rec: new Recorder() }
}

// ---- scripted inputs ---------------------------------------------------------------------------

/** Inputs at time t of a 9 s drive: launch, gear changes, sweep, ABS stop, handbrake slide, reverse. */
function scriptedInput(t: number, manual: boolean) {
  if (t < 1.5) return { throttle: 1, brake: 0, steer: 0, handbrake: 0, gear: 1, clutch: 0 }
  if (t < 3) return { throttle: 0.8, brake: 0, steer: 0.3 * Math.sin(3 * t), handbrake: 0, gear: manual ? 2 : 1, clutch: 0 }
  if (t < 3.2) return { throttle: 0, brake: 0, steer: 0, handbrake: 0, gear: manual ? 2 : 1, clutch: 1 }
  if (t < 4.5) return { throttle: 1, brake: 0, steer: -0.2, handbrake: 0, gear: manual ? 3 : 1, clutch: 0 }
  if (t < 5.5) return { throttle: 0, brake: 1, steer: 0.4, handbrake: 0, gear: manual ? 3 : 1, clutch: 0 }
  if (t < 6.2) return { throttle: 0.3, brake: 0, steer: 1, handbrake: 1, gear: manual ? 2 : 1, clutch: 0 }
  if (t < 7.2) return { throttle: 0, brake: 1, steer: 0, handbrake: 0, gear: 0, clutch: 0 }
  return { throttle: 0.7, brake: 0, steer: -0.5, handbrake: 0, gear: -1, clutch: 0 }
}

function drive(sim: Sim, rec: Recorder, cars: readonly number[], seconds: number, manual: readonly boolean[], sampleEvery = 15): void {
  const n = Math.round(seconds / DT)
  for (let i = 0; i < n; i++) {
    const t = i * DT
    for (let k = 0; k < cars.length; k++) sim.setInput(cars[k], scriptedInput(t, manual[k]))
    sim.step(DT)
    if (i % sampleEvery === 0) rec.cars(sim, cars)
  }
  rec.cars(sim, cars)
}

// ---- scenarios ---------------------------------------------------------------------------------

type Scenario = () => Record<string, string> | Promise<Record<string, string>>
const scenarios: Record<string, Scenario> = {}

for (const presetName of Object.keys(presets) as (keyof typeof presets)[]) {
  for (const level of ['full', 'singleTrack'] as const) {
    scenarios[`preset-${presetName}-${level}`] = () => {
      const { sim, rec } = newScenario()
      const def = presets[presetName]
      const car = sim.addCar({ definition: def, position: [0, 0], heading: 0.1 })
      if (level === 'singleTrack') sim.setLod(car, 'singleTrack')
      drive(sim, rec, [car], 9, [!def.gearbox.automatic])
      return finish(sim, rec)
    }
  }
}

scenarios['surfaces-grid'] = () => {
  const palette = [surfaces.tarmac, surfaces.wetTarmac, surfaces.gravel, surfaces.grass, surfaces.ice]
  const columns = 40, rows = 20
  const cells = new Uint8Array(columns * rows)
  for (let i = 0; i < cells.length; i++) cells[i] = (i * 7 + (i >> 3)) % palette.length
  const grid = surfaceGrid({ origin: [-20, -40], cellSize: 4, columns, rows, palette, cells, outside: surfaces.grass })
  const { sim, rec } = newScenario({ surfaces: grid })
  const a = sim.addCar({ position: [0, 0], heading: 0.3 })
  const b = sim.addCar({ definition: presets.sportsCar, position: [0, -20], heading: -0.2 })
  const c = sim.addCar({ definition: presets.van, position: [10, 10], heading: 2 })
  sim.setLod(c, 'singleTrack', 240)
  drive(sim, rec, [a, b, c], 9, [false, true, true])
  return finish(sim, rec)
}

scenarios['lod-switches'] = () => {
  const { sim, rec } = newScenario()
  const car = sim.addCar({ definition: presets.sportsCar, speed: 12 })
  const other = sim.addCar({ position: [0, 20], speed: 8 })
  const steps: [number, 'full' | 'singleTrack' | 'frozen', number | undefined][] = [
    [30, 'singleTrack', undefined], [60, 'full', undefined], [90, 'singleTrack', 120], [120, 'frozen', undefined],
    [150, 'singleTrack', 500], [180, 'full', undefined], [210, 'frozen', undefined], [240, 'full', undefined],
  ]
  let next = 0
  for (let i = 0; i < 300; i++) {
    if (next < steps.length && steps[next][0] === i) {
      const [, level, hz] = steps[next++]
      sim.setLod(car, level, hz)
      sim.setLod(other, level === 'frozen' ? 'full' : level === 'full' ? 'singleTrack' : 'frozen')
      rec.trace('getLod').value([sim.getLod(car), sim.getLod(other)])
    }
    sim.setInput(car, scriptedInput((i * DT * 3) % 9, true))
    sim.setInput(other, { throttle: 0.5, steer: 0.2, gear: 1 })
    sim.step(DT)
    if (i % 10 === 0) rec.cars(sim, [car, other])
  }
  return finish(sim, rec)
}

/** A closed stadium circuit of 100 m straights and 40 m bends. */
const circuit = stadiumPath(100, 40, 2)
/** The circuit's point `k`, moved `dy` m in y. */
const circuitPoint = (k: number, dy = 0): [number, number] => [circuit[2 * k], circuit[2 * k + 1] + dy]

scenarios['lod-controller'] = () => {
  const { sim, rec } = newScenario()
  const cars: number[] = []
  for (let i = 0; i < 12; i++) {
    const car = sim.addCar({ position: circuitPoint((i * 17) % (circuit.length / 2)), heading: 0, lod: i % 3 === 0 ? 'singleTrack' : 'full' })
    sim.setAi(car, circuit, { closed: true, maxSpeed: 18 + i, lateralOffset: (i % 3) - 1 })
    cars.push(car)
  }
  const lod = new LodController(sim, { singleTrackBeyond: 40, frozenBeyond: 150, hysteresis: 5 }).install({ focus: cars[0] })
  lod.pin(cars[1])
  lod.markExternal(cars[2])
  for (let i = 0; i < 360; i++) {
    if (i === 120) lod.setFocus([0, 80])
    if (i === 240) { lod.unpin(cars[1]); lod.setFocus(cars[5]) }
    sim.step(DT)
    if (i % 20 === 0) { rec.cars(sim, cars); rec.ai(sim, cars); rec.trace('getLod').value(cars.map((c) => sim.getLod(c))) }
  }
  rec.driven(sim, cars)
  return finish(sim, rec)
}

scenarios['driver-closed'] = () => {
  const { sim, rec } = newScenario()
  const cars: number[] = []
  const offsets = [0, 1.5, -1.5, 0.5]
  for (let i = 0; i < offsets.length; i++) {
    const car = sim.addCar({ definition: i === 1 ? presets.sportsCar : presets.hatchback, position: circuitPoint(i * 20, offsets[i]), lod: i >= 2 ? 'singleTrack' : 'full' })
    sim.setAi(car, circuit, { closed: true, maxSpeed: 25, lateralOffset: offsets[i], lookahead: 0.4 + 0.1 * i })
    if (i === 1) sim.setInput(car, { gear: 1 })
    cars.push(car)
  }
  for (let i = 0; i < 40; i++) {
    sim.stepMany(DT, 30)
    rec.driven(sim, cars)
  }
  return finish(sim, rec)
}

scenarios['driver-open'] = () => {
  const { sim, rec } = newScenario()
  const path = [[0, 0], [40, 0], [70, 15], [90, 45], [95, 80]]
  const a = sim.addCar({ position: [0, 0] })
  const b = sim.addCar({ position: [0, 3], lod: 'singleTrack' })
  sim.setAi(a, path, { maxSpeed: 20, brakeDecel: 5, lateralAccel: 5 })
  sim.setAi(b, path.flat(), { maxSpeed: 15, lateralOffset: 2 })
  for (let i = 0; i < 900; i++) {
    if (i === 600) { sim.clearAi(b); sim.setInput(b, { brake: 1, throttle: 0 }) }
    sim.step(DT)
    if (i % 30 === 0) { rec.cars(sim, [a, b]); rec.ai(sim, i < 600 ? [a, b] : [a]) }
  }
  rec.ai(sim, [a])
  return finish(sim, rec)
}

scenarios['driver-lod'] = () => {
  const { sim, rec } = newScenario()
  const cars: number[] = []
  for (let i = 0; i < 3; i++) {
    const car = sim.addCar({ position: circuitPoint(i * 30), lod: 'singleTrack' })
    sim.setAi(car, circuit, { closed: true, maxSpeed: 22 })
    cars.push(car)
  }
  for (let i = 0; i < 300; i++) {
    if (i === 60) sim.setLod(cars[0], 'frozen')
    if (i === 120) sim.setLod(cars[1], 'full')
    if (i === 200) sim.setLod(cars[0], 'singleTrack', 240)
    if (i === 240) sim.setLod(cars[1], 'full')
    if (i === 260) sim.clearAi(cars[2])
    sim.step(DT)
    if (i % 15 === 0) rec.cars(sim, cars)
  }
  return finish(sim, rec)
}

scenarios['path-level'] = () => {
  const { sim, rec } = newScenario()
  const cars: number[] = []
  for (let i = 0; i < 4; i++) {
    const car = sim.addCar({ definition: i === 3 ? presets.sportsCar : presets.hatchback, position: circuitPoint(i * 25), lod: 'singleTrack' })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, circuit, { closed: true, maxSpeed: 18 + 4 * i, lateralOffset: i === 2 ? 1 : 0, shift: i === 3 })
    if (i > 0) sim.setLod(car, 'path')
    cars.push(car)
  }
  for (let i = 0; i < 40; i++) {
    if (i === 8) sim.setLod(cars[1], 'singleTrack', 240)
    if (i === 12) sim.setLod(cars[0], 'path')
    if (i === 20) sim.setLod(cars[2], 'full')
    if (i === 28) sim.setLod(cars[1], 'path')
    if (i === 32) sim.clearAi(cars[3])
    sim.stepMany(DT, 15)
    rec.driven(sim, cars)
  }
  return finish(sim, rec)
}

scenarios['hosting-rapier'] = async () => {
  await RAPIER.init()
  const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 })
  const wall = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(30, 0, 1))
  world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 10, 1), wall)
  const sim0 = newSim()
  const rapier = attachRapier(sim0, world, RAPIER)
  const sim = rapier.sim
  const rec = new Recorder()
  const a = sim.addCar({ position: [0, 0], speed: 5 })
  const b = sim.addCar({ position: [0, 5], speed: 3, lod: 'singleTrack' })
  const c = sim.addCar({ position: [0, -30] })
  sim.setHost(a, rapier)
  sim.setHost(b, rapier)
  for (let i = 0; i < 240; i++) {
    if (i === 150) sim.setLod(b, 'full')
    if (i === 180) sim.clearHost(a)
    for (const car of [a, b, c]) sim.setInput(car, { throttle: 0.6, steer: i > 120 ? 0.3 : 0, gear: 1 })
    sim.step(DT)
    if (i % 10 === 0) rec.cars(sim, [a, b, c])
  }
  return finish(sim, rec)
}

scenarios['snapshots'] = () => {
  const { sim, rec } = newScenario()
  const a = sim.addCar({ definition: presets.sportsCar, speed: 10 })
  const b = sim.addCar({ position: [0, 10], speed: 10, lod: 'singleTrack' })
  sim.setAi(b, circuit, { closed: true })
  for (const car of [a, b]) sim.setInput(car, { throttle: 0.7, steer: 0.2, gear: 1 })
  sim.stepMany(DT, 60)
  const snapA = JSON.parse(JSON.stringify(sim.snapshot(a)))
  const snapB = sim.snapshot(b)
  rec.trace('snapshot').value([snapA, snapB])
  const world = snapshotWorld(sim)
  sim.stepMany(DT, 60)
  rec.cars(sim, [a, b])
  sim.restore(a, snapA)
  sim.restore(b, snapA) // the other model: b moves to full
  sim.stepMany(DT, 30)
  rec.cars(sim, [a, b])
  sim.restore(a, snapB) // and a to singleTrack
  sim.stepMany(DT, 30)
  rec.cars(sim, [a, b])
  restoreWorld(sim, world)
  sim.stepMany(DT, 60)
  rec.cars(sim, [a, b])
  rec.ai(sim, [b])
  return finish(sim, rec)
}

/** A scene of every shape kind (heightfield and ground plane included), two cars and two lidars. */
function shapeScene(mode: 'step' | 'stepMany') {
  const { sim, rec } = newScenario({ ground: { height: -0.5 } })
  const rand = seededRandom(4242)
  const shapes = [sphere(1.2), box(1, 2, 0.5), capsule(0.4, 1.5), cylinder(0.8, 1)]
  for (let i = 0; i < 40; i++) {
    sim.addCollider(shapes[i % 4], {
      position: [(rand() - 0.5) * 60, (rand() - 0.5) * 60, rand() * 3], rotation: randomQuat(rand),
      group: 1 << (i % 3), object: 100 + (i >> 1), localId: i & 1, name: `s${i}`,
    })
  }
  const heights = new Float64Array(8 * 6)
  for (let i = 0; i < heights.length; i++) heights[i] = Math.sin(i * 0.7) * 0.8
  sim.addCollider(heightfield([-4, -3], 1, 8, 6, heights), { position: [20, 20, 0], group: 2 })
  const car = sim.addCar({ position: [-10, 0], speed: 6 })
  const car2 = sim.addCar({ position: [10, 5], heading: 2, lod: 'singleTrack', speed: 4 })
  const spin = sim.addLidar({ ...lidarPresets.spinning16, pattern: { ...lidarPresets.spinning16.pattern, yawCount: 128, yawIncrement: (2 * Math.PI) / 128 }, mount: car, offset: [0, 0, 1], hz: 20 })
  const fixed = sim.addLidar({ ...lidarPresets.planar2d, rangeMax: 40, offset: [0, 0, 0.8], collisionMask: 3 })
  for (const c of [car, car2]) sim.setInput(c, { throttle: 0.5, steer: 0.3, gear: 1 })
  const moving = 5
  const scan = createLidarScan()
  for (let round = 0; round < 8; round++) {
    if (mode === 'step') for (let i = 0; i < 15; i++) sim.step(DT)
    else sim.stepMany(DT, 15)
    rec.cars(sim, [car, car2])
    rec.scan(sim.lidarScan(spin), 'scan-mounted')
    rec.scan(sim.lidarScan(fixed), 'scan-fixed')
    sim.setPose(moving + round, [(rand() - 0.5) * 40, (rand() - 0.5) * 40, 1], randomQuat(rand))
    sim.setPose(fixed, [round, -round, 0.8])
    for (let r = 0; r < 150; r++) {
      const start = [(rand() - 0.5) * 70, (rand() - 0.5) * 70, rand() * 6 - 1]
      const dir = r % 25 === 0 ? [0, 0, 0] : [rand() - 0.5, rand() - 0.5, rand() - 0.6]
      const mask = r % 7 === 0 ? 2 : -1
      rec.ray(sim, start, dir, r % 11 === 0 ? 0 : 5 + rand() * 60, r % 5 === 0 ? 100 + (r % 20) : -1, r % 5 === 0 ? r & 1 : -1, mask)
    }
    // rays at each shape's centre (starting inside) and grazing the heightfield
    rec.ray(sim, [20, 20, 3], [0.3, 0.2, -1], 10)
    rec.ray(sim, [-10, 0, 0.5], [1, 0, 0], 30, car, 0)
    rec.ray(sim, [-10, 0, 0.5], [1, 0, 0], 30)
    sim.rayTestLidar([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 1.5], 0, (2 * Math.PI) / 256, 256, -0.3, 0.05, 12, 0.3, 50, -1, -1, -1, scan)
    rec.scan(scan, 'rayTestLidar')
  }
  return finish(sim, rec)
}

scenarios['rays-and-scans'] = () => shapeScene('step')

scenarios['colliders-churn'] = () => {
  const { sim, rec } = newScenario()
  const rand = seededRandom(99)
  const live: number[] = []
  const shapes = [sphere(0.7), box(0.5, 0.5, 1.5), capsule(0.3, 1), cylinder(0.6, 0.4)]
  const car = sim.addCar({ speed: 8 })
  sim.setInput(car, { throttle: 0.4, steer: 0.1, gear: 1 })
  for (let round = 0; round < 30; round++) {
    for (let i = 0; i < 6; i++) live.push(sim.addCollider(shapes[(round + i) % 4], { position: [(rand() - 0.5) * 30, (rand() - 0.5) * 30, rand() * 2] }))
    for (let i = 0; i < 3; i++) sim.remove(live.splice(Math.floor(rand() * live.length), 1)[0])
    sim.setPose(live[Math.floor(rand() * live.length)], [(rand() - 0.5) * 30, (rand() - 0.5) * 30, 1], randomQuat(rand))
    sim.step(DT)
    for (let r = 0; r < 20; r++) rec.ray(sim, [(rand() - 0.5) * 30, (rand() - 0.5) * 30, 3], [rand() - 0.5, rand() - 0.5, -1], r % 4 === 0 ? 1 : 10)
  }
  rec.cars(sim, [car])
  return finish(sim, rec)
}

// ---- the test --------------------------------------------------------------------------------

function readGolden(): Record<string, Record<string, string>> {
  try {
    return JSON.parse(readFileSync(GOLDEN, 'utf8'))
  } catch {
    return {}
  }
}

/** One line per scenario, in scenario order. */
function writeGolden(all: Record<string, Record<string, string>>): void {
  const names = Object.keys(all)
  const lines = names.map((n, i) => `  ${JSON.stringify(n)}: ${JSON.stringify(all[n])}${i < names.length - 1 ? ',' : ''}`)
  writeFileSync(GOLDEN, `{\n${lines.join('\n')}\n}\n`)
}

function diff(want: Record<string, string> | undefined, got: Record<string, string>): string[] {
  if (!want) return ['(no golden line)']
  const out: string[] = []
  for (const k of Object.keys(got)) if (want[k] !== got[k]) out.push(want[k] === undefined ? `${k} (new)` : k)
  for (const k of Object.keys(want)) if (!(k in got)) out.push(`${k} (gone)`)
  return out
}

describe('bit-identity fingerprint', () => {
  const results: Record<string, Record<string, string>> = {}

  beforeAll(async () => {
    for (const name of Object.keys(scenarios)) {
      current = name
      results[name] = await scenarios[name]()
    }
  }, 60_000)

  it('the scenarios cover what they claim', () => {
    for (const name of Object.keys(scenarios).filter((n) => n.startsWith('preset-'))) {
      expect(facts[name].maxSpeed, name).toBeGreaterThan(10)
      expect(facts[name].minSpeed, `${name} reverses`).toBeLessThan(-0.5)
    }
    expect([...facts['lod-switches'].levels].sort()).toEqual(['frozen', 'full', 'singleTrack'])
    expect([...facts['lod-controller'].levels].sort()).toEqual(['frozen', 'full', 'singleTrack'])
    for (const name of ['rays-and-scans', 'colliders-churn']) {
      expect(facts[name].hits, name).toBeGreaterThan(100)
      expect(facts[name].misses, name).toBeGreaterThan(10)
    }
    expect(facts['rays-and-scans'].minScan).toBeGreaterThan(0)
  })

  it('stepMany is bit-identical to step over the shape scene', () => {
    expect(shapeScene('stepMany')).toEqual(results['rays-and-scans'])
  })

  it('every scenario is bit-identical to the golden file', () => {
    const update = process.env.UPDATE_FINGERPRINT
    const golden = readGolden()
    if (update) {
      const only = update === '1' ? null : new Set(update.split(','))
      const next: Record<string, Record<string, string>> = {}
      for (const name of Object.keys(results)) next[name] = only && !only.has(name) && golden[name] ? golden[name] : results[name]
      writeGolden(next)
      return
    }
    const changed: string[] = []
    for (const name of Object.keys(results)) {
      const d = diff(golden[name], results[name])
      if (d.length) changed.push(`${name}: ${d.join(', ')}`)
    }
    for (const name of Object.keys(golden)) if (!(name in results)) changed.push(`${name}: scenario gone`)
    expect(changed, `changed scenarios (regenerate only on purpose: UPDATE_FINGERPRINT=name npx vitest run test/fingerprint.test.ts)\n${changed.join('\n')}`).toEqual([])
  })
})
