/**
 * The single-track model on any ground: once per host step a ray straight down under each axle
 * finds the surface there (its height, normal and surface); over the substeps gravity acts along
 * that slope and an axle in the air carries no tyre force; then the car's height follows the
 * surface under its axles at the new position (extrapolated along each axle's surface plane:
 * exact on a plane, off by half the surface's curvature times the step's travel squared), unless
 * flying on would keep it above the surface (over a crest, off a ramp): then it is ballistic until
 * it comes down onto the surface. Pitch follows the line between the axles' surface points, roll
 * the ground's cross slope (both for the pose; the model itself stays planar).
 */
import type { CarStore } from '../../components/car'
import type { CollisionState } from '../collision/state'
import type { ResolvedCar } from './definition'
import type { Surface, SurfaceMap } from './surfaces'
import type { Substep } from './substep'
import { castDown, createGroundContact, droopOf, DEFAULT_RR, onlyLevelGround, prepareGround, type GroundContact } from './ground-contact'
import { singleTrackSubsteps, type AxleGround } from './single-track'

/** The model's axles are on the surface when the car is within this of it, m. */
export const ON_SURFACE = 0.01

const axles: AxleGround = { gx: 0, gy: 0, onF: 1, onR: 1 }
const tarmac: Surface = { name: 'tarmac', grip: 1, rollingResistance: DEFAULT_RR }

/** One axle's ground: hit, height, normal, surface, and where it was looked for. */
interface AxleHit { hit: boolean; x: number; y: number; z: number; nx: number; ny: number; nz: number; surface: Surface }
const front: AxleHit = { hit: false, x: 0, y: 0, z: 0, nx: 0, ny: 0, nz: 1, surface: tarmac }
const rear: AxleHit = { hit: false, x: 0, y: 0, z: 0, nx: 0, ny: 0, nz: 1, surface: tarmac }

// the substeps' surface lookups answered by the nearer axle's surface
const axleSurfaces: SurfaceMap = {
  surfaceAt(x, y) {
    const df = (x - front.x) ** 2 + (y - front.y) ** 2
    const dr = (x - rear.x) ** 2 + (y - rear.y) ** 2
    return df <= dr ? front.surface : rear.surface
  },
}

/** Casts under the axle point (x, y) from `top` over `length` into `out`. */
function castAxle(cs: CollisionState, gc: GroundContact, x: number, y: number, top: number, length: number, surfaces: SurfaceMap | null, gather: boolean, out: AxleHit): void {
  const t = castDown(cs, gc, x, y, top, length, gather)
  out.x = x; out.y = y
  out.hit = t >= 0
  if (!out.hit) return
  out.z = top - t
  out.nx = gc.nx[0]; out.ny = gc.ny[0]; out.nz = gc.nz[0]
  const own = gc.hitCollider >= 0 ? cs.surfaces[gc.hitCollider] : undefined
  out.surface = own !== undefined ? own : surfaces !== null ? surfaces.surfaceAt(x, y) : tarmac
}

/** The height of `g`'s surface plane at (x, y). */
function planeZ(g: AxleHit, x: number, y: number): number {
  return g.z - (g.nx * (x - g.x) + g.ny * (y - g.y)) / g.nz
}

/**
 * Finds the ground under both axles of car `eid` at its pose (into the module's front and rear),
 * from `lift` above its centre of mass down to `below` under it. Returns the centre of mass's
 * height on that ground (NaN when neither axle has ground).
 */
export function axleGround(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, groundZ: number, gc: GroundContact, surfaces: SurfaceMap | null, below: number): number {
  const cp = Math.cos(C.heading[eid]), sp = Math.sin(C.heading[eid])
  const x = C.x[eid], y = C.y[eid]
  const lift = d.h + 0.5 * d.L
  const top = groundZ + d.h + C.heave[eid] + lift
  castAxle(cs, gc, x + cp * d.a, y + sp * d.a, top, lift + below, surfaces, false, front)
  castAxle(cs, gc, x - cp * d.b, y - sp * d.b, top, lift + below, surfaces, false, rear)
  if (!front.hit && !rear.hit) return NaN
  const zf = front.hit ? front.z : rear.z
  const zr = rear.hit ? rear.z : front.z
  return (d.b * zf + d.a * zr) / d.L + d.h
}

/** Writes the pose the ground under the axles gives car `eid` (pitch from the axles' heights, roll from the cross slope). */
function groundPose(C: CarStore, d: ResolvedCar, eid: number, zf: number, zr: number): void {
  C.pitch[eid] = Math.atan2(zr - zf, d.L)
  const sp = Math.sin(C.heading[eid]), cp = Math.cos(C.heading[eid])
  const nx = front.nx + rear.nx, ny = front.ny + rear.ny, nz = front.nz + rear.nz
  // the left side is up where the ground rises to the left (the normal leans right)
  C.roll[eid] = Math.atan2(-(-nx * sp + ny * cp), nz)
}

