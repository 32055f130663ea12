/**
 * pitlane/pixi: an optional debug renderer that draws a sim's colliders, cars, driver paths and
 * lidar scans top-down into a pixi.js 8 Container, for use in a user's own game. It reads the sim's
 * component stores (never writes them). Coordinates are world metres with y up: put the container
 * in a parent scaled (s, −s), or let `flipY` (default true) do it on the container itself.
 * pixi.js is a peer dependency; the core never imports this file.
 */
import { Container, Graphics, Particle, ParticleContainer, Rectangle, Sprite, Texture } from 'pixi.js'
import { entityExists, hasComponent, query, registerQuery } from 'bitecs'
import { ColliderKind, type Polyline, type Sim } from '../index'
import { finiteNumber, nonNegativeInteger } from '../validate'
import { createMeshLayer, pixelsPerMetre, type ScreenRect } from './mesh-layer'

export type { ScreenRect } from './mesh-layer'

/** The level of detail of a car as the renderer colours it. */
export type CarLevel = 'full' | 'singleTrack' | 'path' | 'frozen'

/** Options of createDebugRenderer. */
export interface DebugRendererOptions {
  /** Draw colliders other than car bodies and the ground (default true). */
  colliders?: boolean
  /** Draw cars as oriented boxes (default true). */
  cars?: boolean
  /** Draw the driver paths of these cars (true: every driven car; default false). */
  paths?: boolean | readonly number[]
  /** Draw the latest scan of every lidar (default true). */
  lidars?: boolean
  /** Car body colour; default colours by level (see LEVEL_COLORS). */
  carColor?: (car: number, level: CarLevel) => number
  /** Collider colour by name (e.g. { barrier: 0xdddddd }), falling back to `colliderColor`. */
  colliderColors?: Record<string, number>
  /** Default collider colour (default 0xd0d0d0). */
  colliderColor?: number
  /** Lidar point colour by range: near colour, far colour (default orange to violet). */
  lidarNear?: number
  lidarFar?: number
  /** Lidar point size, m (default 0.35). */
  lidarPointSize?: number
  /** At most this many lidar points drawn per update (default 40000). */
  maxLidarPoints?: number
  /** Cars are drawn at least this many screen pixels long, so they stay visible zoomed far out (default 5). */
  minCarPixels?: number
  /** Flip y on the container so world +y is up on screen (default true). */
  flipY?: boolean
  /** The visible canvas rectangle (e.g. a pixi Application's `screen`): mesh outlines are drawn only for the world inside it (default: all of them). */
  screen?: ScreenRect
  /** At most this many mesh triangle outlines per redraw (default 100000). */
  maxMeshTriangles?: number
}

/** The keys createDebugRenderer accepts (the record type makes the compiler check the list is complete). */
const OPTION_KEYS = Object.keys({
  colliders: true, cars: true, paths: true, lidars: true, carColor: true, colliderColors: true, colliderColor: true,
  lidarNear: true, lidarFar: true, lidarPointSize: true, maxLidarPoints: true, minCarPixels: true, flipY: true,
  screen: true, maxMeshTriangles: true,
} satisfies { [K in keyof Required<DebugRendererOptions>]: true })

/** A debug renderer attached to a container. */
export interface DebugRenderer {
  /** The container everything is drawn into (a child of the one given). */
  readonly container: Container
  /** Redraws from the sim's current state; cheap when nothing but cars and scans moved. */
  update(): void
  /** Changes whose driver paths are drawn (see DebugRendererOptions.paths). */
  setPaths(paths: boolean | readonly number[]): void
  /** The sprite of `car`, if drawn (e.g. to attach a label). */
  carSprite(car: number): Container | undefined
  /** Lidar points drawn by the last update. */
  readonly lidarPoints: number
  /** Mesh triangle outlines drawn by the last redraw of the mesh layer. */
  readonly meshTriangles: number
  /** Removes everything from the container and frees it. */
  destroy(): void
}

/** Default car colours by level of detail. */
export const LEVEL_COLORS: Readonly<Record<CarLevel, number>> = Object.freeze({ full: 0x4ade80, singleTrack: 0xfacc15, path: 0xc084fc, frozen: 0x60a5fa })

// indexed by Car.level's codes
const LEVEL_BY_CODE: CarLevel[] = ['full', 'singleTrack', 'frozen', 'path']

