/**
 * Whole-world snapshots: every car (the vehicle domain's per-car snapshot, its input record and
 * level), every driver, every collider's pose, every lidar's pose, rate phase and latest scan (a
 * rotating lidar's sweep in progress too: lidar-snapshot.ts), and the sim clock, as versioned JSON-safe plain data (numbers that must keep every bit, -0
 * included, are base64 Float64Arrays); the colliders' and lidars' fixed configuration is recorded
 * too and must match on restore. restoreWorld validates the whole snapshot first and puts the
 * world back exactly as it was if a domain refuses its part, so a refused snapshot changes nothing.
 */
import { query } from 'bitecs'
import type { Sim } from '../types'
import { describe } from '../validate'
import { decodeF64, encodeF64 } from './codec'
import { checkScanEntry, checkScanFits, checkSweepEntry, checkSweepFits, encodeScan, restoreScan, type ScanEntry, type SweepEntry } from './lidar-snapshot'
import { checkDriver, pathCache, restoreDriver, rethrow, snapshotDriver, type DriverEntry, type PathEntry, type PathPool } from './driver-snapshot'
import { decodeSnapshot } from '../vehicle/snapshot'
import { meshDigest } from '../collision/mesh'
import { ColliderKind } from '../../components/collider'

/** The `format` tag of a world snapshot. */
export const WORLD_FORMAT = 'pitlane-world'
/** The world snapshot version this build writes and reads. */
export const WORLD_VERSION = 1

/**
 * The most triangles (and a third of the most vertices) a mesh collider of a snapshot may claim:
 * a snapshot (from an untrusted source, say) claiming more is refused.
 */
export const MESH_SNAPSHOT_MAX_TRIANGLES = 1 << 24

/** A mesh collider's geometry as a snapshot carries it: its counts and a digest of every bit of it (restore checks the sim's mesh against them). */
export interface MeshEntry { triangles: number; vertices: number; digest: number }

/** One car of a world snapshot. */
export interface CarEntry {
  id: number
  /** sim.snapshot(car): the vehicle domain's own versioned data (state, input record, model, level, rate). */
  car: unknown
  /** The driver's state (the driver domain's data), or null when the car has no driver. */
  driver: unknown
}

/** A whole-world snapshot; see snapshotWorld. */
export interface WorldSnapshot {
  format: typeof WORLD_FORMAT
  version: number
  /** Host steps taken. */
  steps: number
  /** time, lastDt (base64 Float64Array(2)). */
  clock: string
  cars: CarEntry[]
  /** The distinct driver paths, referred to by index from each car's driver. */
  paths: PathEntry[]
  /** Every collider but the ground (car chassis included, so queries right after a restore see
   * them in place): pose = position(3) + rotation(9); config = kind, params(4), group, object, localId;
   * mesh = a mesh collider's geometry (counts and digest; absent for other shapes). */
  colliders: { id: number; pose: string; config: string; mesh?: MeshEntry }[]
  /** Lidars: pose = offset(3), rotation(9), origin(3), pose(9), accum(1); config = mount, pattern(6),
   * rangeMin, rangeMax, collisionMask, hz; scan = the latest scan; sweep = a rotating lidar's sweep in progress. */
  lidars: { id: number; pose: string; config: string; scan: ScanEntry; sweep?: SweepEntry }[]
}

// What a restore cannot change, so must find as it was: a collider's shape and filter ids, and a
// lidar's mount, pattern, window, mask and rate.
function colliderConfig(sim: Sim, id: number): Float64Array {
  const C = sim.components.Collider
  return new Float64Array([C.kind[id], C.params[4 * id], C.params[4 * id + 1], C.params[4 * id + 2], C.params[4 * id + 3], C.group[id], C.object[id], C.localId[id]])
}

function lidarConfig(sim: Sim, id: number): Float64Array {
  const L = sim.components.Lidar
  return new Float64Array([L.mount[id], L.yawStart[id], L.yawIncrement[id], L.yawCount[id], L.pitchStart[id], L.pitchIncrement[id], L.pitchCount[id], L.rangeMin[id], L.rangeMax[id], L.collisionMask[id], L.hz[id]])
}

const LIMIT = 1 << 20

/** Collider id's mesh as a snapshot carries it, or undefined for any other shape. */
function meshEntry(sim: Sim, id: number): MeshEntry | undefined {
  const C = sim.components.Collider
  if (C.kind[id] !== ColliderKind.mesh) return undefined
  const m = sim.internal.collision.meshes[C.mesh[id]]
  if (m === undefined) return undefined
  return { triangles: m.triangleCount, vertices: m.vertices.length / 3, digest: meshDigest(m) }
}

