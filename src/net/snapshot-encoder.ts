/**
 * createSnapshotEncoder: the server side of the snapshot stream to ONE client. It keeps the
 * snapshots it sent (by tick) so that the next one is a delta against the one the client last
 * acknowledged, or a full one when it no longer holds that. Format: snapshot-format.ts.
 */
import { observe, onRemove, query } from 'bitecs'
import type { CarDefinition, Sim } from '../index'
import { optionKeys, optionsObject, nonNegativeInteger } from '../validate'
import { ByteWriter } from './bytes'
import { captureDynamic, capturePose, DYNAMIC_FIELDS, POSE_FIELDS, predictDynamic, predictPose } from './fields'
import { checkDefinitions } from './definitions'
import { MAX_SEQ } from './input'
import {
  FLAG_DYNAMIC, FLAG_DYNAMIC_ABSOLUTE, FLAG_NEW, SNAPSHOT_FORMAT_VERSION, SNAPSHOT_KIND,
  type CarRecord, type SnapshotEntry,
} from './snapshot-format'

/** Options of createSnapshotEncoder. */
export interface SnapshotEncoderOptions {
  /** The car definitions a new car is sent as an index into; the client's decoder must have the same list (default [presets.hatchback]). */
  definitions?: readonly CarDefinition[]
  /** How many sent snapshots are kept as possible baselines (default 64: 3.2 s at 20 Hz). */
  history?: number
}

/** Per-client extras of one snapshot. */
export interface SnapshotExtras {
  /** The client's own car (an entity of the server sim): sent with its dynamic state, for prediction. */
  car?: number
  /** The sequence number of the client's input last applied to its car (createInputReceiver's lastInput); −1 or absent: none. */
  lastInput?: number
}

/** The snapshot stream to one client. */
export interface SnapshotEncoder {
  /**
   * A snapshot of the sim's cars now (tick = sim.steps): a delta against the snapshot of tick
   * `ack` (the tick the client last acknowledged: its decoder's decode() result) when this encoder
   * still holds it, else a full one.
   */
  encode(ack?: number, extras?: SnapshotExtras): Uint8Array
  /** The car id the snapshots give `car` (a server entity), or −1 if none was sent yet. */
  carId(car: number): number
  /** Stops watching the sim for removed cars (the encoder is unusable afterwards). */
  dispose(): void
}

const OPTION_KEYS = optionKeys<SnapshotEncoderOptions>({ definitions: true, history: true })
const EXTRA_KEYS = optionKeys<SnapshotExtras>({ car: true, lastInput: true })