interface CarView {
  root: Container
  body: Sprite
  seen: number
}

/** Creates a debug renderer for `sim` drawing into a new child of `parent`. */
export function createDebugRenderer(sim: Sim, parent: Container, options: DebugRendererOptions = {}): DebugRenderer {
  if (!sim || typeof sim !== 'object' || !sim.components || !sim.world) throw new TypeError('sim must be a pitlane Sim')
  if (!parent || typeof (parent as Container).addChild !== 'function') throw new TypeError('parent must be a pixi Container')
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object')
  for (const key of Object.keys(options)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) throw new RangeError(`options.${key} is not an option (expected one of ${OPTION_KEYS.join(', ')})`)
  }
  const o = {
    colliders: options.colliders ?? true,
    cars: options.cars ?? true,
    paths: options.paths ?? false,
    lidars: options.lidars ?? true,
    colliderColor: options.colliderColor ?? 0xd0d0d0,
    colliderColors: options.colliderColors ?? {},
    lidarNear: options.lidarNear ?? 0xff8a00,
    lidarFar: options.lidarFar ?? 0xb06cff,
    lidarPointSize: options.lidarPointSize ?? 0.35,
    maxLidarPoints: options.maxLidarPoints ?? 40000,
    carColor: options.carColor ?? ((_: number, level: CarLevel) => LEVEL_COLORS[level]),
    minCarPixels: options.minCarPixels ?? 5,
  }
  const root = new Container({ label: 'pitlane-debug' })
  if (options.flipY ?? true) root.scale.y = -1
  parent.addChild(root)
  const pathLayer = new Graphics()
  const colliderLayer = new Graphics()
  const meshes = createMeshLayer(sim, root, {
    screen: options.screen === undefined ? null : screenRect(options.screen),
    maxTriangles: options.maxMeshTriangles === undefined ? 100000 : nonNegativeInteger(options.maxMeshTriangles, 'options.maxMeshTriangles'),
    colorOf: (name) => (name !== undefined ? o.colliderColors[name] : undefined) ?? o.colliderColor,
  })
  const carLayer = new Container()
  const lidarLayer = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: { position: true, color: true } })
  lidarLayer.boundsArea = new Rectangle(-1e6, -1e6, 2e6, 2e6)
  root.addChild(pathLayer, colliderLayer, meshes.graphics, carLayer, lidarLayer)

  const cars = new Map<number, CarView>()
  const lidarPool: Particle[] = []
  let colliderKey = NaN
  const drawnPaths: unknown[] = []
  let frame = 0
  let lidarPoints = 0

  // the colliders, a live list read every update (query() would allocate its terms and hash each call);
  // removals reach it late, so an entry is checked against the component
  const colliderQuery = registerQuery(sim.world, [sim.components.Collider])

  /** A cheap fingerprint of every non-car collider's kind, size and pose: redraw only when it changes. */
  function colliderFingerprint(): number {
    const { Collider, Car } = sim.components
    const list = colliderQuery.dense
    let h = list.length
    for (let i = 0; i < list.length; i++) {
      const e = list[i]
      if (!hasComponent(sim.world, e, Collider) || isCarBody(e, Car, Collider)) continue
      h = (h * 31 + e) % 1e9
      const p = e * 3, r = e * 9, q = e * 4
      h += Collider.kind[e] * 7 + Collider.position[p] * 1.3 + Collider.position[p + 1] * 1.7 + Collider.rotation[r] * 3.1 + Collider.rotation[r + 1] * 5.3 + Collider.params[q] * 11 + Collider.params[q + 1] * 13 + Collider.group[e]
    }
    return h
  }

  function drawColliders(): void {
    const { Collider, Car } = sim.components
    const g = colliderLayer
    g.clear()
    const list = query(sim.world, [Collider])
    for (let i = 0; i < list.length; i++) {
      const e = list[i]
      const kind = Collider.kind[e]
      if (kind === ColliderKind.plane || kind === ColliderKind.none || isCarBody(e, Car, Collider)) continue
      const name = Collider.name[e]
      const color = (name !== undefined ? o.colliderColors[name] : undefined) ?? o.colliderColor
      const px = Collider.position[e * 3], py = Collider.position[e * 3 + 1]
      const R = Collider.rotation, r = e * 9
      const a = Collider.params[e * 4], b = Collider.params[e * 4 + 1]
      if (kind === ColliderKind.box) {
        // The footprint of a box: its local x/y axes projected onto the ground.
        const ux = R[r], uy = R[r + 3], vx = R[r + 1], vy = R[r + 4]
        g.poly([
          px + ux * a + vx * b, py + uy * a + vy * b, px - ux * a + vx * b, py - uy * a + vy * b,
          px - ux * a - vx * b, py - uy * a - vy * b, px + ux * a - vx * b, py + uy * a - vy * b,
        ]).fill(color)
      } else if (kind === ColliderKind.sphere) {
        g.circle(px, py, a).fill(color)
      } else if (kind === ColliderKind.cylinder || kind === ColliderKind.capsule) {
        // Axis along local z: a standing one is a disc from above; a lying one a stadium.
        const zx = R[r + 2], zy = R[r + 5]
        const ex = zx * b, ey = zy * b
        if (Math.hypot(ex, ey) < 1e-3) g.circle(px, py, a).fill(color)
        else g.moveTo(px - ex, py - ey).lineTo(px + ex, py + ey).stroke({ width: 2 * a, color, cap: kind === ColliderKind.capsule ? 'round' : 'butt' })
      } else if (kind === ColliderKind.heightfield) {
        const bb = Collider.aabb, k = e * 6
        g.rect(bb[k], bb[k + 1], bb[k + 3] - bb[k], bb[k + 4] - bb[k + 1]).stroke({ width: 0.5, color })
      }
    }
  }

  // drawPaths' scratch: the cars and lines wanted this update (reused, so an update allocates nothing)
  const wantedCars: number[] = [], wanted: Polyline[] = []
  const byId = (a: number, b: number) => a - b
  /** The line `car`'s driver follows, or null when it is no driven car. */
  function lineOf(car: number): Polyline | null {
    const { world, components } = sim
    return Number.isInteger(car) && car >= 0 && entityExists(world, car) && hasComponent(world, car, components.Driver) ? sim.aiPath(car) : null
  }

  /** The driver paths to draw now; redraws only when that list of path objects changes. */
  function drawPaths(): void {
    wantedCars.length = 0
    wanted.length = 0
    if (o.paths === true) {
      const driven = query(sim.world, [sim.components.Driver])
      for (let i = 0; i < driven.length; i++) wantedCars.push(driven[i])
      wantedCars.sort(byId)
    } else if (Array.isArray(o.paths)) {
      for (let i = 0; i < o.paths.length; i++) wantedCars.push(o.paths[i])
    }
    for (let i = 0; i < wantedCars.length; i++) { const line = lineOf(wantedCars[i]); if (line) wanted.push(line) }
    let same = wanted.length === drawnPaths.length
    for (let i = 0; same && i < wanted.length; i++) same = wanted[i] === drawnPaths[i]
    if (same) return
    drawnPaths.length = 0
    pathLayer.clear()
    for (const p of wanted) {
      drawnPaths.push(p)
      const { x, y, n, closed } = p
      if (n < 2) continue
      pathLayer.moveTo(x[0], y[0])
      for (let i = 1; i < n; i++) pathLayer.lineTo(x[i], y[i])
      if (closed) pathLayer.closePath()
      pathLayer.stroke({ width: 0.3, color: 0x7dd3fc, alpha: 0.8 })
    }
  }

  function drawCars(): void {
    const { Car } = sim.components
    const { Collider } = sim.components
    const list = query(sim.world, [Car])
    frame++
    // Pixels per metre, for the minimum car size.
    const ppm = pixelsPerMetre(root)
    for (let i = 0; i < list.length; i++) {
      const car = list[i]
      let v = cars.get(car)
      if (!v) {
        const body = new Sprite(Texture.WHITE)
        body.anchor.set(0.5)
        const nose = new Sprite(Texture.WHITE)
        nose.anchor.set(0.5)
        nose.tint = 0x101418
        const carRoot = new Container()
        carRoot.addChild(body, nose)
        carLayer.addChild(carRoot)
        v = { root: carRoot, body, seen: 0 }
        cars.set(car, v)
      }
      // Size from the chassis box (hx, hy); a hatchback's if the car has none.
      const col = Car.collider[car]
      const hx = col >= 0 ? Collider.params[col * 4] || 2 : 2, hy = col >= 0 ? Collider.params[col * 4 + 1] || 0.9 : 0.9
      const grow = Math.max(1, o.minCarPixels / (2 * hx * ppm))
      v.root.scale.set(grow)
      v.body.width = 2 * hx
      v.body.height = 2 * hy
      const nose = v.root.children[1] as Sprite
      nose.width = 0.5 * hx
      nose.height = 1.4 * hy
      nose.x = 0.25 * hx
      v.root.x = Car.x[car]
      v.root.y = Car.y[car]
      v.root.rotation = Car.heading[car]
      v.body.tint = o.carColor(car, LEVEL_BY_CODE[Car.level[car]] ?? 'full')
      v.seen = frame
    }
    // Drop views of removed cars (ids are recycled at once, so a new car simply reuses a view).
    for (const [car, v] of cars) {
      if (v.seen === frame) continue
      v.root.destroy({ children: true })
      cars.delete(car)
    }
  }

  function drawLidars(): void {
    const { Lidar } = sim.components
    const list = query(sim.world, [Lidar])
    const near = o.lidarNear, far = o.lidarFar
    const size = o.lidarPointSize / Texture.WHITE.width
    const half = o.lidarPointSize / 2
    const out = lidarLayer.particleChildren
    out.length = 0
    let n = 0
    for (let l = 0; l < list.length && n < o.maxLidarPoints; l++) {
      const lidar = list[l]
      const scan = sim.lidarScan(lidar)
      // World point = pose · p + origin (pose and origin as of that scan).
      const P = Lidar.pose, k = lidar * 9, O = Lidar.origin, q = lidar * 3
      const range = Lidar.rangeMax[lidar] || 1
      for (let i = 0; i < scan.count && n < o.maxLidarPoints; i++) {
        const x = scan.points[3 * i], y = scan.points[3 * i + 1], z = scan.points[3 * i + 2]
        let p = lidarPool[n]
        if (!p) { p = new Particle({ texture: Texture.WHITE, scaleX: size, scaleY: size }); lidarPool[n] = p }
        p.scaleX = p.scaleY = size
        p.x = P[k] * x + P[k + 1] * y + P[k + 2] * z + O[q] - half
        p.y = P[k + 3] * x + P[k + 4] * y + P[k + 5] * z + O[q + 1] - half
        p.tint = mix(near, far, Math.min(1, scan.distances[i] / range))
        out.push(p)
        n++
      }
    }
    lidarLayer.update()
    lidarPoints = n
  }

  return {
    container: root,
    get lidarPoints() { return lidarPoints },
    get meshTriangles() { return meshes.triangles },
    update() {
      if (o.colliders) {
        const key = colliderFingerprint()
        if (key !== colliderKey) { colliderKey = key; drawColliders() }
        meshes.update()
      }
      drawPaths()
      if (o.cars) drawCars()
      if (o.lidars) drawLidars()
    },
    setPaths(paths) { o.paths = paths },
    carSprite: (car) => cars.get(car)?.root,
    destroy() {
      meshes.destroy()
      root.destroy({ children: true })
      cars.clear()
      lidarPool.length = 0
    },
  }
}

/** Checks options.screen's fields (it is kept, not copied: a pixi Application's `screen` follows resizes). */
function screenRect(s: unknown): ScreenRect {
  if (s === null || typeof s !== 'object') throw new TypeError('options.screen must be a rectangle { x, y, width, height } (e.g. app.screen)')
  for (const k of ['x', 'y', 'width', 'height'] as const) finiteNumber((s as ScreenRect)[k], `options.screen.${k}`)
  return s as ScreenRect
}

function isCarBody(e: number, Car: Sim['components']['Car'], Collider: Sim['components']['Collider']): boolean {
  const owner = Collider.object[e]
  return owner >= 0 && owner < Car.collider.length && Car.collider[owner] === e
}

function mix(a: number, b: number, t: number): number {
  const ar = a >> 16, ag = (a >> 8) & 255, ab = a & 255
  const r = ar + (((b >> 16) - ar) * t) | 0, g = ag + ((((b >> 8) & 255) - ag) * t) | 0, bl = ab + (((b & 255) - ab) * t) | 0
  return (r << 16) | (g << 8) | bl
}
