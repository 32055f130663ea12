/** createSim's options: their type, their defaults, and the resolved form the domains are built from. */
import { describe, numberInRange, optionKeys, optionsObject, positiveNumber } from './validate'
import { DEFAULT_REFLECTIVITY } from './collision/collider-options'
import type { SurfaceMap } from './vehicle/surfaces'

/** Options of createSim. */
export interface SimOptions {
  /** Gravity, m/s² (default 9.81). */
  gravity?: number
  /** The ground plane: `{ height, reflectivity }` (defaults 0 m and 0.5, its lidar reflectivity), or false for none. */
  ground?: { height?: number; reflectivity?: number } | false
  /** Maps a ground position to a surface (grip, rolling resistance); default: tarmac everywhere. */
  surfaces?: SurfaceMap
}

/** The resolved options a sim runs with. */
export interface ResolvedSimOptions {
  gravity: number
  ground: { height: number; reflectivity: number } | false
  surfaces: SurfaceMap | undefined
}

const SIM_OPTION_KEYS = optionKeys<SimOptions>({ gravity: true, ground: true, surfaces: true })
const GROUND_KEYS = optionKeys<{ height: number; reflectivity: number }>({ height: true, reflectivity: true })

/** Validates createSim's options and fills in the defaults; throws naming the bad option. */
export function resolveOptions(options: unknown): ResolvedSimOptions {
  const o = optionsObject<SimOptions>(options, 'options', SIM_OPTION_KEYS)
  const gravity = o.gravity === undefined ? 9.81 : positiveNumber(o.gravity, 'options.gravity')
  let ground: { height: number; reflectivity: number } | false = { height: 0, reflectivity: DEFAULT_REFLECTIVITY }
  if (o.ground === false) ground = false
  else if (o.ground !== undefined) {
    const g = optionsObject<{ height: number; reflectivity: number }>(o.ground, 'options.ground', GROUND_KEYS)
    const h = g.height === undefined ? 0 : g.height
    if (typeof h !== 'number') throw new TypeError(`options.ground.height must be a number, got ${describe(h)}`)
    if (!Number.isFinite(h)) throw new RangeError(`options.ground.height must be finite, got ${h}`)
    ground = { height: h, reflectivity: g.reflectivity === undefined ? DEFAULT_REFLECTIVITY : numberInRange(g.reflectivity, 0, 1, 'options.ground.reflectivity') }
  }
  if (o.surfaces !== undefined && (o.surfaces === null || typeof o.surfaces !== 'object' || typeof (o.surfaces as SurfaceMap).surfaceAt !== 'function')) {
    throw new TypeError('options.surfaces must be a SurfaceMap ({ surfaceAt(x, y) }), e.g. from surfaceGrid()')
  }
  return { gravity, ground, surfaces: o.surfaces }
}

/** Height of the ground plane, m (0 when the sim has none: cars still stand at z = 0). */
export function groundHeight(options: ResolvedSimOptions): number {
  return options.ground ? options.ground.height : 0
}