/** Creates the snapshot encoder for one client of `sim` (see SnapshotEncoder). */
export function createSnapshotEncoder(sim: Sim, options?: SnapshotEncoderOptions): SnapshotEncoder {
  const o = optionsObject<SnapshotEncoderOptions>(options, 'options', OPTION_KEYS)
  const defs = checkDefinitions(o.definitions, 'options.definitions')
  const capacity = o.history === undefined ? 64 : nonNegativeInteger(o.history, 'options.history')
  if (capacity < 1) throw new RangeError(`options.history must be at least 1, got ${capacity}`)
  const world = sim.world
  const Car = sim.components.Car
  // Car ids: a fresh id for each car this encoder sees, so a recycled entity id never reads as the car it replaced.
  const idOf: number[] = []
  const defOf: number[] = []
  let nextId = 0
  let disposed = false
  const unobserve = observe(world, onRemove(Car), (eid: number) => { idOf[eid] = -1 })
  const history = new Map<number, SnapshotEntry>()
  const w = new ByteWriter()
  const predicted = new Float64Array(Math.max(POSE_FIELDS, DYNAMIC_FIELDS))
  const residual = new Float64Array(Math.max(POSE_FIELDS, DYNAMIC_FIELDS))

  function definitionIndex(car: number): number {
    const json = JSON.stringify(sim.carDefinition(car))
    const i = defs.json.indexOf(json)
    if (i < 0) throw new RangeError(`car ${car}'s definition (${sim.carDefinition(car).name}) is not in the encoder's definitions (${defs.list.map((d) => d.name).join(', ')})`)
    return i
  }

  // Residuals of `value` against `pred` into `residual`; returns the mask of non-zero ones.
  function residuals(value: Float64Array, pred: Float64Array | null, n: number): number {
    let mask = 0
    for (let i = 0; i < n; i++) {
      residual[i] = pred ? value[i] - pred[i] : value[i]
      if (residual[i] !== 0) mask |= 1 << i
    }
    return mask
  }

  function writeResiduals(mask: number, n: number): void {
    for (let i = 0; i < n; i++) if (mask & (1 << i)) w.svar(residual[i])
  }

  function capture(ownCar: number): SnapshotEntry {
    const cars = new Map<number, CarRecord>()
    const list = query(world, [Car])
    for (let k = 0; k < list.length; k++) {
      const car = list[k]
      if (idOf[car] === undefined || idOf[car] < 0) {
        defOf[car] = definitionIndex(car)
        idOf[car] = nextId++
      }
      const pose = new Float64Array(POSE_FIELDS)
      capturePose(sim, car, pose)
      let dyn: Float64Array | null = null
      if (car === ownCar) {
        dyn = new Float64Array(DYNAMIC_FIELDS)
        captureDynamic(sim, car, dyn)
      }
      cars.set(idOf[car], { def: defOf[car], pose, dyn })
    }
    return { tick: sim.steps, time: sim.time, cars }
  }

  function encode(ack?: number, extras?: SnapshotExtras): Uint8Array {
    if (disposed) throw new RangeError('this snapshot encoder was disposed')
    if (ack !== undefined) nonNegativeInteger(ack, 'ack')
    const x = optionsObject<SnapshotExtras>(extras, 'extras', EXTRA_KEYS)
    let ownCar = -1
    if (x.car !== undefined) {
      ownCar = nonNegativeInteger(x.car, 'extras.car')
      if (!query(world, [Car]).includes(ownCar)) throw new RangeError(`extras.car ${ownCar} is not a car of this sim`)
    }
    let lastInput = -1
    if (x.lastInput !== undefined && x.lastInput !== -1) lastInput = nonNegativeInteger(x.lastInput, 'extras.lastInput')
    if (lastInput > MAX_SEQ) throw new RangeError(`extras.lastInput must be at most ${MAX_SEQ}, got ${lastInput}`)

    const now = capture(ownCar)
    const base = ack === undefined ? undefined : history.get(ack)
    const delta = base !== undefined && base.tick < now.tick
    const dt = delta ? now.time - base.time : 0
    w.reset()
    w.u8(SNAPSHOT_KIND)
    w.u8(SNAPSHOT_FORMAT_VERSION)
    w.uvar(now.tick)
    w.f64(now.time)
    w.uvar(delta ? now.tick - base.tick : 0)
    w.uvar(ownCar < 0 ? 0 : idOf[ownCar] + 1)
    w.uvar(lastInput + 1)
    if (delta) {
      let removed = 0
      for (const id of base.cars.keys()) if (!now.cars.has(id)) removed++
      w.uvar(removed)
      for (const id of base.cars.keys()) if (!now.cars.has(id)) w.uvar(id)
    } else {
      w.uvar(0)
    }
    // Records: count first, so collect what to write
    const ids: number[] = []
    for (const [id, rec] of now.cars) {
      const was = delta ? base.cars.get(id) : undefined
      if (!was || was.def !== rec.def || !same(rec, was, dt)) ids.push(id)
    }
    w.uvar(ids.length)
    for (const id of ids) {
      const rec = now.cars.get(id)!
      let was = delta ? base.cars.get(id) : undefined
      if (was && was.def !== rec.def) was = undefined
      let flags = was ? 0 : FLAG_NEW
      if (rec.dyn) flags |= FLAG_DYNAMIC | (was && was.dyn ? 0 : FLAG_DYNAMIC_ABSOLUTE)
      if (was) predictPose(was.pose, dt, predicted)
      const poseMask = residuals(rec.pose, was ? predicted : null, POSE_FIELDS)
      w.uvar(id)
      w.uvar(poseMask * 8 + flags)
      if (!was) w.uvar(rec.def)
      writeResiduals(poseMask, POSE_FIELDS)
      if (rec.dyn) {
        const dynBase = was && was.dyn
        if (dynBase) predictDynamic(dynBase, dt, predicted)
        const dynMask = residuals(rec.dyn, dynBase ? predicted : null, DYNAMIC_FIELDS)
        w.uvar(dynMask)
        writeResiduals(dynMask, DYNAMIC_FIELDS)
      }
    }
    history.delete(now.tick)
    history.set(now.tick, now)
    if (history.size > capacity) history.delete(history.keys().next().value as number)
    return w.bytes()
  }

  // True when `rec` equals the prediction from `was` (so a delta may leave it out).
  function same(rec: CarRecord, was: CarRecord, dt: number): boolean {
    if ((rec.dyn === null) !== (was.dyn === null)) return false
    predictPose(was.pose, dt, predicted)
    for (let i = 0; i < POSE_FIELDS; i++) if (rec.pose[i] !== predicted[i]) return false
    if (rec.dyn && was.dyn) {
      predictDynamic(was.dyn, dt, predicted)
      for (let i = 0; i < DYNAMIC_FIELDS; i++) if (rec.dyn[i] !== predicted[i]) return false
    }
    return true
  }

  return {
    encode,
    carId(car) {
      const id = idOf[car]
      return id === undefined ? -1 : id
    },
    dispose() {
      if (!disposed) unobserve()
      disposed = true
      history.clear()
    },
  }
}
