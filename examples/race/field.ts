/**
 * Puts the circuit into a sim (barriers and cones as colliders) and fills it with path-driven cars
 * at mixed lateral offsets and speeds. Shared by the racing demo, the headless race and the tests.
 */
import { surfaceGrid, surfaces, type Sim, type SurfaceGrid } from '../../src/index'
import { SURFACE, type Track, trackPath, trackPoint, trafficWidth } from '../track'

/** A seeded PRNG (mulberry32) in [0, 1): the same seed gives the same field. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Collision group of barriers and cones (the ground is group 1, car bodies keep the default). */
export const TRACKSIDE_GROUP = 2

/** The colliders of the circuit. */
export interface Circuit {
  barriers: number[]
  cones: number[]
}

/** Painted kerbs: a little less grip than the tarmac beside them, a little more rolling resistance. */
export const KERB = Object.freeze({ name: 'kerb', grip: 0.9, rollingResistance: 0.015 })

/** The track's surface raster as a sim SurfaceMap (tarmac, kerb, gravel, grass). */
export function trackSurfaces(track: Track): SurfaceGrid {
  const palette = []
  palette[SURFACE.tarmac] = surfaces.tarmac
  palette[SURFACE.kerb] = KERB
  palette[SURFACE.gravel] = surfaces.gravel
  palette[SURFACE.grass] = surfaces.grass
  return surfaceGrid({
    origin: [track.gridX0, track.gridY0], cellSize: track.gridCell, columns: track.gridColumns, rows: track.gridRows,
    palette, cells: track.grid, outside: surfaces.grass,
  })
}

/** A rotation matrix (row-major) about z by `yaw`. */
export function yawMatrix(yaw: number): number[] {
  const c = Math.cos(yaw), s = Math.sin(yaw)
  return [c, -s, 0, s, c, 0, 0, 0, 1]
}

/** Adds the track's barriers (boxes) and cones (cylinders) to `sim` as colliders in TRACKSIDE_GROUP. */
export function addCircuit(sim: Sim, track: Track): Circuit {
  const barriers: number[] = []
  const cones: number[] = []
  for (const b of track.barriers) {
    barriers.push(sim.addCollider({ kind: 'box', halfExtents: [b.halfLength, b.halfThickness, b.halfHeight] }, { position: [b.x, b.y, b.halfHeight], rotation: yawMatrix(b.yaw), group: TRACKSIDE_GROUP, name: 'barrier' }))
  }
  for (const c of track.cones) {
    cones.push(sim.addCollider({ kind: 'cylinder', radius: c.radius, halfHeight: c.halfHeight }, { position: [c.x, c.y, c.halfHeight], group: TRACKSIDE_GROUP, name: 'cone' }))
  }
  return { barriers, cones }
}

/** Options of addField. */
export interface FieldOptions {
  /** Number of cars (default 100). */
  cars?: number
  /** Seed of the field's speeds and offsets (default 1). */
  seed?: number
  /** 'spread': evenly round the whole lap, rolling; 'grid': a standing start in rows of two behind the line. */
  layout?: 'spread' | 'grid'
}

/** One car of the field with the driver settings it was given. */
export interface FieldCar {
  car: number
  maxSpeed: number
  lateralOffset: number
  lateralAccel: number
}

/** Adds `cars` path-driven cars to `sim` on `track`: maxSpeed 24–44 m/s, lateral offsets up to ±4.5 m. */
export function addField(sim: Sim, track: Track, options: FieldOptions = {}): FieldCar[] {
  const n = options.cars ?? 100
  const random = seededRandom(options.seed ?? 1)
  const layout = options.layout ?? 'spread'
  const path = trackPath(track)
  const lanes = [-4.5, -3, -1.5, 0, 1.5, 3, 4.5]
  const out: FieldCar[] = []
  for (let i = 0; i < n; i++) {
    const maxSpeed = 24 + 20 * random()
    const lateralAccel = 5 + 3 * random()
    let s: number, lateral: number, speed: number, lateralOffset: number
    if (layout === 'grid') {
      // Two columns, 8 m between rows, the first row 6 m behind the line.
      s = -6 - 8 * Math.floor(i / 2)
      lateral = i % 2 === 0 ? 2.5 : -2.5
      lateralOffset = lateral
      speed = 0
    } else {
      s = (i * track.length) / n
      lateralOffset = lanes[Math.floor(random() * lanes.length)]!
      lateral = lateralOffset
      speed = Math.min(maxSpeed, 15)
    }
    const p = trackPoint(track, s, lateral)
    const car = sim.addCar({ position: [p.x, p.y], heading: p.heading, speed })
    sim.setInput(car, { gear: 1 }) // the driver leaves gear to its user: drive
    // traffic: it follows, passes within the tarmac and never drives through another car
    sim.setAi(car, path, { closed: true, maxSpeed, lateralAccel, lateralOffset, traffic: 'avoid', width: trafficWidth(track, lateralOffset) })
    out.push({ car, maxSpeed, lateralOffset, lateralAccel })
  }
  return out
}
