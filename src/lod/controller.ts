/**
 * LodController: assigns every car of a sim a level of detail by distance bands with hysteresis.
 * Usable by hand (`update(distanceOf)`) or installed on the sim, where the lod-phase system runs it
 * each step with the planar distance from each car to a focus (a point or an entity).
 */
import { addComponent, commitRemovals, entityExists, hasComponent, observe, onRemove, registerQuery, removeComponent, type Query } from 'bitecs'
import type { Sim } from '../types'
import type { InstalledLodController } from './install'
import { assertEntity } from '../entity'
import { describe, optionKeys, optionsObject, positionLike, positiveNumber } from '../validate'
import { keptBetween, LEVEL_FULL, LEVEL_NAMES, LEVEL_PATH, LEVEL_SINGLE_TRACK, nextLevel, type Bands } from './bands'

/** Options of LodController (distances in m along the ground). */
export interface LodControllerOptions {
  /** Cars farther than this (plus hysteresis) drop to singleTrack (default 60). */
  singleTrackBeyond?: number
  /** Driven cars farther than this (plus hysteresis) move along their line at the path level (default: no path band); cars without a driver skip the band. */
  pathBeyond?: number
  /** Cars farther than this (plus hysteresis) are frozen (default 300; Infinity = never). */
  frozenBeyond?: number
  /** How far beyond an edge a car must be before it changes level (default 10). */
  hysteresis?: number
  /** Substep rate given to singleTrack cars (default: the vehicle domain's default). */
  singleTrackHz?: number
}

/** What an installed controller measures distance to: a ground point or a car/collider entity. */
export type LodFocus = ArrayLike<number> | number

/** Options of LodController.install. */
export interface LodInstallOptions {
  /** The focus: `[x, y]`, `[x, y, z]` (z ignored) or an entity id (a car or a collider). */
  focus: LodFocus
}

const OPTION_KEYS = optionKeys<LodControllerOptions>({ singleTrackBeyond: true, pathBeyond: true, frozenBeyond: true, hysteresis: true, singleTrackHz: true })
const INSTALL_KEYS = optionKeys<LodInstallOptions>({ focus: true })

function bandEdge(v: unknown, fallback: number, name: string): number {
  if (v === undefined) return fallback
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (Number.isNaN(v) || v < 0) throw new RangeError(`${name} must be >= 0 (Infinity allowed), got ${v}`)
  return v
}

function resolveOptions(options: unknown): Bands & { singleTrackHz: number | undefined } {
  const o = optionsObject<LodControllerOptions>(options, 'options', OPTION_KEYS)
  const singleTrackBeyond = bandEdge(o.singleTrackBeyond, 60, 'options.singleTrackBeyond')
  const frozenBeyond = bandEdge(o.frozenBeyond, 300, 'options.frozenBeyond')
  if (frozenBeyond < singleTrackBeyond) {
    throw new RangeError(`options.frozenBeyond (${frozenBeyond}) must be >= options.singleTrackBeyond (${singleTrackBeyond})`)
  }
  const pathBeyond = bandEdge(o.pathBeyond, frozenBeyond, 'options.pathBeyond')
  if (pathBeyond < singleTrackBeyond || pathBeyond > frozenBeyond) {
    throw new RangeError(`options.pathBeyond (${pathBeyond}) must be between options.singleTrackBeyond (${singleTrackBeyond}) and options.frozenBeyond (${frozenBeyond})`)
  }
  let hysteresis = 10
  if (o.hysteresis !== undefined) {
    if (typeof o.hysteresis !== 'number') throw new TypeError(`options.hysteresis must be a number, got ${describe(o.hysteresis)}`)
    if (!Number.isFinite(o.hysteresis) || o.hysteresis < 0) throw new RangeError(`options.hysteresis must be finite and >= 0, got ${o.hysteresis}`)
    hysteresis = o.hysteresis
  }
  const singleTrackHz = o.singleTrackHz === undefined ? undefined : positiveNumber(o.singleTrackHz, 'options.singleTrackHz')
  return { singleTrackBeyond, pathBeyond, frozenBeyond, hysteresis, singleTrackHz }
}

/** Assigns cars a level of detail by distance bands with hysteresis (singleTrack beyond 60 m, frozen beyond 300 m by default). */
export class LodController implements InstalledLodController {
  /** The sim whose cars this controller drives. */
  readonly sim: Sim
  /** Band edge to singleTrack, m. */
  readonly singleTrackBeyond: number
  /** Band edge to the path level (driven cars), m; frozenBeyond when there is no path band. */
  readonly pathBeyond: number
  /** Band edge to frozen, m. */
  readonly frozenBeyond: number
  /** Hysteresis, m. */
  readonly hysteresis: number
  /** Substep rate for singleTrack cars, or undefined for the vehicle default. */
  readonly singleTrackHz: number | undefined