/**
 * Advances single-track car `eid` by `n` substeps on the ground prepareGround found (not flat),
 * then its height and pose (see the file comment). Writes Car.grounded (axles as pairs).
 */
export function singleTrackGround(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, groundZ: number, gc: GroundContact, surfaces: SurfaceMap | null, step: Substep, n: number): void {
  const span = n * step.h
  const g = step.gravity
  const z0 = groundZ + d.h + C.heave[eid]
  const zd0 = C.heaveRate[eid]
  const below = d.h + droopOf(d, true) + 0.5 * d.L + Math.abs(zd0) * span + 0.5 * g * span * span + ON_SURFACE
  const target0 = axleGround(cs, C, d, eid, groundZ, gc, surfaces, below)
  // on the ground when at (or below) the surface; gravity acts along it through the axles on it
  const on = target0 === target0 && z0 <= target0 + ON_SURFACE
  axles.onF = on && front.hit ? 1 : 0
  axles.onR = on && rear.hit ? 1 : 0
  axles.gx = 0; axles.gy = 0
  if (on) {
    const k = (front.hit ? 1 : 0) + (rear.hit ? 1 : 0)
    const nx = ((front.hit ? front.nx : 0) + (rear.hit ? rear.nx : 0)) / k
    const ny = ((front.hit ? front.ny : 0) + (rear.hit ? rear.ny : 0)) / k
    const nz = ((front.hit ? front.nz : 0) + (rear.hit ? rear.nz : 0)) / k
    axles.gx = g * nz * nx
    axles.gy = g * nz * ny
  }
  singleTrackSubsteps(C, d, eid, axleSurfaces, step, n, axles)
  // the surface under the axles at the new pose, along each axle's plane
  const cp = Math.cos(C.heading[eid]), sp = Math.sin(C.heading[eid])
  const x = C.x[eid], y = C.y[eid]
  let target = NaN
  let zf = NaN, zr = NaN
  if (target0 === target0) {
    zf = front.hit ? planeZ(front, x + cp * d.a, y + sp * d.a) : planeZ(rear, x + cp * d.a, y + sp * d.a)
    zr = rear.hit ? planeZ(rear, x - cp * d.b, y - sp * d.b) : planeZ(front, x - cp * d.b, y - sp * d.b)
    target = (d.b * zf + d.a * zr) / d.L + d.h
  }
  // ballistic unless that would take it to (or under) the surface
  const zb = z0 + span * zd0 - 0.5 * g * span * span
  const w0 = eid * 4
  if (target === target && zb <= target + ON_SURFACE) {
    C.heave[eid] = target - groundZ - d.h
    C.heaveRate[eid] = (target - z0) / span
    groundPose(C, d, eid, zf, zr)
    C.grounded[w0] = C.grounded[w0 + 1] = front.hit ? 1 : 0
    C.grounded[w0 + 2] = C.grounded[w0 + 3] = rear.hit ? 1 : 0
  } else {
    C.heave[eid] = zb - groundZ - d.h
    C.heaveRate[eid] = zd0 - g * span
    C.grounded.fill(0, w0, w0 + 4)
  }
  C.rollRate[eid] = 0
  C.pitchRate[eid] = 0
}

const pathGround = createGroundContact()

/**
 * The path level on any ground: every car of `cars` (moved along its line this host step of
 * `span` s) sits on the surface under its axles, its pitch and roll those of the ground (the path
 * level's climb reads the pitch). Nothing to do in a world of the level ground plane alone.
 */
export function pathCarsOnGround(cs: CollisionState, C: CarStore, defs: readonly (ResolvedCar | undefined)[], cars: ArrayLike<number>, groundZ: number, span: number, surfaces: SurfaceMap | null): void {
  if (cars.length === 0 || (cs.groundBodies === 0 && onlyLevelGround(cs, -1, groundZ))) return
  for (let k = 0; k < cars.length; k++) {
    const eid = cars[k]
    const d = defs[eid]
    if (d === undefined) continue
    prepareGround(cs, C, d, eid, span, groundZ, pathGround)
    if (pathGround.flat) continue
    const z0 = groundZ + d.h + C.heave[eid]
    const target = axleGround(cs, C, d, eid, groundZ, pathGround, surfaces, d.h + d.L + 2)
    const w0 = eid * 4
    if (target !== target) { C.grounded.fill(0, w0, w0 + 4); continue }
    C.heave[eid] = target - groundZ - d.h
    C.heaveRate[eid] = span > 0 ? (target - z0) / span : 0
    groundPose(C, d, eid, front.hit ? front.z : rear.z, rear.hit ? rear.z : front.z)
    C.grounded[w0] = C.grounded[w0 + 1] = front.hit ? 1 : 0
    C.grounded[w0 + 2] = C.grounded[w0 + 3] = rear.hit ? 1 : 0
  }
}
