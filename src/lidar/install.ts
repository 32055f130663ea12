/** The lidar domain of a sim: the Lidar component, addLidar, lidarScan and rayTestLidar. Its system is systems/scan-lidars.ts. */
import { addComponent, addEntity, hasComponent, observe, onRemove, query, registerQuery, removeEntity, type Query, type World } from 'bitecs'
import type { Components } from '../../components/index'
import { assertEntity } from '../entity'
import { groundHeight, type ResolvedSimOptions } from '../options'
import type { CollisionState } from '../collision/state'
import { describe, finiteNumber, finiteVector, nonNegativeNumber, numberInRange, optionsObject, positiveNumber } from '../validate'
import { mat3Identity } from '../math/mat3'
import { parsePosition, parseRotation } from '../collision/pose'
import { createLidarScan, parseLidarScanOptions, refuseUnknownKeys, type LidarScan, type LidarScanOptions } from './scan'
import type { LidarNoise } from './noise'
import { castLidar } from './cast'
import { createLidarCaster, type LidarCaster } from './caster'
import type { LidarPattern } from './presets'

/** Options of sim.addLidar. */
export interface LidarOptions {
  /** Car entity to mount on; omitted: a fixed lidar. */
  mount?: number
  /** Position in the car's frame (mounted: the chassis box centre is the origin) or in the world (fixed; [x, y] puts it at ground height); default [0, 0, 0]. */
  offset?: ArrayLike<number>
  /** Rotation (row-major Mat3 or quaternion [x, y, z, w]) in the car's frame or the world; default identity. */
  rotation?: ArrayLike<number>
  /** The scan pattern. */
  pattern: LidarPattern
  /** Range window, m: rays start at rangeMin and end at rangeMax. */
  rangeMin: number
  rangeMax: number
  /** Collider groups the lidar sees (default -1: all). */
  collisionMask?: number
  /** Scan rate, Hz (default: every step); a rotating lidar's sweeps per second. */
  hz?: number
  /** Per-point attributes of its scans (as createLidarScan's options). */
  attributes?: LidarScanOptions
  /** Range noise and dropout, drawn per (seed, scan number, ray index); default none (points equal rayTest). */
  noise?: LidarNoise
  /**
   * 'whole' (default): the whole pattern at once, every 1/hz. 'rotating' (needs hz): a spinning
   * head, yaw column y cast at y/(yawCount·hz) s into each sweep, from the pose at that time.
   */
  sweep?: 'whole' | 'rotating'
}

/** A lidar's scan settings beyond its Lidar store fields. */
export interface LidarSensor {
  /** Noise: σ (m), dropout rates, seed (all 0: none). */
  sigma: number
  dropout: number
  intensityDropout: number
  seed: number
  /** True for a rotating sweep. */
  rotating: boolean
  /** Rotating: the sweep being cast (its columns so far) and the newest step's columns. */
  building: LidarScan | null
  slice: LidarScan | null
}

const LIDAR_KEYS = ['mount', 'offset', 'rotation', 'pattern', 'rangeMin', 'rangeMax', 'collisionMask', 'hz', 'attributes', 'noise', 'sweep'] as const
const NOISE_KEYS = ['range', 'dropout', 'intensityDropout', 'seed'] as const

/** Lidar state of a sim (internal). */
export interface LidarState {
  api: {
    /** Adds a lidar, fixed or mounted on a car; returns its entity id. */
    addLidar(options: LidarOptions): number
    /**
     * The latest scan of a lidar (a rotating one: its last complete sweep). With 'slice', a rotating
     * lidar's newest slice instead: the columns cast in the last step, for streaming.
     */
    lidarScan(lidar: number, which?: 'sweep' | 'slice'): LidarScan
    /** A batched lidar scan of a yaw × pitch pattern into `scan`; returns `scan`. */
    rayTestLidar(rot: ArrayLike<number>, pos: ArrayLike<number>, yawStart: number, yawIncrement: number, yawCount: number,
      pitchStart: number, pitchIncrement: number, pitchCount: number, rangeMin: number, rangeMax: number,
      objectId: number, localId: number, collisionMask: number, scan: LidarScan): LidarScan
  }
  /** Moves a fixed lidar. */
  setPose(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void
  /** Each lidar's latest scan, by entity id. */
  scans: (LidarScan | undefined)[]
  /** Each lidar's noise and sweep settings, by entity id. */
  sensors: (LidarSensor | undefined)[]
  /** Each lidar's caster (its own caches, so lidars never evict each other's), by entity id. */
  casters: (LidarCaster | undefined)[]
  /** The caster of direct rayTestLidar calls. */
  shared: LidarCaster
  /** Every lidar (registered once: query() would build its terms and hash them every step). */
  lidars: Query
  /** The stores a scan reads: the lidar's, its car's and the chassis collider's. */
  components: Pick<Components, 'Lidar' | 'Car' | 'Collider'>
  /** The collision domain the scans query. */
  collision: CollisionState
}

/** What the lidar domain is built from. */
export interface LidarDeps {
  world: World
  components: Pick<Components, 'Lidar' | 'Car' | 'Collider'>
  options: ResolvedSimOptions
  collision: CollisionState
}

function countArgument(v: unknown, name: string): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < 1 || v > 1 << 24) throw new RangeError(`${name} must be an integer in [1, 2^24], got ${v}`)
  return v
}