  // Per-controller tags: removing an entity drops them, so a recycled id starts unpinned.
  private readonly pinnedTag = {}
  private readonly externalTag = {}
  /** An update's cars (the car query), their levels and the levels they are given. */
  private work = carLevels(64)
  /** Per entity id, set by each update: PINNED | EXTERNAL | DRIVEN (for ids below marksEnd). */
  private marks = new Uint8Array(64)
  private marksEnd = 0
  /** The squared distances at which a car keeps its level, a little inside the band (see keptSquared), by level * 4 + (marks >> 1). */
  private readonly keptSquared: Float64Array
  private focusX = 0
  private focusY = 0
  private focusEntity = -1
  private unobserve: (() => void) | null = null
  private readonly carQuery: Query
  private readonly drivenQuery: Query
  private readonly pinnedQuery: Query
  private readonly externalQuery: Query

  /** Creates a controller for `sim`; validates every option before anything is set. */
  constructor(sim: Sim, options?: LodControllerOptions) {
    if (sim === null || typeof sim !== 'object' || !sim.components || !sim.world) throw new TypeError(`sim must be a pitlane Sim, got ${describe(sim)}`)
    const r = resolveOptions(options)
    this.sim = sim
    this.singleTrackBeyond = r.singleTrackBeyond
    this.pathBeyond = r.pathBeyond
    this.frozenBeyond = r.frozenBeyond
    this.hysteresis = r.hysteresis
    this.singleTrackHz = r.singleTrackHz
    this.keptSquared = keptSquared(r)
    const { Car, Driver } = sim.components
    // Registered once: query() would build its terms and hash on every update. The tag queries
    // give an update the few pinned and external cars without a component lookup per car.
    this.carQuery = registerQuery(sim.world, [Car])
    this.drivenQuery = registerQuery(sim.world, [Car, Driver])
    this.pinnedQuery = registerQuery(sim.world, [this.pinnedTag])
    this.externalQuery = registerQuery(sim.world, [this.externalTag])
  }

  /**
   * Gives each car (in query order) its level for distance `distanceOf(car)`; calls sim.setLod only
   * where the level changes. Every distance is read and checked before any level is changed.
   * Returns the number of cars whose level changed.
   */
  update(distanceOf: (car: number) => number): number {
    if (typeof distanceOf !== 'function') throw new TypeError(`distanceOf must be a function (car) => number, got ${describe(distanceOf)}`)
    const n = this.begin()
    const { cars, targets, currents } = this.work, marks = this.marks
    for (let i = 0; i < n; i++) {
      const car = cars[i], m = marks[car]
      if ((m & PINNED) !== 0) { targets[i] = LEVEL_FULL; continue }
      const d = distanceOf(car)
      if (typeof d !== 'number') throw new TypeError(`distanceOf(${car}) must return a number, got ${describe(d)}`)
      if (Number.isNaN(d)) throw new RangeError(`distanceOf(${car}) returned NaN`)
      targets[i] = levelFor(this, currents[i], d, m)
    }
    return this.applyTargets(n)
  }
  /** Keeps `car` at full whatever its distance (raises it now if it is lower). */
  pin(car: number): void {
    this.tag(car, this.pinnedTag, true)
    if (this.levelOf(car) !== LEVEL_FULL) this.apply(car, LEVEL_FULL)
  }

  /** Lets `car` follow the bands again. */
  unpin(car: number): void {
    this.tag(car, this.pinnedTag, false)
  }

  /** True when `car` is pinned by this controller. */
  isPinned(car: number): boolean {
    return this.tagged(car, this.pinnedTag)
  }

  /** Marks `car` as driven from outside (a player, the network): it may be frozen, never singleTrack or path. */
  markExternal(car: number): void {
    this.tag(car, this.externalTag, true)
    const level = this.levelOf(car)
    if (level === LEVEL_SINGLE_TRACK || level === LEVEL_PATH) this.apply(car, LEVEL_FULL)
  }

  /** Removes the external mark of `car`. */
  unmarkExternal(car: number): void {
    this.tag(car, this.externalTag, false)
  }

  /** True when `car` is marked external by this controller. */
  isExternal(car: number): boolean {
    return this.tagged(car, this.externalTag)
  }

