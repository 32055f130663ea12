/**
 * The single-track model on any ground. Over a host step's substeps gravity acts along the ground
 * the car stood on at the step's start (its pitch and roll are that ground's) and an axle that
 * was in the air carries no tyre force. Then a ray straight down under each axle finds the
 * surface at the new pose: the car sits on it (its height, its rate of rise along the car's
 * velocity, pitch from the axles' heights, roll from the cross slope) unless flying on from the
 * step's start would keep it above it (a crest taken faster than gravity bends the path, a ramp's
 * lip): then it is ballistic until it comes down onto the surface.
 */
import type { CarStore } from '../../components/car'
import type { CollisionState } from '../collision/state'
import { broadphaseStale, poseIn, tiltTrig, updateBroadphase, yawTrig } from '../collision/state'
import { castGround, heightfieldDown, loneHeightfield } from '../collision/ground'
import type { ResolvedCar } from './definition'
import type { Surface, SurfaceMap } from './surfaces'
import type { Substep } from './substep'
import { createGroundContact, DEFAULT_RR, levelGround, onlyLevelGround, prepareGround, type GroundContact } from './ground-contact'
import { singleTrackSubsteps, type AxleGround } from './single-track'

/** Extra reach of the axles' rays below where the car may get to, m. */
export const ON_SURFACE = 0.01
/** A car flying on within this above the ground lands on it, m (rounding). */
const LANDS_WITHIN = 1e-6
/**
 * A car flying on within this above the ground still has its wheels on it (they reach down on
 * their springs), m: so a faceted surface's convex edges do not throw it, while a crest taken
 * faster than gravity bends the path opens the gap past this within a few steps.
 */
export const CONTACT_GAP = 0.02

// (numbers start as NaN: decision 0007)
const axles: AxleGround = { gx: NaN, gy: NaN, onF: NaN, onR: NaN, cp: NaN, sp: NaN }
const tarmac: Surface = { name: 'tarmac', grip: 1, rollingResistance: DEFAULT_RR }

/** One axle's ground: hit, height, normal, surface, and where it was looked for. */
interface AxleHit { hit: boolean; collider: number; x: number; y: number; z: number; nx: number; ny: number; nz: number; surface: Surface }
const front: AxleHit = { hit: false, collider: -1, x: NaN, y: NaN, z: NaN, nx: NaN, ny: NaN, nz: NaN, surface: tarmac }
const rear: AxleHit = { hit: false, collider: -1, x: NaN, y: NaN, z: NaN, nx: NaN, ny: NaN, nz: NaN, surface: tarmac }

// the substeps' surface lookups answered by the nearer axle's surface
const axleSurfaces: SurfaceMap = {
  surfaceAt(x, y) {
    const fx = x - front.x, fy = y - front.y, rx = x - rear.x, ry = y - rear.y
    const df = fx * fx + fy * fy
    const dr = rx * rx + ry * ry
    return df <= dr ? front.surface : rear.surface
  },
}

// the axles' ground heights (front, rear) and the centre of mass's height on them (scratch: a
// call's double arguments and results would be boxed)
const heights = new Float64Array(3)
// cos and sin of the car's heading at its current pose (headingTrig sets them; axleGround and
// groundPose read them), then of its pitch and roll (tiltTrigOf)
const trig = new Float64Array(6)

/**
 * Sets trig[0..1] from car `eid`'s heading: through its chassis collider's poseTrig when it has
 * one, which the chassis pose write then finds ready (same bits as Math.cos/sin of the heading).
 */
function headingTrig(cs: CollisionState, C: CarStore, eid: number): void {
  const c = C.collider[eid]
  if (c < 0) { trig[0] = Math.cos(C.heading[eid]); trig[1] = Math.sin(C.heading[eid]); return }
  poseIn[3] = C.heading[eid]
  const o = yawTrig(cs, c), T = cs.poseTrig
  trig[0] = T[o + 1]; trig[1] = T[o + 2]
}