const PATTERN_KEYS = ['yawStart', 'yawIncrement', 'yawCount', 'pitchStart', 'pitchIncrement', 'pitchCount'] as const

function patternArgument(v: unknown): LidarPattern {
  if (v === null || typeof v !== 'object') throw new TypeError(`options.pattern must be { yawStart, yawIncrement, yawCount, pitchStart, pitchIncrement, pitchCount }, got ${describe(v)}`)
  refuseUnknownKeys(v, PATTERN_KEYS, 'options.pattern')
  const p = v as LidarPattern
  const out: LidarPattern = {
    yawStart: finiteNumber(p.yawStart, 'options.pattern.yawStart'),
    yawIncrement: finiteNumber(p.yawIncrement, 'options.pattern.yawIncrement'),
    yawCount: countArgument(p.yawCount, 'options.pattern.yawCount'),
    pitchStart: finiteNumber(p.pitchStart, 'options.pattern.pitchStart'),
    pitchIncrement: finiteNumber(p.pitchIncrement, 'options.pattern.pitchIncrement'),
    pitchCount: countArgument(p.pitchCount, 'options.pattern.pitchCount'),
  }
  if (out.yawCount * out.pitchCount > 1 << 24) throw new RangeError(`options.pattern has ${out.yawCount * out.pitchCount} rays; at most 2^24`)
  if (!Number.isFinite(out.yawStart + (out.yawCount - 1) * out.yawIncrement)) throw new RangeError('options.pattern: the last yaw angle is not finite')
  if (!Number.isFinite(out.pitchStart + (out.pitchCount - 1) * out.pitchIncrement)) throw new RangeError('options.pattern: the last pitch angle is not finite')
  return out
}

function noiseArgument(v: unknown): LidarSensor {
  const sensor: LidarSensor = { sigma: 0, dropout: 0, intensityDropout: 0, seed: 0, rotating: false, building: null, slice: null }
  if (v === undefined) return sensor
  const n = optionsObject<LidarNoise>(v, 'options.noise')
  refuseUnknownKeys(n, NOISE_KEYS, 'options.noise')
  if (n.range !== undefined) sensor.sigma = nonNegativeNumber(n.range, 'options.noise.range')
  if (n.dropout !== undefined) sensor.dropout = numberInRange(n.dropout, 0, 1, 'options.noise.dropout')
  if (n.intensityDropout !== undefined) sensor.intensityDropout = numberInRange(n.intensityDropout, 0, 1, 'options.noise.intensityDropout')
  if (n.seed !== undefined) {
    if (typeof n.seed !== 'number' || !Number.isInteger(n.seed)) throw new TypeError(`options.noise.seed must be an integer, got ${describe(n.seed)}`)
    sensor.seed = n.seed | 0
  }
  return sensor
}

function maskArgument(v: unknown, name: string): number {
  if (v === undefined) return -1
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) throw new RangeError(`${name} must be a 32-bit integer, got ${v}`)
  return v | 0
}

