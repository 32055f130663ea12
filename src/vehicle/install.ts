/** The vehicle domain of a sim: addCar, inputs, state, LOD switching, snapshots. Its systems are systems/step-vehicles.ts and systems/follow-cars.ts. */
import { addComponent, addEntity, entityExists, hasComponent, Not, observe, onAdd, onRemove, registerQuery, removeComponent, removeEntity, type Query, type World } from 'bitecs'
import type { Components } from '../../components/index'
import type { CarStore } from '../../components/car'
import { assertEntity } from '../entity'
import { describe, finiteNumber, optionKeys, optionsObject, positionLike } from '../validate'
import { parseRotation } from '../collision/pose'
import { writeChassisPose } from './chassis'
import { warmModels } from './warm-up'
import type { CarDefinition, ResolvedCar } from './definition'
import { resolveDefinition } from './resolve'
import { presets } from './presets'
import type { SurfaceMap } from './surfaces'
import { clearCarInput, getCarInput, setCarInput, type CarInput } from './input'
import { HZ_MAX, HZ_MIN, LEVELS, PATH_LEVEL, SINGLE_TRACK_HZ, calmBody, levelBody, tagLevel, transferModel, type Level, type PathLevelHooks } from './level'
import { decodeSnapshot, snapshotCar, writeSnapshot, type CarSnapshot } from './snapshot'
import { carState, isCarState, type CarState } from './state'
import { Hosted } from './host'
import { groundHeight, type ResolvedSimOptions } from '../options'
import type { CollisionState } from '../collision/state'
import { notGround } from '../collision/state'
import { bodyAxes, castDown, createGroundContact, downRay, levelGround, onlyLevelGround, prepareGround } from './ground-contact'
import { castGround } from '../collision/ground'

/** Largest |speed| addCar accepts, m/s (beyond any car; keeps the explicit drag term stable). */
export const MAX_SPEED = 150

/** Options of sim.addCar. */
export interface AddCarOptions {
  /** The car (default presets.hatchback). */
  definition?: CarDefinition
  /**
   * [x, y]: on its wheels on the highest surface under (x, y) (its wheels' ground, groundMask),
   * level with it. [x, y, z]: its centre of mass at height z (carState's position), level, and
   * let fall. Default [0, 0].
   */
  position?: ArrayLike<number>
  /** Heading, rad from +x towards +y. Default 0. */
  heading?: number
  /** Forward speed, m/s (|speed| ≤ 150), with the wheels rolling to match. Default 0. */
  speed?: number
  /** Level of detail. Default 'full'. */
  lod?: Level
  /** The collision groups its wheels stand on: colliders with (group & groundMask) !== 0 (never a car's chassis). Default -1 (all). */
  groundMask?: number
}

/** The keys addCar accepts. */
const ADD_CAR_KEYS = optionKeys<AddCarOptions>({ definition: true, position: true, heading: true, speed: true, lod: true, groundMask: true })

