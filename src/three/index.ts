/**
 * pitlane/three: a three.js debug view of a sim, the 3D sibling of pitlane/pixi's renderer, for use
 * in a user's own scene: cars as bodies with their wheels (steering, suspension travel, spin),
 * colliders of every kind (heightfields and meshes as surfaces, the ground plane with a grid),
 * driver lines laid on the terrain, and every lidar's latest points coloured by intensity.
 *
 * ```ts
 * import { Scene } from 'three'
 * import { createDebugView } from 'pitlane/three'
 * const view = createDebugView(sim, scene, { paths: true })
 * // each frame, after sim.step:
 * view.update()
 * ```
 * The view lives in one Group (`view.root`) in pitlane's frame: metres, z up. A y-up scene takes
 * `yUp: true` (the group turns −90° about x). It reads the sim through its public API and stores
 * (never writes them); `update()` allocates nothing once the scene's content stops growing (cars,
 * colliders and points are instanced meshes and preallocated buffers). three is an optional peer
 * dependency; the core never imports this file.
 */
import { DirectionalLight, Group, HemisphereLight, type Object3D } from 'three'
import type { Sim } from '../index'
import { describe, optionsObject, optionKeys } from '../validate'
import { createCarLayer, LEVEL_COLORS, type CarLevel } from './cars'
import { createColliderLayer } from './colliders'
import { createLidarLayer, LIDAR_RAMP } from './lidar'
import { createPathLayer } from './paths'

export { LEVEL_COLORS, LIDAR_RAMP }
export type { CarLevel }

/** Options of createDebugView (every one optional). */
export interface DebugViewOptions {
  /** Draw colliders other than car bodies (default true). */
  colliders?: boolean
  /** Draw cars (default true). */
  cars?: boolean
  /** Draw each car's wheels (default true). */
  wheels?: boolean
  /** Draw the driver lines of these cars (true: every driven car; default false). */
  paths?: boolean | readonly number[]
  /** Draw the latest scan of every lidar (default true). */
  lidars?: boolean
  /** Add a hemisphere and a directional light to the view's group, so it is lit in a bare scene (default true). */
  lights?: boolean
  /** Turn the group −90° about x, for a y-up scene (default false: the scene is z-up like pitlane). */
  yUp?: boolean
  /** Car body colour; default by level (LEVEL_COLORS). */
  carColor?: (car: number, level: CarLevel) => number
  /** Collider colour by name (e.g. { kerb: 0xd23b33 }), falling back to `colliderColor`. */
  colliderColors?: Record<string, number>
  /** Default colour of spheres, boxes, capsules and cylinders (default 0xd0d0d0). */
  colliderColor?: number
  /** Colours of heightfields and meshes at their lowest and highest points (default green to tan). */
  terrainLow?: number
  terrainHigh?: number
  /** The ground plane's colour (default 0x6b7f5a) and side length, m (default 2000). */
  groundColor?: number
  groundSize?: number
  /** Draw the sim's ground plane, when it has one (default true). */
  ground?: boolean
  /** Draw a 10 m grid on the ground plane (default true). */
  grid?: boolean
  /** Driver line colour (default 0x7dd3fc). */
  pathColor?: number
  /** Lidar point size, m (default 0.12). */
  lidarPointSize?: number
  /** At most this many lidar points drawn (default 65536; the buffers are allocated once). */
  maxLidarPoints?: number
  /** Intensities mapped onto the colour ramp from [low, high] (default [0, 1]). */
  intensityRange?: readonly [number, number]
  /** The lidar colour ramp, low to high (default LIDAR_RAMP). */
  lidarColors?: readonly number[]
}

const OPTION_KEYS = optionKeys<DebugViewOptions>({
  colliders: true, cars: true, wheels: true, paths: true, lidars: true, lights: true, yUp: true, carColor: true, colliderColors: true, colliderColor: true,
  terrainLow: true, terrainHigh: true, groundColor: true, groundSize: true, ground: true, grid: true, pathColor: true, lidarPointSize: true, maxLidarPoints: true,
  intensityRange: true, lidarColors: true,
})

/** A debug view attached to a scene. */
export interface DebugView {
  /** The group everything is drawn into (a child of the parent given). */
  readonly root: Group
  /** Redraws from the sim's current state; call once a frame after stepping. */
  update(): void
  /** Changes whose driver lines are drawn (see DebugViewOptions.paths). */
  setPaths(paths: boolean | readonly number[]): void
  /** What the last update drew: cars, lidar points, driver lines, collider instances per kind and surfaces. */
  readonly drawn: { readonly cars: number; readonly lidarPoints: number; readonly paths: number; readonly spheres: number; readonly boxes: number; readonly cylinders: number; readonly surfaces: number; readonly ground: boolean }
  /** Removes the group from its parent and frees every geometry and material of the view. */
  dispose(): void
}

function flag(v: unknown, fallback: boolean, name: string): boolean {
  if (v === undefined) return fallback
  if (typeof v !== 'boolean') throw new TypeError(`${name} must be a boolean, got ${describe(v)}`)
  return v
}

function colour(v: unknown, fallback: number, name: string): number {
  if (v === undefined) return fallback
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffff) throw new TypeError(`${name} must be a colour 0xRRGGBB, got ${describe(v)}`)
  return v
}

function positive(v: unknown, fallback: number, name: string, integer = false): number {
  if (v === undefined) return fallback
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!(v > 0) || !Number.isFinite(v) || (integer && !Number.isInteger(v))) throw new RangeError(`${name} must be a finite ${integer ? 'integer ' : 'number '}> 0, got ${v}`)
  return v
}

