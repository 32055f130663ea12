/**
 * Wheel–ground contact: what is under a car. Once per host step a car learns whether nothing but
 * the level ground plane can be under it (then the models run their flat-ground code, as cheap as
 * before terrain existed) or gathers the colliders near it that wheels may stand on (never a car's
 * chassis). Then each substep each wheel looks along the body's down axis from its corner, from
 * `h` above the centre of mass's height, over the centre of mass's height plus the spring's droop
 * (its extension to zero load): the hit distance from the corner, the surface normal, and the
 * surface (the collider's own, else the sim's surface map at the contact, else tarmac).
 */
import type { CarStore } from '../../components/car'
import { ColliderKind } from '../../components/collider'
import type { CollisionState } from '../collision/state'
import { broadphaseStale, updateBroadphase } from '../collision/state'
import { castGround, gatherGround, groundBox } from '../collision/ground'
import type { ResolvedCar } from './definition'
import type { SurfaceMap } from './surfaces'

/** Tarmac's rolling resistance, used when the sim has no surface map. */
export const DEFAULT_RR = 0.012

/** What is under one car for a host step, and its wheels' hits of the last cast (wheel order FL, FR, RL, RR). */
export interface GroundContact {
  /** Nothing but the level ground plane at the sim's ground height can be under the car: the flat-ground code. */
  flat: boolean
  /** The collision groups the wheels stand on. */
  mask: number
  /** The gathered colliders (the first `count`). */
  cands: Int32Array
  count: number
  /** Per wheel: 1 when its ray hit within reach. */
  hit: Uint8Array
  /** Per wheel: distance from its corner at the centre of mass's height to the hit, along the body's down axis, m. */
  dist: Float64Array
  /** Per wheel: the surface normal at the hit (world, unit, facing up the ray). */
  nx: Float64Array
  ny: Float64Array
  nz: Float64Array
  /** Per wheel: the surface's grip and rolling resistance. */
  grip: Float64Array
  rr: Float64Array
  /** The collider castDown hit last, or −1. */
  hitCollider: number
  /** The sim's ground height and the host step's span, s (the caller sets them: numbers pass through here, not as a call's arguments, which would be boxed). */
  groundZ: number
  span: number
  /** How far below the centre of mass axleGround looks, m. */
  below: number
  /** The world's only plane is the sim's ground plane, level at groundZ (levelGround sets it once per host step). */
  levelOnly: boolean
  /** The body's axes in the world (x forward, y left, z up), 3 numbers each, from the last cast. */
  ex: Float64Array
  ey: Float64Array
  ez: Float64Array
}

/** A four-wheel car higher than this over its ride height above the level ground is in the air there (the rays then step it), m. */
export const FLAT_HEAVE = 0.25

/** A GroundContact to fill. */
export function createGroundContact(): GroundContact {
  return {
    flat: true, mask: -1, cands: new Int32Array(64), count: 0,
    hit: new Uint8Array(4), dist: new Float64Array(4), nx: new Float64Array(4), ny: new Float64Array(4), nz: new Float64Array(4),
    grip: new Float64Array(4), rr: new Float64Array(4), hitCollider: -1, groundZ: NaN, span: NaN, below: NaN, levelOnly: false,
    ex: new Float64Array(3), ey: new Float64Array(3), ez: new Float64Array(3),
  }
}

/** True when the only plane in `mask` is the sim's ground plane, level, at gc.groundZ. */
export function onlyLevelGround(cs: CollisionState, mask: number, gc: GroundContact): boolean {
  if (broadphaseStale(cs)) updateBroadphase(cs)
  const groundZ = gc.groundZ
  const K = cs.Collider, g = cs.ground
  let found = false
  for (let i = 0; i < cs.planeCount; i++) {
    const e = cs.planes[i]
    if ((K.group[e] & mask) === 0) continue
    if (e !== g || K.kind[e] !== ColliderKind.plane || K.rotation[e * 9 + 8] !== 1 || K.position[e * 3 + 2] !== groundZ) return false
    found = true
  }
  return found
}