/** Vehicle state of a sim (internal). */
export interface VehicleState {
  api: {
    /** Adds a car; returns its entity id. */
    addCar(options?: AddCarOptions): number
    /** Sets part of a car's input record (validated, clamped). */
    setInput(car: number, input: Partial<CarInput>): void
    /** A car's input record. */
    getInput(car: number): CarInput
    /** A car's state; with `out` (a CarState from an earlier call) it is filled in place and returned, allocating nothing. */
    carState(car: number, out?: CarState): CarState
    /**
     * Moves a car to a level of detail. `hz` (60–20000) is the substep rate: for 'full' default the
     * definition's; for 'singleTrack' default 500, or the car's current single-track rate; ignored
     * (but validated) for 'frozen' and 'path' (a driven car only), which keep the car's model and rate.
     */
    setLod(car: number, level: Level, hz?: number): void
    /** A car's level of detail and substep rate. */
    getLod(car: number): { level: Level; hz: number }
    /** A car's snapshot. */
    snapshot(car: number): CarSnapshot
    /** Restores a car's snapshot. */
    restore(car: number, snap: unknown): void
    /** The definition `car` runs on, as validated at addCar (frozen: read-only). */
    carDefinition(car: number): Readonly<CarDefinition>
  }
  /** Teleports a car. */
  teleport(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void
  /** Resolved definition of each car, by entity id. */
  defs: (ResolvedCar | undefined)[]
  /** The sim's surface map, or null (tarmac everywhere). */
  surfaces: SurfaceMap | null
  /** Gravity, m/s². */
  gravity: number
  /** Ground height, m. */
  groundZ: number
  /** Writes car `eid`'s chassis collider pose from its state (no-op without a collider). */
  writeCollider(eid: number): void
  /** The sim's Car store. */
  Car: CarStore
  /** The collision domain (the wheels stand on its colliders). */
  collision: CollisionState
  /** The path level's hooks (set once the driver domain is built), or null: no car may take 'path'. */
  pathLevel: PathLevelHooks | null
  /** Registered query: cars not hosted (the vehicle system steps those whose Car.level is full or singleTrack). Call commitRemovals first. */
  stepped: Query
  /** Registered query: every car (follow-cars skips the frozen ones by Car.level). */
  cars: Query
}

/** A frozen deep copy of plain data (objects, arrays; typed arrays copied, not frozen). */
function frozenCopy<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v
  if (ArrayBuffer.isView(v)) return (v as unknown as Float64Array).slice() as unknown as T
  const out: Record<string, unknown> | unknown[] = Array.isArray(v) ? v.map(frozenCopy) : {}
  if (!Array.isArray(v)) for (const k of Object.keys(v)) (out as Record<string, unknown>)[k] = frozenCopy((v as Record<string, unknown>)[k])
  return Object.freeze(out) as T
}

/** Resolves `definition` and keeps a frozen copy of it, so later edits of the caller's object change nothing. */
function resolveFrozen(definition: CarDefinition, gravity: number, name?: string): ResolvedCar {
  const d = resolveDefinition(definition, gravity, name)
  d.def = frozenCopy(d.def)
  return d
}

/** What the vehicle domain is built from (a car's chassis is a collider of `collision`). */
export interface VehicleDeps {
  world: World
  components: Components
  options: ResolvedSimOptions
  collision: CollisionState
}