  /** Makes this the sim's controller, run by the 'select-lod' system each step; replaces any other. */
  install(options: LodInstallOptions): this {
    const o = optionsObject<LodInstallOptions>(options, 'options', INSTALL_KEYS)
    if (o.focus === undefined) throw new TypeError('options.focus must be [x, y] or an entity id, got undefined')
    this.checkFocus(o.focus, 'options.focus')
    const state = this.sim.internal.lod
    if (state.controller && state.controller !== this) state.controller.uninstall()
    this.setFocus(o.focus)
    if (!this.unobserve) {
      // A removed focus entity stops being followed (its id may be recycled at once).
      this.unobserve = observe(this.sim.world, onRemove(this.sim.components.Car), (eid: number) => { if (eid === this.focusEntity) this.dropFocusEntity() })
    }
    state.controller = this
    return this
  }

  /** Sets what distances are measured to: a ground point, or a car/collider entity followed each step. */
  setFocus(focus: LodFocus): void {
    this.checkFocus(focus, 'focus')
    if (typeof focus === 'number') {
      this.focusEntity = focus
      this.readFocusEntity()
    } else {
      const p = positionLike(focus, 'focus')
      this.focusEntity = -1
      this.focusX = p[0]
      this.focusY = p[1]
    }
  }

  /** The current focus point [x, y] (the focus entity's position as of the last step). */
  focus(): [number, number] {
    return [this.focusX, this.focusY]
  }

  /** Stops running this controller each step (if it is the installed one). */
  uninstall(): void {
    const state = this.sim.internal.lod
    if (state.controller === this) state.controller = null
    if (this.unobserve) { this.unobserve(); this.unobserve = null }
  }

  /**
   * Runs one update with the planar distance from each car to the focus (called by the 'select-lod'
   * system): update's loop with the distance worked out in place, so nothing is called or allocated per car (test/perf/perf.test.ts "race steady").
   * A car well inside its level's band (most cars, most steps) is settled by its squared distance
   * alone; the others take the band rule with the distance, as update does.
   */
  step(): number {
    if (this.focusEntity >= 0) this.readFocusEntity()
    const n = this.begin()
    const { cars, targets, currents } = this.work, marks = this.marks, kept = this.keptSquared
    const { x, y } = this.sim.components.Car
    const fx = this.focusX, fy = this.focusY
    for (let i = 0; i < n; i++) {
      const car = cars[i], m = marks[car], current = currents[i]
      if ((m & PINNED) !== 0) { targets[i] = LEVEL_FULL; continue }
      const dx = x[car] - fx, dy = y[car] - fy, d2 = dx * dx + dy * dy
      const k = 2 * (current * 4 + (m >> 1))
      if (d2 >= kept[k] && d2 <= kept[k + 1]) { targets[i] = current; continue }
      const d = Math.sqrt(d2)
      if (Number.isNaN(d)) throw new RangeError(`car ${car}'s distance to the focus is NaN (its position is not finite)`)
      targets[i] = levelFor(this, current, d, m)
    }
    return this.applyTargets(n)
  }

  // Copies the car query into `cars` and each car's level into `currents`, and marks the driven,
  // pinned and external cars in `marks` (by entity id, up to the largest car id; the last update's
  // marks cleared first); returns the car count.
  private begin(): number {
    commitRemovals(this.sim.world)
    const list = this.carQuery.dense
    const n = list.length
    if (this.work.cars.length < n) this.grow(n)
    const { cars, currents } = this.work, level = this.sim.components.Car.level
    let top = 0
    for (let i = 0; i < n; i++) {
      const car = list[i]
      cars[i] = car
      currents[i] = level[car]
      if (car > top) top = car
    }
    this.marks.fill(0, 0, this.marksEnd)
    if (this.marks.length <= top) this.marks = new Uint8Array(Math.max(2 * this.marks.length, top + 1))
    this.marksEnd = top + 1
    markAll(this.marks, this.marksEnd, this.drivenQuery.dense, DRIVEN)
    markAll(this.marks, this.marksEnd, this.pinnedQuery.dense, PINNED)
    markAll(this.marks, this.marksEnd, this.externalQuery.dense, EXTERNAL)
    return n
  }

  // Calls setLod for each of the first n cars whose target differs from its level; returns how many.
  private applyTargets(n: number): number {
    const { cars, targets, currents } = this.work
    let changed = 0
    for (let i = 0; i < n; i++) {
      if (targets[i] === currents[i]) continue
      this.apply(cars[i], targets[i])
      changed++
    }
    return changed
  }