/** Checks a stored mesh entry's shape: counts within MESH_SNAPSHOT_MAX_TRIANGLES, a 53-bit digest. */
function checkMeshEntry(v: unknown, name: string): void {
  const m = obj(v, name)
  const count = (key: string, max: number): void => {
    const n = own(m, key)
    if (typeof n !== 'number') throw new TypeError(`${name}.${key} must be a number, got ${describe(n)}`)
    if (!Number.isInteger(n) || n < 0 || n > max) throw new RangeError(`${name}.${key} must be an integer in [0, ${max}] (MESH_SNAPSHOT_MAX_TRIANGLES), got ${n}`)
  }
  count('triangles', MESH_SNAPSHOT_MAX_TRIANGLES)
  count('vertices', 3 * MESH_SNAPSHOT_MAX_TRIANGLES)
  count('digest', Number.MAX_SAFE_INTEGER)
}

function colliderIds(sim: Sim): number[] {
  return sortedIds(sim, sim.components.Collider).filter((id) => id !== sim.ground)
}

function sortedIds(sim: Sim, component: object): number[] {
  return Array.from(query(sim.world, [component])).sort((a, b) => a - b)
}

/** Takes a snapshot of all pitlane state of `sim` (JSON-safe, versioned). */
export function snapshotWorld(sim: Sim): WorldSnapshot {
  const { components } = sim
  const { Car, Collider, Lidar } = components
  const lidarState = sim.internal.lidars
  const pool: PathPool = { list: [], byBase: new Map(), byText: new Map() }
  const cars: CarEntry[] = sortedIds(sim, Car).map((id) => ({ id, car: sim.snapshot(id), driver: snapshotDriver(sim, id, pool) }))
  const colliders = colliderIds(sim).map((id) => {
    const pose = new Float64Array(12)
    pose.set(Collider.position.subarray(3 * id, 3 * id + 3), 0)
    pose.set(Collider.rotation.subarray(9 * id, 9 * id + 9), 3)
    const entry: WorldSnapshot['colliders'][number] = { id, pose: encodeF64(pose), config: encodeF64(colliderConfig(sim, id)) }
    const mesh = meshEntry(sim, id)
    if (mesh !== undefined) entry.mesh = mesh
    return entry
  })
  const lidars = sortedIds(sim, Lidar).map((id) => {
    const pose = new Float64Array(25)
    pose.set(Lidar.offset.subarray(3 * id, 3 * id + 3), 0)
    pose.set(Lidar.rotation.subarray(9 * id, 9 * id + 9), 3)
    pose.set(Lidar.origin.subarray(3 * id, 3 * id + 3), 12)
    pose.set(Lidar.pose.subarray(9 * id, 9 * id + 9), 15)
    pose[24] = Lidar.accum[id]
    const sensor = lidarState.sensors[id]!
    const entry: WorldSnapshot['lidars'][number] = { id, pose: encodeF64(pose), config: encodeF64(lidarConfig(sim, id)), scan: encodeScan(lidarState.scans[id]!) }
    if (sensor.rotating) entry.sweep = { building: encodeScan(sensor.building!), slice: encodeScan(sensor.slice!) }
    return entry
  })
  return {
    format: WORLD_FORMAT,
    version: WORLD_VERSION,
    steps: sim.steps,
    clock: encodeF64(new Float64Array([sim.time, sim.dt])),
    cars,
    paths: pool.list,
    colliders,
    lidars,
  }
}

function own(o: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined
}

function obj(v: unknown, name: string): object {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${name} must be an object, got ${describe(v)}`)
  return v
}

function list(v: unknown, name: string): unknown[] {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array, got ${describe(v)}`)
  if (v.length > LIMIT) throw new RangeError(`${name} is oversized: ${v.length} entries`)
  return v
}

function entityId(v: unknown, name: string, prev: number): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be an entity id, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) throw new RangeError(`${name} must be a non-negative integer entity id, got ${v}`)
  if (v <= prev) throw new RangeError(`${name} must be greater than the id before it (ids ascend), got ${v}`)
  return v
}

function allFinite(a: Float64Array, count: number, name: string): void {
  for (let k = 0; k < count; k++) if (!Number.isFinite(a[k])) throw new RangeError(`${name}[${k}] must be finite, got ${a[k]}`)
}

/**
 * Checks the shape of a world snapshot (format, version, every field's type, sizes, finiteness)
 * without looking at a sim; returns it typed. Throws TypeError/RangeError naming the bad field.
 */