/** Sets gc.levelOnly for this host step (gc.groundZ set). */
export function levelGround(cs: CollisionState, gc: GroundContact): void {
  gc.levelOnly = onlyLevelGround(cs, -1, gc)
}

/** gc.levelOnly for a car of `mask`: the level ground plane is all there is, and in its mask. */
function onLevelGround(cs: CollisionState, mask: number, gc: GroundContact): boolean {
  return gc.levelOnly && (cs.Collider.group[cs.ground] & mask) !== 0
}

/**
 * Readies `gc` for car `eid`'s substeps over the next gc.span seconds: flat when nothing but the
 * level ground plane (at gc.groundZ) can be under it, else the colliders near its path gathered.
 * levelGround has set gc.levelOnly for the host step.
 * No allocation (but the candidate list grows when a car first needs more).
 */
export function prepareGround(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, gc: GroundContact): void {
  const span = gc.span, groundZ = gc.groundZ
  const mask = C.groundMask[eid]
  gc.mask = mask
  gc.count = 0
  // (the flat code is for a car on that ground: a four-wheel car near its ride height, a
  // single-track car sitting on it; one in the air over it is stepped on the rays)
  const level = C.model[eid] === 0 ? C.heave[eid] < FLAT_HEAVE : (C.heave[eid] === 0 && C.heaveRate[eid] === 0 && C.pitch[eid] === 0 && C.roll[eid] === 0)
  gc.flat = false
  if (cs.groundBodies === 0) { gc.flat = level && onLevelGround(cs, mask, gc); return }
  // the car's reach over the span: its body, its wheels' rays, and its motion (with a margin for the speed it may gain)
  const vx = C.vx[eid], vy = C.vy[eid], vz = C.heaveRate[eid]
  const reach = d.groundRadius + span * (Math.sqrt(vx * vx + vy * vy) + 20 * span) + 0.5
  const down = d.groundDepth + span * (Math.abs(vz) + 10 * span) + 0.5
  const z = groundZ + d.h + C.heave[eid]
  groundBox[0] = C.x[eid] - reach; groundBox[1] = C.y[eid] - reach; groundBox[2] = z - down
  groundBox[3] = C.x[eid] + reach; groundBox[4] = C.y[eid] + reach; groundBox[5] = z + down + d.L
  if (gc.cands.length < cs.maxEid + 1) gc.cands = new Int32Array(2 * (cs.maxEid + 1))
  gc.count = gatherGround(cs, mask, gc.cands)
  // nothing near but the planes
  if (gc.count === 0) gc.flat = level && onLevelGround(cs, mask, gc)
}

const ray = new Float64Array(7)
const hitOut = new Float64Array(4)
// castWheels' per-wheel corner (body frame, at the centre of mass's height) and reach below it, and the centre of mass in the world
const cornerX = new Float64Array(4), cornerY = new Float64Array(4), reachOf = new Float64Array(4)
// the centre of mass in the world, and how far above it along the body's up axis the rays start
const origin = new Float64Array(4)

/**
 * Casts wheel `i`'s ray (its corner cornerX/Y[i] at `origin`'s height, lifted origin[3] along the
 * body's up axis gc.ez, down that axis over that lift + reachOf[i]) and fills wheel slot `i` of `gc`.
 * (Numbers pass through the scratch arrays: a call's double arguments would be boxed.)
 */
function castWheel(cs: CollisionState, gc: GroundContact, i: number, surfaces: SurfaceMap | null): void {
  const ex = gc.ex, ey = gc.ey, ez = gc.ez, lift = origin[3]
  const x = cornerX[i], y = cornerY[i]
  ray[0] = origin[0] + x * ex[0] + y * ey[0] + lift * ez[0]
  ray[1] = origin[1] + x * ex[1] + y * ey[1] + lift * ez[1]
  ray[2] = origin[2] + x * ex[2] + y * ey[2] + lift * ez[2]
  ray[3] = -ez[0]; ray[4] = -ez[1]; ray[5] = -ez[2]
  ray[6] = lift + reachOf[i]
  const e = castGround(cs, ray, gc.mask, gc.cands, gc.count, hitOut)
  if (e < 0) { gc.hit[i] = 0; gc.grip[i] = 1; gc.rr[i] = DEFAULT_RR; return }
  const t = hitOut[0]
  gc.hit[i] = 1
  gc.dist[i] = t - lift
  gc.nx[i] = hitOut[1]; gc.ny[i] = hitOut[2]; gc.nz[i] = hitOut[3]
  const own = cs.surfaces[e]
  const s = own !== undefined ? own : surfaces !== null ? surfaces.surfaceAt(ray[0] + t * ray[3], ray[1] + t * ray[4]) : null
  gc.grip[i] = s === null ? 1 : s.grip
  gc.rr[i] = s === null ? DEFAULT_RR : s.rollingResistance
}