/** Builds the vehicle domain. */
export function installVehicles({ world, components: comps, options, collision }: VehicleDeps): VehicleState {
  const C = comps.Car
  const gravity = options.gravity
  const groundZ = groundHeight(options)
  const owner = { world }
  const defs: (ResolvedCar | undefined)[] = []
  const rot = new Float64Array(9)
  const defaultDef = resolveFrozen(presets.hatchback, gravity)

  function carOf(car: unknown, name = 'car'): number {
    const eid = assertEntity(owner, car, name)
    if (!hasComponent(world, eid, C) || !defs[eid]) throw new RangeError(`${name} ${eid} is not a car of this sim`)
    return eid
  }

  function writeCollider(eid: number): void {
    const c = C.collider[eid]
    if (c < 0) return
    writeChassisPose(collision, C, defs[eid]!, eid, groundZ)
  }

  function parseLevel(level: unknown, name = 'level'): number {
    const i = LEVELS.indexOf(level as Level)
    if (i < 0) throw new RangeError(`${name} must be one of ${LEVELS.map((l) => `'${l}'`).join(', ')}, got ${describe(level)}`)
    return i
  }

  function parseHz(hz: unknown): number | undefined {
    if (hz === undefined) return undefined
    finiteNumber(hz, 'hz')
    if ((hz as number) < HZ_MIN || (hz as number) > HZ_MAX) throw new RangeError(`hz must be in [${HZ_MIN}, ${HZ_MAX}], got ${hz}`)
    return hz as number
  }

  // Applies a validated level (and rate) to car eid: rebuilds the model when it changes.
  function applyLevel(eid: number, level: number, hz: number | undefined): void {
    const d = defs[eid]!
    const path = state.pathLevel
    if (level === PATH_LEVEL) {
      if (!path) throw new RangeError(`car ${eid} cannot take the 'path' level: this sim has no drivers`)
      path.check(eid)
    }
    if (C.level[eid] === PATH_LEVEL && level !== PATH_LEVEL) path?.leave(eid)
    // nothing but the level ground plane near: the body level at ride height, as on flat ground
    seatContact.span = 0
    levelGround(collision, seatContact)
    prepareGround(collision, C, d, eid, seatContact)
    const flat = seatContact.flat || (seatContact.count === 0 && onlyLevelGround(collision, C.groundMask[eid], seatContact))
    if (level === PATH_LEVEL) { if (C.level[eid] !== PATH_LEVEL) { if (flat) levelBody(C, eid); else calmBody(C, eid); path!.enter(eid) } }
    else if (level === 0) transferModel(C, d, eid, d.fourWheel ? 0 : 1, hz ?? d.hz, flat)
    else if (level === 1) transferModel(C, d, eid, 1, hz ?? (C.model[eid] === 1 ? C.hz[eid] : SINGLE_TRACK_HZ), flat)
    tagLevel(world, comps, eid, level)
  }

  function maskOf(v: unknown, name: string): number {
    if (typeof v !== 'number') throw new TypeError(`${name} must be an integer, got ${describe(v)}`)
    if (!Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) throw new RangeError(`${name} must be an integer in [-2147483648, 4294967295], got ${v}`)
    return v | 0
  }

  // Puts car eid on its wheels on the highest surface under its (x, y), level with it (heave,
  // roll and pitch; its rates zeroed). A world of the level ground plane alone: the level body at
  // ride height, as it always was.
  const seatContact = createGroundContact()
  seatContact.groundZ = groundZ
  // carState's wheel rays (the suspension travel on terrain): contact, ray [origin, direction, length], hit
  const stateContact = createGroundContact()
  stateContact.groundZ = groundZ
  stateContact.span = 0
  const wheelRay = new Float64Array(7), wheelHit = new Float64Array(4)

  // Each corner's compression (+) or extension (−) from static: its wheel's ray from the corner at
  // the centre of mass's height down the body's z axis over the spring's droop, as the four-wheel
  // model casts it (castWheels), the numbers through scratch arrays so nothing is boxed.
  function suspensionOnGround(d: ResolvedCar, eid: number, out: number[]): void {
    bodyAxes(C, eid, stateContact)
    const ex = stateContact.ex, ey = stateContact.ey, ez = stateContact.ez, ray = wheelRay
    for (let i = 0; i < 4; i++) {
      // (the origin read in the loop, not hoisted: decision 0007's on-stack-replacement trap boxes doubles set before a loop)
      const ox = C.x[eid], oy = C.y[eid], oz = groundZ + d.h + C.heave[eid]
      const front = i < 2
      const x = front ? d.a : -d.b, y = (i & 1 ? -0.5 : 0.5) * (front ? d.tf : d.tr)
      const droop = front ? d.fzF / d.kF : d.fzR / d.kR
      // lifted d.h above the corner, so a wheel already below the surface still finds it
      ray[0] = ox + x * ex[0] + y * ey[0] + d.h * ez[0]
      ray[1] = oy + x * ex[1] + y * ey[1] + d.h * ez[1]
      ray[2] = oz + x * ex[2] + y * ey[2] + d.h * ez[2]
      ray[3] = -ez[0]; ray[4] = -ez[1]; ray[5] = -ez[2]; ray[6] = 2 * d.h + droop
      const e = castGround(collision, ray, stateContact.mask, stateContact.cands, stateContact.count, wheelHit)
      const travel = e < 0 ? droop : wheelHit[0] - 2 * d.h
      out[i] = -(travel < droop ? travel : droop)
    }
  }
  function seat(eid: number): void {
    const d = defs[eid]!
    const mask = C.groundMask[eid]
    if (collision.groundBodies === 0 && onlyLevelGround(collision, mask, seatContact)) { levelBody(C, eid); return }
    seatContact.mask = mask
    const top = groundZ + 1e4
    downRay[0] = C.x[eid]; downRay[1] = C.y[eid]; downRay[2] = top; downRay[3] = 2e4
    levelBody(C, eid)
    if (!castDown(collision, seatContact, true)) return
    const t = seatContact.dist[0]
    const nx = seatContact.nx[0], ny = seatContact.ny[0], nz = seatContact.nz[0]
    const cp = Math.cos(C.heading[eid]), sp = Math.sin(C.heading[eid])
    C.heave[eid] = top - t + d.h / nz - groundZ - d.h
    C.pitch[eid] = Math.atan2(nx * cp + ny * sp, nz)
    C.roll[eid] = Math.atan2(nx * sp - ny * cp, nz)
  }

  function addCar(options?: AddCarOptions): number {
    const o = optionsObject<AddCarOptions>(options, 'options', ADD_CAR_KEYS)
    const d = o.definition === undefined ? defaultDef : resolveFrozen(o.definition, gravity, 'options.definition')
    const p = o.position === undefined ? [0, 0, NaN] : positionLike(o.position, 'options.position')
    const heading = o.heading === undefined ? 0 : finiteNumber(o.heading, 'options.heading')
    const speed = o.speed === undefined ? 0 : finiteNumber(o.speed, 'options.speed')
    if (Math.abs(speed) > MAX_SPEED) throw new RangeError(`options.speed must be in [-${MAX_SPEED}, ${MAX_SPEED}] m/s, got ${speed}`)
    const level = o.lod === undefined ? 0 : parseLevel(o.lod, 'options.lod')
    const groundMask = o.groundMask === undefined ? -1 : maskOf(o.groundMask, 'options.groundMask')
    if (level === PATH_LEVEL) throw new RangeError("options.lod 'path' needs a driver, which a new car does not have: add the car, call sim.setAi, then sim.setLod(car, 'path')")
    warmModels(d, gravity)
    const eid = addEntity(world)
    adding = true
    try { addComponent(world, eid, C) } finally { adding = false }
    defs[eid] = d
    // ids are recycled at once: write every field
    clearCarInput(C, eid)
    C.wheelbase[eid] = d.L
    C.maxSteer[eid] = d.maxSteer
    C.x[eid] = p[0]
    C.y[eid] = p[1]
    C.heading[eid] = heading
    C.vx[eid] = speed
    C.vy[eid] = 0
    C.yawRate[eid] = 0
    C.speed[eid] = speed
    C.wheelSpeed.fill(speed / d.R, eid * 4, eid * 4 + 4)
    C.steerAngle[eid] = 0
    C.engineSpeed[eid] = d.idleW
    C.gearActual[eid] = 0
    C.shiftTimer[eid] = 0
    C.ax[eid] = 0
    C.time[eid] = 0
    C.acc[eid] = 0
    C.model[eid] = d.fourWheel ? 0 : 1
    C.hz[eid] = d.hz
    C.collider[eid] = -1
    C.groundMask[eid] = groundMask
    C.grounded.fill(1, eid * 4, eid * 4 + 4)
    if (p[2] === p[2]) { C.heave[eid] = p[2] - groundZ - d.h; C.grounded.fill(0, eid * 4, eid * 4 + 4) }
    else seat(eid)
    applyLevel(eid, level, undefined)
    const def = d.def
    C.collider[eid] = collision.api.addCollider({ kind: 'box', halfExtents: [0.5 * def.length, 0.5 * def.width, 0.5 * def.height] }, { object: eid, localId: 0, name: `car ${eid} chassis` })
    notGround(collision, C.collider[eid])
    writeCollider(eid)
    return eid
  }

  // A car needs a definition, so only addCar makes one: a raw addComponent(world, eid, Car) is
  // undone and refused at once (a car without a definition would break the next step).
  let adding = false
  observe(world, onAdd(C), (eid: number) => {
    if (adding) return
    C.collider[eid] = -1
    removeComponent(world, eid, C)
    throw new TypeError(`entity ${eid}: make cars with sim.addCar(options), not addComponent(world, eid, Car) (a car needs a definition)`)
  })

  // Cleanup on any removal (sim.remove or a raw removeEntity): the chassis collider goes too.
  observe(world, onRemove(C), (eid: number) => {
    const c = C.collider[eid]
    C.collider[eid] = -1
    defs[eid] = undefined
    if (c >= 0 && entityExists(world, c) && hasComponent(world, c, comps.Collider)) removeEntity(world, c)
  })
  // A chassis collider removed on its own: the car forgets it (its id may be recycled at once).
  observe(world, onRemove(comps.Collider), (eid: number) => {
    const car = comps.Collider.object[eid]
    if (car >= 0 && car < defs.length && defs[car] && C.collider[car] === eid) C.collider[car] = -1
  })

  function teleport(car: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void {
    const eid = carOf(car, 'eid')
    const p = positionLike(position, 'position')
    let heading = C.heading[eid]
    if (rotation !== undefined) {
      parseRotation(rotation, 'rotation', rot)
      heading = Math.atan2(rot[3], rot[0])
    }
    C.x[eid] = p[0]
    C.y[eid] = p[1]
    C.heading[eid] = heading
    // off the level ground plane: on its wheels on the surface there (its height there is another)
    if (!(collision.groundBodies === 0 && onlyLevelGround(collision, C.groundMask[eid], seatContact))) {
      seat(eid)
      C.grounded.fill(1, eid * 4, eid * 4 + 4)
    }
    writeCollider(eid)
  }

  const state: VehicleState = {
    api: {
      addCar,
      setInput(car, input) {
        const eid = carOf(car)
        setCarInput(C, defs[eid]!, eid, input)
      },
      getInput(car) {
        return getCarInput(C, carOf(car))
      },
      carState(car, out) {
        const eid = carOf(car)
        if (out !== undefined && !isCarState(out)) throw new TypeError(`out must be a CarState returned by sim.carState, got ${describe(out)}`)
        const d = defs[eid]!
        const s = carState(C, d, eid, groundZ, out)
        // on terrain, each corner's travel is what its wheel's ray finds under the current pose
        prepareGround(collision, C, d, eid, stateContact)
        if (!stateContact.flat) suspensionOnGround(d, eid, s.suspension)
        return s
      },
      setLod(car, level, hz) {
        const eid = carOf(car)
        const l = parseLevel(level)
        const rate = parseHz(hz)
        applyLevel(eid, l, rate)
      },
      getLod(car) {
        const eid = carOf(car)
        return { level: LEVELS[C.level[eid]], hz: C.hz[eid] }
      },
      snapshot(car) {
        return snapshotCar(C, carOf(car))
      },
      restore(car, snap) {
        const eid = carOf(car)
        const s = decodeSnapshot(defs[eid]!, snap)
        if (s.level === PATH_LEVEL) {
          if (!state.pathLevel) throw new RangeError(`car ${eid} cannot take the 'path' level: this sim has no drivers`)
          state.pathLevel.check(eid)
        }
        writeSnapshot(C, eid, s)
        tagLevel(world, comps, eid, s.level)
        writeCollider(eid)
      },
      carDefinition(car) {
        return defs[carOf(car)]!.def
      },
    },
    teleport,
    defs,
    surfaces: options.surfaces ?? null,
    gravity,
    groundZ,
    writeCollider,
    Car: C,
    collision,
    pathLevel: null,
    // Registered once: query() would build and hash its terms every step. Cars whose level has no model (frozen, path) are skipped by Car.level, not left out by a
    // level tag in these queries: a LOD switch then changes no query (bitecs allocates for each
    // query a tag change touches: test/perf/perf.test.ts 'race frames')
    stepped: registerQuery(world, [C, Not(Hosted)]),
    cars: registerQuery(world, [C]),
  }
  return state
}
