/**
 * createSnapshotDecoder: the client side of the snapshot stream. It reads a whole snapshot and
 * checks it (format, baseline, every value within what sim.restore accepts) before it changes
 * anything, then applies it to its sim: mirror cars are added and removed to match the server's,
 * the server's car ids mapped to local entity ids (the client never needs matching ids). The
 * other cars are kept 'frozen' (drawn from the snapshots, never stepped by the client), the
 * client's own car at its own level ('full' by default) with the server's whole state, so the
 * prediction can replay from it. Format: snapshot-format.ts.
 */
import { observe, onRemove } from 'bitecs'
import type { CarDefinition, CarSnapshot, Sim } from '../index'
import { nonNegativeInteger, optionKeys, optionsObject } from '../validate'
import { assertBytes, ByteReader } from './bytes'
import {
  D_ACC, D_AX, D_ENGINE, D_HEAVE_RATE, D_HZ, D_LEVEL, D_PITCH_RATE, D_ROLL_RATE, D_SHIFT, D_SPEED, D_TIME, D_WHEEL, DYNAMIC_FIELDS,
  dynamicProblem, dynamicValue, P_GEAR, P_HEADING, P_HEAVE, P_PITCH, P_ROLL, P_STEER, P_VX, P_VY, P_X, P_Y, P_YAW_RATE,
  POSE_FIELDS, poseProblem, poseValue, predictDynamic, predictPose, WIRE_LEVELS,
} from './fields'
import { checkDefinitions } from './definitions'
import { MAX_SEQ } from './input'
import {
  DYNAMIC_MASK_MAX, FLAG_DYNAMIC, FLAG_DYNAMIC_ABSOLUTE, FLAG_NEW, MAX_CAR_ID, MAX_CARS, MAX_TIME, POSE_MASK_MAX,
  SNAPSHOT_FORMAT_VERSION, SNAPSHOT_KIND, type CarRecord, type SnapshotEntry,
} from './snapshot-format'

/** Options of createSnapshotDecoder. */
export interface SnapshotDecoderOptions {
  /** The car definitions, the same list as the server encoder's (default [presets.hatchback]). */
  definitions?: readonly CarDefinition[]
  /** How many decoded snapshots are kept as baselines for later deltas (default 64). */
  history?: number
}

/** The client side of a snapshot stream. */
export interface SnapshotDecoder {
  /**
   * Checks `bytes` whole, then applies the snapshot to the sim; returns its tick, the one to
   * acknowledge to the server. A snapshot not newer than the last applied one is checked, not
   * applied, and the last applied tick is returned (a baseline this decoder holds). Malformed
   * bytes: a RangeError (TypeError for a non-Uint8Array), and nothing changes.
   */
  decode(bytes: Uint8Array): number
  /** Tick of the last applied snapshot, −1 before the first. */
  readonly tick: number
  /** Server sim time of the last applied snapshot, s (NaN before the first). */
  readonly time: number
  /** The local entity of the client's own car (as the last snapshot named it), or −1. */
  readonly ownCar: number
  /** The sequence number of the client's last input the server applied (per the last snapshot), or −1. */
  readonly lastInput: number
  /** The local entity mirroring server car id `id`, or −1. */
  localCar(id: number): number
  /** The server car id `car` (a local entity) mirrors, or −1. */
  serverCar(car: number): number
  /** Stops watching the sim for removed mirrors (the decoder keeps working, but a mirror removed by someone else afterwards is not noticed). */
  dispose(): void
}

const OPTION_KEYS = optionKeys<SnapshotDecoderOptions>({ definitions: true, history: true })

/** A parsed, checked snapshot, not applied yet. */
interface Parsed extends SnapshotEntry {
  own: number
  lastInput: number
}