/** headingTrig for the pitch and roll pairs (trig[2..5]): the chassis pose write of the last host step left them ready. */
function tiltTrigOf(cs: CollisionState, C: CarStore, eid: number): void {
  const c = C.collider[eid]
  if (c < 0) { trig[2] = Math.cos(C.pitch[eid]); trig[3] = Math.sin(C.pitch[eid]); trig[4] = Math.cos(C.roll[eid]); trig[5] = Math.sin(C.roll[eid]); return }
  poseIn[4] = C.pitch[eid]; poseIn[5] = C.roll[eid]
  const o = tiltTrig(cs, c), T = cs.poseTrig
  trig[2] = T[o + 5]; trig[3] = T[o + 6]; trig[4] = T[o + 7]; trig[5] = T[o + 8]
}

// an axle's ray straight down, [x, y, top, 0, 0, −1, length] (castGround shortens the length to its hit), and the hit
const axleRay = new Float64Array([NaN, NaN, NaN, 0, 0, -1, NaN])
const axleHit = new Float64Array(5)

/** Casts axleRay among gc's candidates into `out`. */
function castAxle(cs: CollisionState, gc: GroundContact, surfaces: SurfaceMap | null, out: AxleHit): void {
  const e = castGround(cs, axleRay, gc.mask, gc.cands, gc.count, axleHit)
  out.hit = e >= 0
  out.collider = e
  out.x = axleRay[0]; out.y = axleRay[1]
  if (e < 0) return
  out.z = axleRay[2] - axleHit[0]
  out.nx = axleHit[1]; out.ny = axleHit[2]; out.nz = axleHit[3]
  const own = cs.surfaces[e]
  out.surface = own !== undefined ? own : surfaces !== null ? surfaces.surfaceAt(out.x, out.y) : tarmac
}

/**
 * Finds the ground under both axles of car `eid` at its pose (into the module's front and rear),
 * from h + L/2 above its centre of mass down to gc.below under it (`trig` set at its heading). On
 * ground under either axle (true) `heights` holds the axles' ground heights and the centre of
 * mass's height on them.
 */
export function axleGround(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, gc: GroundContact, surfaces: SurfaceMap | null): boolean {
  const groundZ = gc.groundZ, below = gc.below
  const cp = trig[0], sp = trig[1]
  const x = C.x[eid], y = C.y[eid]
  const lift = d.h + 0.5 * d.L
  const length = lift + below
  if (broadphaseStale(cs)) updateBroadphase(cs)
  const top = groundZ + d.h + C.heave[eid] + lift
  axleRay[2] = top
  if (loneHeightfield(cs, gc.cands, gc.count)) {
    // the usual terrain world: both axles read the field's triangles under them directly, with
    // castGround's answer (its hit at t > 0) and none of its per-ray set-up
    const e = gc.cands[0]
    const own = cs.surfaces[e]
    for (let i = 0; i < 2; i++) {
      const out = i === 0 ? front : rear
      const ax = i === 0 ? x + cp * d.a : x - cp * d.b, ay = i === 0 ? y + sp * d.a : y - sp * d.b
      axleRay[0] = ax; axleRay[1] = ay; axleRay[6] = length
      out.x = ax; out.y = ay
      out.hit = heightfieldDown(cs, e, axleRay, axleHit) && axleHit[0] !== 0
      out.collider = out.hit ? e : -1
      if (!out.hit) continue
      out.z = top - axleHit[0]
      out.nx = axleHit[1]; out.ny = axleHit[2]; out.nz = axleHit[3]
      out.surface = own !== undefined ? own : surfaces !== null ? surfaces.surfaceAt(ax, ay) : tarmac
    }
  } else {
    axleRay[0] = x + cp * d.a; axleRay[1] = y + sp * d.a; axleRay[6] = length
    castAxle(cs, gc, surfaces, front)
    axleRay[0] = x - cp * d.b; axleRay[1] = y - sp * d.b; axleRay[6] = length
    castAxle(cs, gc, surfaces, rear)
  }
  if (!front.hit && !rear.hit) return false
  heights[0] = front.hit ? front.z : rear.z
  heights[1] = rear.hit ? rear.z : front.z
  heights[2] = (d.b * heights[0] + d.a * heights[1]) / d.L + d.h
  return true
}