/** Builds the lidar domain over `collision`. */
export function installLidars({ world, components, options, collision }: LidarDeps): LidarState {
  const { Lidar, Car } = components
  const scans: (LidarScan | undefined)[] = []
  const sensors: (LidarSensor | undefined)[] = []
  const casters: (LidarCaster | undefined)[] = []
  const shared = createLidarCaster()
  const rotScratch = new Float64Array(9), posScratch = new Float64Array(3)
  const groundZ = groundHeight(options)
  const owner = { world }

  function assertLidar(eid: unknown, name: string): number {
    assertEntity(owner, eid, name)
    if (!hasComponent(world, eid as number, Lidar)) throw new RangeError(`${name} ${eid} is not a lidar of this sim`)
    return eid as number
  }

  function addLidar(options: LidarOptions): number {
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describe(options)}`)
    const o = optionsObject<LidarOptions>(options, 'options')
    refuseUnknownKeys(o, LIDAR_KEYS, 'options')
    const pattern = patternArgument(o.pattern)
    const rangeMin = finiteNumber(o.rangeMin, 'options.rangeMin')
    if (rangeMin < 0) throw new RangeError(`options.rangeMin must be >= 0, got ${rangeMin}`)
    const rangeMax = finiteNumber(o.rangeMax, 'options.rangeMax')
    if (rangeMax <= rangeMin) throw new RangeError(`options.rangeMax must be > rangeMin (${rangeMin}), got ${rangeMax}`)
    const mask = maskArgument(o.collisionMask, 'options.collisionMask')
    const hz = o.hz === undefined ? 0 : positiveNumber(o.hz, 'options.hz')
    const attributes = parseLidarScanOptions(o.attributes, 'options.attributes')
    const sensor = noiseArgument(o.noise)
    if (sensor.intensityDropout > 0) attributes.intensity = true
    if (o.sweep !== undefined && o.sweep !== 'whole' && o.sweep !== 'rotating') throw new TypeError(`options.sweep must be 'whole' or 'rotating', got ${describe(o.sweep)}`)
    if (o.sweep === 'rotating') {
      if (hz === 0) throw new RangeError('options.sweep \'rotating\' needs options.hz (sweeps per second)')
      sensor.rotating = true
    }
    let mount = -1
    if (o.mount !== undefined) {
      assertEntity(owner, o.mount, 'options.mount')
      if (!hasComponent(world, o.mount, Car)) throw new RangeError(`options.mount ${o.mount} is not a car of this sim`)
      mount = o.mount
    }
    const offset = posScratch.fill(0)
    if (o.offset !== undefined) {
      if (mount >= 0) offset.set(finiteVector(o.offset, 3, 'options.offset'))
      else parsePosition(o.offset, 'options.offset', groundZ, offset)
    }
    const rot = rotScratch
    if (o.rotation === undefined) mat3Identity(rot)
    else parseRotation(o.rotation, 'options.rotation', rot)
    // everything is valid: now write
    const eid = addEntity(world)
    addComponent(world, eid, Lidar)
    Lidar.mount[eid] = mount
    for (let i = 0; i < 3; i++) { Lidar.offset[3 * eid + i] = offset[i]; Lidar.origin[3 * eid + i] = NaN }
    for (let i = 0; i < 9; i++) { Lidar.rotation[9 * eid + i] = rot[i]; Lidar.pose[9 * eid + i] = NaN }
    Lidar.yawStart[eid] = pattern.yawStart; Lidar.yawIncrement[eid] = pattern.yawIncrement; Lidar.yawCount[eid] = pattern.yawCount
    Lidar.pitchStart[eid] = pattern.pitchStart; Lidar.pitchIncrement[eid] = pattern.pitchIncrement; Lidar.pitchCount[eid] = pattern.pitchCount
    Lidar.rangeMin[eid] = rangeMin; Lidar.rangeMax[eid] = rangeMax
    Lidar.collisionMask[eid] = mask
    Lidar.hz[eid] = hz
    Lidar.accum[eid] = 0
    scans[eid] = createLidarScan(attributes)
    if (sensor.rotating) {
      sensor.building = createLidarScan(attributes)
      sensor.slice = createLidarScan(attributes)
      for (const s of [scans[eid]!, sensor.building, sensor.slice]) s.times = new Float64Array(0)
    }
    sensors[eid] = sensor
    if (!casters[eid]) casters[eid] = createLidarCaster()
    return eid
  }

  function lidarScan(lidar: number, which?: 'sweep' | 'slice'): LidarScan {
    const eid = assertLidar(lidar, 'lidar')
    if (which === undefined || which === 'sweep') return scans[eid]!
    if (which !== 'slice') throw new TypeError(`which must be 'sweep' or 'slice', got ${describe(which)}`)
    const slice = sensors[eid]!.slice
    if (slice === null) throw new RangeError(`lidar ${eid} is not a rotating lidar: it has no slices`)
    return slice
  }

  function setPose(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void {
    assertLidar(eid, 'eid')
    if (Lidar.mount[eid] >= 0) throw new RangeError(`eid ${eid} is a lidar mounted on car ${Lidar.mount[eid]}: it follows the car (remove and re-add it to change its mounting)`)
    const p = posScratch
    parsePosition(position, 'position', groundZ, p)
    if (rotation !== undefined) parseRotation(rotation, 'rotation', rotScratch)
    for (let i = 0; i < 3; i++) Lidar.offset[3 * eid + i] = p[i]
    if (rotation !== undefined) for (let i = 0; i < 9; i++) Lidar.rotation[9 * eid + i] = rotScratch[i]
  }

  function rayTestLidar(rot: ArrayLike<number>, pos: ArrayLike<number>, yawStart: number, yawIncrement: number, yawCount: number,
    pitchStart: number, pitchIncrement: number, pitchCount: number, rangeMin: number, rangeMax: number,
    objectId: number, localId: number, collisionMask: number, scan: LidarScan): LidarScan {
    return castLidar(collision, shared, rot, pos, yawStart, yawIncrement, yawCount, pitchStart, pitchIncrement, pitchCount, rangeMin, rangeMax, objectId, localId, collisionMask, scan)
  }

  observe(world, onRemove(Lidar), (eid: number) => { scans[eid] = undefined; sensors[eid] = undefined })
  // A car's lidars go with it (collected first: removing while walking a query would skip some).
  const doomed: number[] = []
  observe(world, onRemove(Car), (car: number) => {
    const lidars = query(world, [Lidar])
    doomed.length = 0
    for (let i = 0; i < lidars.length; i++) if (Lidar.mount[lidars[i]] === car) doomed.push(lidars[i])
    for (let i = 0; i < doomed.length; i++) removeEntity(world, doomed[i])
  })

  const lidars = registerQuery(world, [Lidar])
  return { api: { addLidar, lidarScan, rayTestLidar }, setPose, scans, sensors, casters, shared, lidars, components, collision }
}