export function checkWorldSnapshot(snap: unknown, name = 'snap'): WorldSnapshot {
  const s = obj(snap, name)
  if (own(s, 'format') !== WORLD_FORMAT) throw new TypeError(`${name}.format must be '${WORLD_FORMAT}', got ${describe(own(s, 'format'))}`)
  if (own(s, 'version') !== WORLD_VERSION) throw new RangeError(`${name}.version ${describe(own(s, 'version'))} is not supported (this build reads ${WORLD_VERSION})`)
  const steps = own(s, 'steps')
  if (typeof steps !== 'number') throw new TypeError(`${name}.steps must be a number, got ${describe(steps)}`)
  if (!Number.isSafeInteger(steps) || steps < 0) throw new RangeError(`${name}.steps must be a non-negative integer, got ${steps}`)
  const clock = decodeF64(own(s, 'clock'), `${name}.clock`, 2)
  if (!Number.isFinite(clock[0]) || clock[0] < 0) throw new RangeError(`${name}.clock time must be finite and >= 0, got ${clock[0]}`)
  if (!Number.isFinite(clock[1]) || clock[1] < 0) throw new RangeError(`${name}.clock lastDt must be finite and >= 0, got ${clock[1]}`)
  let prev = -1
  list(own(s, 'cars'), `${name}.cars`).forEach((c, i) => {
    const n = `${name}.cars[${i}]`
    const e = obj(c, n)
    prev = entityId(own(e, 'id'), `${n}.id`, prev)
    if (own(e, 'car') === null || typeof own(e, 'car') !== 'object') throw new TypeError(`${n}.car must be a car snapshot (object), got ${describe(own(e, 'car'))}`)
    const driver = own(e, 'driver')
    if (driver !== null && typeof driver !== 'object') throw new TypeError(`${n}.driver must be driver data or null, got ${describe(driver)}`)
  })
  list(own(s, 'paths'), `${name}.paths`).forEach((p, i) => {
    const n = `${name}.paths[${i}]`
    const e = obj(p, n)
    const x = decodeF64(own(e, 'x'), `${n}.x`)
    const y = decodeF64(own(e, 'y'), `${n}.y`, x.length)
    for (let k = 0; k < x.length; k++) if (!Number.isFinite(x[k]) || !Number.isFinite(y[k])) throw new RangeError(`${n} point ${k} must be finite, got (${x[k]}, ${y[k]})`)
  })
  prev = -1
  list(own(s, 'colliders'), `${name}.colliders`).forEach((c, i) => {
    const n = `${name}.colliders[${i}]`
    const e = obj(c, n)
    prev = entityId(own(e, 'id'), `${n}.id`, prev)
    if (own(e, 'mesh') !== undefined) checkMeshEntry(own(e, 'mesh'), `${n}.mesh`)
    allFinite(decodeF64(own(e, 'pose'), `${n}.pose`, 12), 12, `${n}.pose`)
    decodeF64(own(e, 'config'), `${n}.config`, 8)
  })
  prev = -1
  list(own(s, 'lidars'), `${name}.lidars`).forEach((c, i) => {
    const n = `${name}.lidars[${i}]`
    const e = obj(c, n)
    prev = entityId(own(e, 'id'), `${n}.id`, prev)
    const pose = decodeF64(own(e, 'pose'), `${n}.pose`, 25)
    allFinite(pose, 12, `${n}.pose`)
    if (!(Number.isFinite(pose[24]) && pose[24] >= 0)) throw new RangeError(`${n}.pose accum must be finite and >= 0, got ${pose[24]}`)
    decodeF64(own(e, 'config'), `${n}.config`, 11)
    checkScanEntry(own(e, 'scan'), `${n}.scan`)
    if (own(e, 'sweep') !== undefined) checkSweepEntry(own(e, 'sweep'), `${n}.sweep`)
  })
  return s as WorldSnapshot
}

function sameIds(have: number[], want: { id: number }[], what: string): void {
  const a = want.map((e) => e.id)
  if (a.length !== have.length || a.some((id, i) => id !== have[i])) {
    const missing = a.filter((id) => !have.includes(id))
    const extra = have.filter((id) => !a.includes(id))
    throw new RangeError(`snap does not match this sim's ${what}` + (missing.length ? ` (missing: ${missing.slice(0, 5).join(', ')})` : '') + (extra.length ? ` (not in snap: ${extra.slice(0, 5).join(', ')})` : ''))
  }
}