function paths(v: unknown, name: string): boolean | readonly number[] {
  if (v === undefined) return false
  if (typeof v === 'boolean') return v
  if (!Array.isArray(v) || !v.every((c) => Number.isInteger(c))) throw new TypeError(`${name} must be a boolean or an array of car ids, got ${describe(v)}`)
  return v.slice()
}

/** Creates a debug view of `sim` drawing into a new group added to `parent` (a three Scene or any Object3D). */
export function createDebugView(sim: Sim, parent: Object3D, options?: DebugViewOptions): DebugView {
  if (!sim || typeof sim !== 'object' || !sim.components || !sim.world) throw new TypeError(`sim must be a pitlane Sim, got ${describe(sim)}`)
  if (!parent || typeof (parent as Object3D).add !== 'function' || (parent as Object3D).isObject3D !== true) throw new TypeError(`parent must be a three Object3D (a Scene, a Group), got ${describe(parent)}`)
  const o = optionsObject<DebugViewOptions>(options, 'options', OPTION_KEYS)
  if (o.carColor !== undefined && typeof o.carColor !== 'function') throw new TypeError(`options.carColor must be a function (car, level) => 0xRRGGBB, got ${describe(o.carColor)}`)
  if (o.colliderColors !== undefined && (o.colliderColors === null || typeof o.colliderColors !== 'object')) throw new TypeError(`options.colliderColors must be an object of colours by name, got ${describe(o.colliderColors)}`)
  for (const [name, c] of Object.entries(o.colliderColors ?? {})) colour(c, 0, `options.colliderColors.${name}`)
  const range = o.intensityRange ?? [0, 1]
  if (!Array.isArray(range) || range.length !== 2 || !range.every(Number.isFinite) || !(range[1] > range[0])) throw new RangeError(`options.intensityRange must be [low, high] with low < high, got ${describe(o.intensityRange)}`)
  const ramp = o.lidarColors ?? LIDAR_RAMP
  if (!Array.isArray(ramp) || ramp.length < 2) throw new TypeError(`options.lidarColors must be an array of at least two colours, got ${describe(o.lidarColors)}`)
  ramp.forEach((c, i) => colour(c, 0, `options.lidarColors[${i}]`))
  const show = {
    colliders: flag(o.colliders, true, 'options.colliders'), cars: flag(o.cars, true, 'options.cars'), wheels: flag(o.wheels, true, 'options.wheels'),
    lidars: flag(o.lidars, true, 'options.lidars'), lights: flag(o.lights, true, 'options.lights'), yUp: flag(o.yUp, false, 'options.yUp'), grid: flag(o.grid, true, 'options.grid'),
    ground: flag(o.ground, true, 'options.ground'),
  }
  let shownPaths = paths(o.paths, 'options.paths')
  const colliderLayer = createColliderLayer(sim, {
    colliderColor: colour(o.colliderColor, 0xd0d0d0, 'options.colliderColor'), colliderColors: { ...o.colliderColors },
    terrainLow: colour(o.terrainLow, 0x4d7c3a, 'options.terrainLow'), terrainHigh: colour(o.terrainHigh, 0xc9b27c, 'options.terrainHigh'),
    groundColor: colour(o.groundColor, 0x6b7f5a, 'options.groundColor'), groundSize: positive(o.groundSize, 2000, 'options.groundSize'), ground: show.ground, grid: show.grid,
  })
  const carColor = o.carColor ?? ((_: number, level: CarLevel) => LEVEL_COLORS[level])
  const carLayer = createCarLayer(sim, carColor, show.wheels)
  const lidarLayer = createLidarLayer(sim, positive(o.maxLidarPoints, 65536, 'options.maxLidarPoints', true), positive(o.lidarPointSize, 0.12, 'options.lidarPointSize'), range[0], range[1], ramp)
  const pathLayer = createPathLayer(sim, colour(o.pathColor, 0x7dd3fc, 'options.pathColor'))

  const root = new Group()
  root.name = 'pitlane-debug'
  if (show.yUp) root.rotation.x = -Math.PI / 2
  root.add(colliderLayer.group, carLayer.group, lidarLayer.group, pathLayer.group)
  colliderLayer.group.visible = show.colliders
  carLayer.group.visible = show.cars
  lidarLayer.group.visible = show.lidars
  if (show.lights) {
    const sky = new HemisphereLight(0xdbeafe, 0x4b5320, 1.6)
    sky.position.set(0, 0, 1) // from above, pitlane's z up
    const sun = new DirectionalLight(0xffffff, 1.8)
    sun.position.set(-0.4, -0.6, 1)
    root.add(sky, sun)
  }
  parent.add(root)

  const drawn = {
    get cars() { return show.cars ? carLayer.count : 0 },
    get lidarPoints() { return show.lidars ? lidarLayer.count : 0 },
    get paths() { return pathLayer.count },
    get spheres() { return colliderLayer.counts.spheres },
    get boxes() { return colliderLayer.counts.boxes },
    get cylinders() { return colliderLayer.counts.cylinders },
    get surfaces() { return colliderLayer.counts.surfaces },
    get ground() { return colliderLayer.counts.ground },
  }
  let disposed = false
  return {
    root,
    drawn,
    update() {
      if (disposed) throw new RangeError('this debug view was disposed')
      if (show.colliders) colliderLayer.update()
      if (show.cars) carLayer.update()
      if (show.lidars) lidarLayer.update()
      pathLayer.update(shownPaths)
    },
    setPaths(p) { shownPaths = paths(p, 'paths') },
    dispose() {
      if (disposed) return
      disposed = true
      root.removeFromParent()
      colliderLayer.dispose(); carLayer.dispose(); lidarLayer.dispose(); pathLayer.dispose()
    },
  }
}