/** Creates the snapshot decoder that mirrors a server's cars into `sim` (see SnapshotDecoder). */
export function createSnapshotDecoder(sim: Sim, options?: SnapshotDecoderOptions): SnapshotDecoder {
  const o = optionsObject<SnapshotDecoderOptions>(options, 'options', OPTION_KEYS)
  const defs = checkDefinitions(o.definitions, 'options.definitions')
  const capacity = o.history === undefined ? 64 : nonNegativeInteger(o.history, 'options.history')
  if (capacity < 1) throw new RangeError(`options.history must be at least 1, got ${capacity}`)
  const r = new ByteReader()
  const history = new Map<number, SnapshotEntry>()
  const localOf = new Map<number, number>()
  const serverOf = new Map<number, number>()
  let tick = -1
  let time = NaN
  let ownCar = -1
  let lastInput = -1
  const residual = new Float64Array(Math.max(POSE_FIELDS, DYNAMIC_FIELDS))
  // A mirror removed by anyone (the decoder, the user) is forgotten at once, so a recycled entity
  // id is never taken for it; the next snapshot makes a new mirror.
  const unobserve = observe(sim.world, onRemove(sim.components.Car), (eid: number) => {
    const id = serverOf.get(eid)
    if (id === undefined) return
    serverOf.delete(eid)
    localOf.delete(id)
    if (ownCar === eid) ownCar = -1
  })

  function readResiduals(mask: number, n: number, what: string): void {
    for (let i = 0; i < n; i++) residual[i] = mask & (1 << i) ? r.svar(`${what} field ${i}`) : 0
  }

  function parse(bytes: Uint8Array): Parsed {
    r.reset(bytes, 'snapshot')
    const kind = r.u8('kind')
    if (kind !== SNAPSHOT_KIND) throw new RangeError(`snapshot kind must be 0x${SNAPSHOT_KIND.toString(16)}, got 0x${kind.toString(16)}`)
    const version = r.u8('version')
    if (version !== SNAPSHOT_FORMAT_VERSION) throw new RangeError(`snapshot version must be ${SNAPSHOT_FORMAT_VERSION}, got ${version}`)
    const t = r.uvar('tick')
    const now = r.f64('time')
    if (now < 0 || now > MAX_TIME) throw new RangeError(`snapshot time must be in [0, ${MAX_TIME}], got ${now}`)
    const baseOffset = r.uvar('base', t)
    let base: SnapshotEntry | undefined
    if (baseOffset > 0) {
      base = history.get(t - baseOffset)
      if (!base) throw new RangeError(`snapshot ${t} is a delta against snapshot ${t - baseOffset}, which this decoder does not hold`)
      if (!(now >= base.time)) throw new RangeError(`snapshot time ${now} is before its baseline's ${base.time}`)
    }
    const dt = base ? now - base.time : 0
    const own = r.uvar('own car', MAX_CAR_ID + 1) - 1
    const last = r.uvar('last input', MAX_SEQ + 1) - 1
    const removedCount = r.uvar('removed count', MAX_CARS)
    if (!base && removedCount > 0) throw new RangeError('a full snapshot removes no cars by id')
    const removed = new Set<number>()
    for (let i = 0; i < removedCount; i++) {
      const id = r.uvar('removed car id', MAX_CAR_ID)
      if (!base!.cars.has(id) || removed.has(id)) throw new RangeError(`snapshot removes car ${id}, which its baseline does not hold (or removes it twice)`)
      removed.add(id)
    }
    const cars = new Map<number, CarRecord>()
    const count = r.uvar('record count', MAX_CARS)
    const listed = new Set<number>()
    for (let k = 0; k < count; k++) {
      const id = r.uvar('car id', MAX_CAR_ID)
      if (listed.has(id) || removed.has(id)) throw new RangeError(`snapshot lists car ${id} twice (or lists a removed car)`)
      listed.add(id)
      const head = r.uvar('record head', POSE_MASK_MAX * 8 + 7)
      const flags = head % 8
      const poseMask = (head - flags) / 8
      const was = base?.cars.get(id)
      let def: number
      if (flags & FLAG_NEW) {
        if (was) throw new RangeError(`snapshot adds car ${id}, which its baseline already holds`)
        def = r.uvar('definition index', defs.list.length - 1)
      } else {
        if (!was) throw new RangeError(`snapshot updates car ${id}, which its baseline does not hold`)
        def = was.def
      }
      if (flags & FLAG_DYNAMIC_ABSOLUTE && !(flags & FLAG_DYNAMIC)) throw new RangeError(`snapshot car ${id}: absolute dynamic flag without dynamic fields`)
      const pose = new Float64Array(POSE_FIELDS)
      if (was) predictPose(was.pose, dt, pose)
      readResiduals(poseMask, POSE_FIELDS, `car ${id} pose`)
      for (let i = 0; i < POSE_FIELDS; i++) pose[i] += residual[i]
      const poseBad = poseProblem(pose)
      if (poseBad) throw new RangeError(`snapshot car ${id}: ${poseBad}`)
      if (pose[P_GEAR] > defs.gears[def]) throw new RangeError(`snapshot car ${id}: gear ${pose[P_GEAR]} beyond its definition's ${defs.gears[def]}`)
      let dyn: Float64Array | null = null
      if (flags & FLAG_DYNAMIC) {
        const absolute = (flags & FLAG_DYNAMIC_ABSOLUTE) !== 0
        if (!absolute && !(was && was.dyn)) throw new RangeError(`snapshot car ${id}: dynamic fields relative to a baseline that has none`)
        const dynMask = r.uvar(`car ${id} dynamic mask`, DYNAMIC_MASK_MAX)
        dyn = new Float64Array(DYNAMIC_FIELDS)
        if (!absolute) predictDynamic(was!.dyn!, dt, dyn)
        readResiduals(dynMask, DYNAMIC_FIELDS, `car ${id} dynamic`)
        for (let i = 0; i < DYNAMIC_FIELDS; i++) dyn[i] += residual[i]
        const dynBad = dynamicProblem(dyn)
        if (dynBad) throw new RangeError(`snapshot car ${id}: ${dynBad}`)
      }
      cars.set(id, { def, pose, dyn })
    }
    r.end()
    // The baseline's cars neither listed nor removed are their prediction.
    if (base) {
      for (const [id, was] of base.cars) {
        if (listed.has(id) || removed.has(id)) continue
        const pose = new Float64Array(POSE_FIELDS)
        predictPose(was.pose, dt, pose)
        let dyn: Float64Array | null = null
        if (was.dyn) { dyn = new Float64Array(DYNAMIC_FIELDS); predictDynamic(was.dyn, dt, dyn) }
        const bad = poseProblem(pose) ?? (dyn && dynamicProblem(dyn))
        if (bad) throw new RangeError(`snapshot car ${id} (predicted from the baseline): ${bad}`)
        cars.set(id, { def: was.def, pose, dyn })
      }
    }
    if (own >= 0 && !cars.has(own)) throw new RangeError(`snapshot names car ${own} the client's own, but holds no such car`)
    return { tick: t, time: now, cars, own, lastInput: last }
  }

  // Writes a record into a sim snapshot of local car `local` (inputs kept; a mirror frozen, the
  // own car at the server's level and rate, so its prediction runs the server's model).
  function write(snap: CarSnapshot, rec: CarRecord, own: boolean, local: number): void {
    const s = snap.state
    const p = rec.pose
    const heading = poseValue(p, P_HEADING)
    const c = Math.cos(heading), sn = Math.sin(heading)
    const vxw = poseValue(p, P_VX), vyw = poseValue(p, P_VY)
    s.x = poseValue(p, P_X)
    s.y = poseValue(p, P_Y)
    s.heading = heading
    s.vx = vxw * c + vyw * sn
    s.vy = -vxw * sn + vyw * c
    s.yawRate = poseValue(p, P_YAW_RATE)
    s.roll = poseValue(p, P_ROLL)
    s.pitch = poseValue(p, P_PITCH)
    s.heave = poseValue(p, P_HEAVE)
    s.steerAngle = poseValue(p, P_STEER)
    s.gearActual = p[P_GEAR]
    s.speed = s.vx
    const d = rec.dyn
    if (d) {
      s.speed = dynamicValue(d, D_SPEED)
      s.heaveRate = dynamicValue(d, D_HEAVE_RATE)
      s.rollRate = dynamicValue(d, D_ROLL_RATE)
      s.pitchRate = dynamicValue(d, D_PITCH_RATE)
      s.engineSpeed = dynamicValue(d, D_ENGINE)
      s.shiftTimer = dynamicValue(d, D_SHIFT)
      s.ax = dynamicValue(d, D_AX)
      s.time = dynamicValue(d, D_TIME)
      s.acc = dynamicValue(d, D_ACC)
      s.wheelSpeed = [dynamicValue(d, D_WHEEL), dynamicValue(d, D_WHEEL + 1), dynamicValue(d, D_WHEEL + 2), dynamicValue(d, D_WHEEL + 3)]
    }
    if (!own || !d) {
      snap.level = 'frozen'
      return
    }
    // the server's 'path' level follows its driver's line, which a client lacks: single-track here
    const level = WIRE_LEVELS[d[D_LEVEL]]
    snap.hz = dynamicValue(d, D_HZ)
    if (level === 'full') { snap.level = 'full'; snap.model = sim.carDefinition(local).model }
    else if (level === 'frozen') snap.level = 'frozen'
    else { snap.level = 'singleTrack'; snap.model = 'singleTrack' }
  }

  function apply(p: Parsed): void {
    // mirrors of cars the snapshot no longer holds go first (the observer forgets them): their ids may be reused below
    for (const [id, local] of [...localOf]) if (!p.cars.has(id)) sim.remove(local)
    for (const [id, rec] of p.cars) {
      const own = id === p.own
      let local = localOf.get(id)
      if (local === undefined) {
        local = sim.addCar({ definition: defs.list[rec.def], lod: 'frozen' })
        localOf.set(id, local)
        serverOf.set(local, id)
      }
      const snap = sim.snapshot(local)
      write(snap, rec, own, local)
      sim.restore(local, snap)
    }
    tick = p.tick
    time = p.time
    ownCar = p.own >= 0 ? localOf.get(p.own)! : -1
    lastInput = p.lastInput
    history.delete(p.tick)
    history.set(p.tick, { tick: p.tick, time: p.time, cars: p.cars })
    if (history.size > capacity) history.delete(history.keys().next().value as number)
  }

  return {
    decode(bytes) {
      assertBytes(bytes, 'bytes')
      const p = parse(bytes)
      if (p.tick > tick) apply(p)
      return tick
    },
    get tick() { return tick },
    get time() { return time },
    get ownCar() { return ownCar },
    get lastInput() { return lastInput },
    localCar(id) {
      return localOf.get(id) ?? -1
    },
    serverCar(car) {
      return serverOf.get(car) ?? -1
    },
    dispose() {
      unobserve()
    },
  }
}