/** Checks `snap` against `sim` (same cars, colliders and lidars, scans that fit their patterns). */
function checkAgainst(sim: Sim, snap: WorldSnapshot): void {
  const { Car, Lidar } = sim.components
  sameIds(sortedIds(sim, Car), snap.cars, 'cars')
  sameIds(colliderIds(sim), snap.colliders, 'colliders')
  sameIds(sortedIds(sim, Lidar), snap.lidars, 'lidars')
  const defs = sim.internal.vehicles.defs
  const paths = pathCache(snap.paths, 'snap.paths')
  snap.cars.forEach((c, i) => {
    try { decodeSnapshot(defs[c.id]!, c.car) } catch (e) { rethrow(e, `snap.cars[${i}].car`) }
    checkDriver(sim, c.driver, paths, `snap.cars[${i}].driver`)
  })
  const sameBits = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, k) => Object.is(v, b[k]))
  snap.colliders.forEach((c, i) => {
    if (!sameBits(decodeF64(c.config, 'config'), colliderConfig(sim, c.id))) throw new RangeError(`snap.colliders[${i}].config: collider ${c.id} has another shape, group or ids in this sim`)
    const have = meshEntry(sim, c.id), want = c.mesh
    if ((have === undefined) !== (want === undefined) || (have !== undefined && (have.triangles !== want!.triangles || have.vertices !== want!.vertices || have.digest !== want!.digest))) {
      throw new RangeError(`snap.colliders[${i}].mesh: collider ${c.id} has another mesh in this sim (${have ? `${have.triangles} triangles` : 'none'}; the snapshot's: ${want ? `${want.triangles} triangles` : 'none'})`)
    }
  })
  snap.lidars.forEach((l, i) => {
    if (!sameBits(decodeF64(l.config, 'config'), lidarConfig(sim, l.id))) throw new RangeError(`snap.lidars[${i}].config: lidar ${l.id} has another mount, pattern, range, mask or rate in this sim`)
    const rays = Lidar.yawCount[l.id] * Lidar.pitchCount[l.id], lidars = sim.internal.lidars
    checkScanFits(l.scan, lidars.scans[l.id]!, rays, l.id, `snap.lidars[${i}].scan`)
    checkSweepFits(l.sweep, lidars.sensors[l.id]!, rays, l.id, `snap.lidars[${i}].sweep`)
  })
}

function apply(sim: Sim, snap: WorldSnapshot): void {
  const { Collider, Lidar } = sim.components
  const lidarState = sim.internal.lidars
  const paths = pathCache(snap.paths, 'snap.paths')
  for (const c of snap.cars) {
    sim.restore(c.id, c.car)
    restoreDriver(sim, c.id, c.driver as DriverEntry | null, paths)
  }
  for (const c of snap.colliders) {
    const pose = decodeF64(c.pose, 'pose', 12)
    // Only a real move is applied: setPose moves a collider into the dynamic tree for good.
    let same = true
    for (let k = 0; k < 3; k++) if (!Object.is(Collider.position[3 * c.id + k], pose[k])) same = false
    for (let k = 0; k < 9; k++) if (!Object.is(Collider.rotation[9 * c.id + k], pose[3 + k])) same = false
    if (!same) sim.internal.collision.setPose(c.id, pose.subarray(0, 3), pose.subarray(3, 12))
  }
  for (const l of snap.lidars) {
    const id = l.id
    const pose = decodeF64(l.pose, 'pose', 25)
    if (Lidar.mount[id] < 0) lidarState.setPose(id, pose.subarray(0, 3), pose.subarray(3, 12))
    Lidar.origin.set(pose.subarray(12, 15), 3 * id)
    Lidar.pose.set(pose.subarray(15, 24), 9 * id)
    Lidar.accum[id] = pose[24]
    restoreScan(lidarState.scans[id]!, l.scan)
    const sensor = lidarState.sensors[id]!
    if (l.sweep !== undefined) { restoreScan(sensor.building!, l.sweep.building); restoreScan(sensor.slice!, l.sweep.slice) }
  }
  const clock = decodeF64(snap.clock, 'clock', 2)
  const simClock = sim.internal.clock
  simClock.steps = snap.steps
  simClock.time = clock[0]
  simClock.dt = clock[1]
}

/**
 * Puts `sim` back to `snap` (from snapshotWorld). The sim must hold the same cars, colliders
 * and lidars (same entity ids). The snapshot is validated first; if a domain still refuses its part,
 * the world is put back as it was before the call and the error is rethrown.
 */
export function restoreWorld(sim: Sim, snap: unknown): void {
  if (sim === null || typeof sim !== 'object' || !sim.components) throw new TypeError(`sim must be a pitlane Sim, got ${describe(sim)}`)
  const s = checkWorldSnapshot(snap, 'snap')
  checkAgainst(sim, s)
  const backup = snapshotWorld(sim)
  try {
    apply(sim, s)
  } catch (e) {
    apply(sim, backup)
    throw e
  }
}