  private readFocusEntity(): void {
    const { world, components } = this.sim
    const e = this.focusEntity
    if (!entityExists(world, e)) { this.focusEntity = -1; return }
    if (hasComponent(world, e, components.Car)) {
      this.focusX = components.Car.x[e]
      this.focusY = components.Car.y[e]
    } else if (hasComponent(world, e, components.Collider)) {
      this.focusX = components.Collider.position[3 * e]
      this.focusY = components.Collider.position[3 * e + 1]
    } else this.focusEntity = -1
  }

  private dropFocusEntity(): void {
    this.readFocusEntity()
    this.focusEntity = -1
  }

  private checkFocus(focus: unknown, name: string): void {
    if (typeof focus === 'number') {
      assertEntity(this.sim, focus, name)
      const { world, components } = this.sim
      if (!hasComponent(world, focus, components.Car) && !hasComponent(world, focus, components.Collider)) {
        throw new RangeError(`${name} ${focus} is not a car or collider of this sim`)
      }
    } else positionLike(focus, name)
  }

  private levelOf(car: number): number {
    return this.sim.components.Car.level[car]
  }

  private apply(car: number, level: number): void {
    if (level === LEVEL_SINGLE_TRACK && this.singleTrackHz !== undefined) this.sim.setLod(car, 'singleTrack', this.singleTrackHz)
    else this.sim.setLod(car, LEVEL_NAMES[level])
  }

  // Adds (on) or removes one of this controller's tags on `car`, a car of the sim (checked first).
  private tag(car: number, tag: object, on: boolean): void {
    this.assertCar(car)
    if (on) addComponent(this.sim.world, car, tag)
    else removeComponent(this.sim.world, car, tag)
  }

  private tagged(car: number, tag: object): boolean {
    this.assertCar(car)
    return hasComponent(this.sim.world, car, tag)
  }

  private assertCar(car: unknown): void {
    assertEntity(this.sim, car, 'car')
    if (!hasComponent(this.sim.world, car as number, this.sim.components.Car)) throw new RangeError(`car ${car} is not a car of this sim`)
  }

  private grow(n: number): void {
    let cap = this.work.cars.length
    while (cap < n) cap *= 2
    this.work = carLevels(cap)
  }
}

// Bits of LodController's per-car marks.
const PINNED = 1, EXTERNAL = 2, DRIVEN = 4

/** The level an unpinned car at level `current` and distance `d` takes under bands `b`, given its marks. */
function levelFor(b: Bands, current: number, d: number, marks: number): number {
  return nextLevel(b, current, d, (marks & EXTERNAL) !== 0, (marks & DRIVEN) !== 0)
}

/** Room for an update of `n` cars: each car, its level, and the level it is given. */
function carLevels(n: number): { cars: Int32Array; currents: Uint8Array; targets: Uint8Array } {
  return { cars: new Int32Array(n), currents: new Uint8Array(n), targets: new Uint8Array(n) }
}

/**
 * For each level code and marks (index 2 * (level * 4 + (marks >> 1)): EXTERNAL, DRIVEN), the
 * squared distances [from, to] within which a car keeps its level for sure: keptBetween's band
 * squared and narrowed by a part in 10⁹, so a squared distance inside it has a square root inside
 * the band, whatever the roundings (a car nearer an edge than that takes the band rule itself).
 * An edge too large or small to square safely leaves that side to the band rule.
 */
function keptSquared(b: Bands): Float64Array {
  const out = new Float64Array(32), band = new Float64Array(2)
  for (let level = 0; level < 4; level++) {
    for (let m = 0; m < 4; m++) {
      keptBetween(b, level, (m & (EXTERNAL >> 1)) !== 0, (m & (DRIVEN >> 1)) !== 0, band, 0)
      const from = band[0], to = band[1], k = 2 * (level * 4 + m)
      const never = !(from <= to)
      out[k] = never ? Infinity : from <= 0 ? -Infinity : from === Infinity ? Infinity : from > 1e-100 && from < 1e100 ? from * from * (1 + 1e-9) : Infinity
      out[k + 1] = never ? -Infinity : to === Infinity ? Infinity : to < 1e100 ? to * to * (1 - 1e-9) : -Infinity
    }
  }
  return out
}

/** Sets `bit` in marks[id] for each id of `ids` below `end`. */
function markAll(marks: Uint8Array, end: number, ids: ArrayLike<number>, bit: number): void {
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]
    if (id < end) marks[id] |= bit
  }
}

/** Same as `new LodController(sim, options)`. */
export function createLodController(sim: Sim, options?: LodControllerOptions): LodController {
  return new LodController(sim, options)
}