/** Writes the pose the ground under the axles (`heights`, `trig`) gives car `eid`: pitch from the axles' heights, roll from the cross slope. */
function groundPose(C: CarStore, d: ResolvedCar, eid: number): void {
  C.pitch[eid] = Math.atan2(heights[1] - heights[0], d.L)
  const cp = trig[0], sp = trig[1]
  const nx = front.nx + rear.nx, ny = front.ny + rear.ny, nz = front.nz + rear.nz
  // the left side is up where the ground rises to the left (the normal leans right)
  C.roll[eid] = Math.atan2(nx * sp - ny * cp, nz)
}

/**
 * Advances single-track car `eid` by `n` substeps on the ground prepareGround found (not flat),
 * then its height and pose (see the file comment). Writes Car.grounded (axles as pairs).
 */
export function singleTrackGround(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, gc: GroundContact, surfaces: SurfaceMap | null, step: Substep, n: number): void {
  const span = n * step.h
  const groundZ = gc.groundZ
  const g = step.gravity
  const w0 = eid * 4
  // over the substeps: the axles on the ground at the last step carry tyre forces, and gravity
  // acts along the ground they stood on (its normal: the body's up axis, pitch and roll being the ground's)
  axles.onF = C.grounded[w0]
  axles.onR = C.grounded[w0 + 2]
  axles.gx = 0; axles.gy = 0
  // the heading's cos and sin, shared with the substeps
  headingTrig(cs, C, eid)
  const cp = trig[0], sp = trig[1]
  axles.cp = cp; axles.sp = sp
  let lookup: SurfaceMap | null = null
  if (axles.onF + axles.onR > 0) {
    // the body's up axis (bodyAxes' ez)
    tiltTrigOf(cs, C, eid)
    const ct = trig[2], st = trig[3], cf = trig[4], sf = trig[5]
    const ezx = cp * st * cf + sp * sf, ezy = sp * st * cf - cp * sf, ezz = ct * cf
    // the normal load per unit weight: gravity's part across the ground and the car's
    // acceleration into it (the cornering one, r·vx to the left, on a bank)
    const across = C.yawRate[eid] * C.vx[eid] * (ezy * cp - ezx * sp)
    let load = ezz + across / g
    if (load < 0) load = 0
    axles.onF *= load
    axles.onR *= load
    axles.gx = g * load * ezx
    axles.gy = g * load * ezy
    if (surfacesAt(cs, C, d, eid, gc, surfaces)) lookup = axleSurfaces
  }
  const z0 = groundZ + d.h + C.heave[eid]
  const zd0 = C.heaveRate[eid]
  singleTrackSubsteps(C, d, eid, lookup, step, n, axles)
  // the ground under the axles at the new pose: on it unless flying on would keep the car above it
  const zb = z0 + span * zd0 - 0.5 * g * span * span
  gc.below = d.h + d.fzF / d.kF + 0.5 * d.L + Math.abs(zd0) * span + g * span * span + ON_SURFACE
  C.heave[eid] = zb - groundZ - d.h
  headingTrig(cs, C, eid)
  const found = axleGround(cs, C, d, eid, gc, surfaces)
  if (found && zb <= heights[2] + LANDS_WITHIN) {
    // on the ground
    C.heave[eid] = heights[2] - groundZ - d.h
    // moving along the ground: the rate it rises under the axles at the car's velocity
    const cp = trig[0], sp = trig[1]
    const vx = C.vx[eid] * cp - C.vy[eid] * sp, vy = C.vx[eid] * sp + C.vy[eid] * cp
    const F = front.hit ? front : rear, R = rear.hit ? rear : front
    const rateF = -(F.nx * vx + F.ny * vy) / F.nz, rateR = -(R.nx * vx + R.ny * vy) / R.nz
    C.heaveRate[eid] = (d.b * rateF + d.a * rateR) / d.L
    groundPose(C, d, eid)
    C.grounded[w0] = C.grounded[w0 + 1] = front.hit ? 1 : 0
    C.grounded[w0 + 2] = C.grounded[w0 + 3] = rear.hit ? 1 : 0
    // both axles on the level ground plane: exactly level, so the next step takes the flat code
    if (front.collider === cs.ground && rear.collider === cs.ground && onlyLevelGround(cs, gc.mask, gc)) {
      C.heave[eid] = 0; C.heaveRate[eid] = 0; C.pitch[eid] = 0; C.roll[eid] = 0
    }
  } else if (found && zb <= heights[2] + CONTACT_GAP) {
    // just above it (past a faceted surface's convex edge): flying on, the wheels still touching
    C.heaveRate[eid] = zd0 - g * span
    groundPose(C, d, eid)
    C.grounded[w0] = C.grounded[w0 + 1] = front.hit ? 1 : 0
    C.grounded[w0 + 2] = C.grounded[w0 + 3] = rear.hit ? 1 : 0
  } else {
    C.heaveRate[eid] = zd0 - g * span
    C.grounded[w0] = C.grounded[w0 + 1] = C.grounded[w0 + 2] = C.grounded[w0 + 3] = 0
  }
  C.rollRate[eid] = 0
  C.pitchRate[eid] = 0
}