/** Sets gc's body axes from car `eid`'s heading, pitch and roll (Rz(heading)·Ry(pitch)·Rx(roll)). */
export function bodyAxes(C: CarStore, eid: number, gc: GroundContact): void {
  const cp = Math.cos(C.heading[eid]), sp = Math.sin(C.heading[eid])
  const ct = Math.cos(C.pitch[eid]), st = Math.sin(C.pitch[eid])
  const cf = Math.cos(C.roll[eid]), sf = Math.sin(C.roll[eid])
  const ex = gc.ex, ey = gc.ey, ez = gc.ez
  ex[0] = cp * ct; ex[1] = sp * ct; ex[2] = -st
  ey[0] = cp * st * sf - sp * cf; ey[1] = sp * st * sf + cp * cf; ey[2] = ct * sf
  ez[0] = cp * st * cf + sp * sf; ez[1] = sp * st * cf - cp * sf; ez[2] = ct * cf
}

/** Casts the four wheels of four-wheel car `eid` (after prepareGround; not flat) into `gc`. */
export function castWheels(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, gc: GroundContact, surfaces: SurfaceMap | null): void {
  bodyAxes(C, eid, gc)
  origin[0] = C.x[eid]; origin[1] = C.y[eid]; origin[2] = gc.groundZ + d.h + C.heave[eid]; origin[3] = d.h
  cornerX[0] = cornerX[1] = d.a; cornerX[2] = cornerX[3] = -d.b
  cornerY[0] = 0.5 * d.tf; cornerY[1] = -0.5 * d.tf; cornerY[2] = 0.5 * d.tr; cornerY[3] = -0.5 * d.tr
  reachOf[0] = reachOf[1] = d.h + d.fzF / d.kF
  reachOf[2] = reachOf[3] = d.h + d.fzR / d.kR
  for (let i = 0; i < 4; i++) castWheel(cs, gc, i, surfaces)
}

/** castDown's ray: [x, y, top, length] (the caller writes it: a call's double arguments would be boxed). */
export const downRay = new Float64Array(4)

/**
 * Casts one ray straight down at world (x, y) from `top` over `length` (downRay) among everything
 * wheels in `gc.mask` may stand on near there (`gather`: gathered first, else prepareGround's);
 * true on a hit, its t in gc.dist[0] and its normal in gc slot 0. For placing a car and for the
 * single-track and path levels.
 */
export function castDown(cs: CollisionState, gc: GroundContact, gather: boolean): boolean {
  const x = downRay[0], y = downRay[1], top = downRay[2], length = downRay[3]
  if (gather) {
    groundBox[0] = x; groundBox[1] = y; groundBox[2] = top - length
    groundBox[3] = x; groundBox[4] = y; groundBox[5] = top
    if (gc.cands.length < cs.maxEid + 1) gc.cands = new Int32Array(2 * (cs.maxEid + 1))
    gc.count = gatherGround(cs, gc.mask, gc.cands)
  }
  if (broadphaseStale(cs)) updateBroadphase(cs)
  ray[0] = x; ray[1] = y; ray[2] = top; ray[3] = 0; ray[4] = 0; ray[5] = -1; ray[6] = length
  const e = castGround(cs, ray, gc.mask, gc.cands, gc.count, hitOut)
  gc.hitCollider = e
  if (e < 0) return false
  gc.dist[0] = hitOut[0]
  gc.nx[0] = hitOut[1]; gc.ny[0] = hitOut[2]; gc.nz[0] = hitOut[3]
  return true
}