/**
 * The surfaces under the axles of car `eid` at its pose (`trig` set at its heading) for the
 * substeps' lookups (a ground without colliders of its own surface: the map's); false when there
 * is neither (tarmac: the model's own default, with no lookups).
 */
function surfacesAt(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, gc: GroundContact, surfaces: SurfaceMap | null): boolean {
  front.surface = rear.surface = tarmac
  if (surfaces === null && !hasOwnSurfaces(cs, gc)) return false
  const cp = trig[0], sp = trig[1]
  front.x = C.x[eid] + cp * d.a; front.y = C.y[eid] + sp * d.a
  rear.x = C.x[eid] - cp * d.b; rear.y = C.y[eid] - sp * d.b
  gc.below = d.h + d.L
  axleGround(cs, C, d, eid, gc, surfaces)
  return true
}

/** True when a gathered collider has a surface of its own. */
function hasOwnSurfaces(cs: CollisionState, gc: GroundContact): boolean {
  for (let k = 0; k < gc.count; k++) if (cs.surfaces[gc.cands[k]] !== undefined) return true
  return false
}

const pathGround = createGroundContact()

/**
 * The path level on any ground: every car of `cars` (moved along its line this host step of
 * `span` s) sits on the surface under its axles, its pitch and roll those of the ground (the path
 * level's climb reads the pitch). Nothing to do in a world of the level ground plane alone.
 */
export function pathCarsOnGround(cs: CollisionState, C: CarStore, defs: readonly (ResolvedCar | undefined)[], cars: ArrayLike<number>, groundZ: number, span: number, surfaces: SurfaceMap | null): void {
  if (cars.length === 0) return
  pathGround.groundZ = groundZ
  levelGround(cs, pathGround)
  if (cs.groundBodies === 0 && pathGround.levelOnly) return
  pathGround.span = span
  for (let k = 0; k < cars.length; k++) {
    const eid = cars[k]
    const d = defs[eid]
    if (d === undefined) continue
    prepareGround(cs, C, d, eid, pathGround)
    if (pathGround.flat) continue
    const z0 = groundZ + d.h + C.heave[eid]
    const w0 = eid * 4
    pathGround.below = d.h + d.L + 2
    headingTrig(cs, C, eid)
    if (!axleGround(cs, C, d, eid, pathGround, surfaces)) { C.grounded.fill(0, w0, w0 + 4); continue }
    C.heave[eid] = heights[2] - groundZ - d.h
    C.heaveRate[eid] = span > 0 ? (heights[2] - z0) / span : 0
    groundPose(C, d, eid)
    C.grounded[w0] = C.grounded[w0 + 1] = front.hit ? 1 : 0
    C.grounded[w0 + 2] = C.grounded[w0 + 3] = rear.hit ? 1 : 0
  }
}
