/**
 * The collision state of one sim and its broadphase bookkeeping. Colliders start in the static
 * tree (built when its membership changes, then kept); the first time one moves it joins the
 * dynamic tree for good, which is refit every update that saw a move (only colliders that left their
 * padded leaf boxes change it, and its rotations keep it close to a fresh build) and rebuilt only
 * when its membership changes.
 * Planes are unbounded and live in a flat list tested by every query.
 * Why refit rather than rebuild every step: docs/decisions/0006-broadphase-and-ray-queries.md.
 */
import { ColliderKind, type ColliderStore } from '../../components/collider'
import { boxAabb, computeAabb, computeBoxAabb, type PlaneShape, type Shape } from './shapes'
import type { ColliderOptions } from './collider-options'
import { createBvh, buildBvh, type Bvh } from './bvh'
import { refitBvh } from './bvh-refit'
import type { HeightfieldData } from './heightfield'
import type { MeshData } from './mesh'
import type { RayCollisionList } from './ray-list'
import { mat3FromEulerTrig } from '../math/mat3'
import { createOriginCache, type OriginCache } from './origin-cache'
import { DEFAULT_REFLECTIVITY } from './collider-options'
import type { Surface } from '../vehicle/surfaces'

/**
 * How far (m) a moving collider's leaf box reaches beyond its own box on every side (besides its
 * recent motion ahead, bvh-refit.ts): it may move about this far before the tree changes for it, and
 * a ray passing within it tests the collider itself.
 */
const DYNAMIC_MARGIN = 1

/** Up to this many colliders wheels may stand on, a wheel's gather tests each one's box instead of walking the trees. */
export const GROUND_LIST = 16

/** Numbers per collider in CollisionState.poseTrig. */
export const POSE_TRIG = 9

/** Collision state of a sim (internal; the vehicle and lidar domains are built over it). */
export interface CollisionState {
  /** The ground plane entity, or -1. */
  ground: number
  /** Methods merged onto the Sim. */
  api: {
    /** Adds a collision body of `shape`; `object` defaults to its own entity id, `localId` to 0, `group` to 1. Returns its entity id. */
    addCollider(shape: Shape, options?: ColliderOptions): number
    /** Closest-hit ray test within `length`, with the self-filter and the collision mask. */
    rayTest(start: ArrayLike<number>, direction: ArrayLike<number>, length: number, objectId?: number, localId?: number, collisionMask?: number): RayCollisionList
    /** The shape of collider `collider` (a copy), the ground's as { kind: 'plane' }, null for kind none. */
    colliderShape(collider: number): Shape | PlaneShape | null
  }
  /** Moves a collider (validated; throws naming the argument, changes nothing on error). */
  setPose(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void
  /** Increments on any change a query result could depend on (add, remove, move, reshape). */
  version: number
  /** The sim's Collider store (its arrays are replaced when it grows: re-read per call). */
  Collider: ColliderStore
  /** Heightfield data by slot (Collider.heightfield). */
  heightfields: (HeightfieldData | undefined)[]
  /** Free heightfield slots. */
  freeSlots: number[]
  /** Mesh data by slot (Collider.mesh). */
  meshes: (MeshData | undefined)[]
  /** Free mesh slots. */
  freeMeshSlots: number[]
  /** live[eid] = 1 while eid has the Collider component (grows with maxEid). */
  live: Uint8Array
  /** Each collider's lidar reflectivity in [0, 1] (the addCollider option; grows with live). */
  reflectivity: Float64Array
  /** Each collider's surface for the wheels on it (the addCollider option), or undefined. */
  surfaces: (Surface | undefined)[]
  /** groundBody[eid] = 1 for a live collider in a tree that wheels may stand on (not a plane, not a car's chassis). */
  groundBody: Uint8Array
  /** How many colliders have groundBody[eid] = 1: none, and wheels need look at the plane list only. */
  groundBodies: number
  /** Those colliders in ascending id order while groundBodies ≤ GROUND_LIST (else unused), and whether it needs redoing. */
  groundList: Int32Array
  groundListDirty: boolean
  /** Where eid was put by the last builds: 0 nowhere yet, 1 static tree or plane list, 2 dynamic tree. */
  member: Uint8Array
  /** Colliders joined since the last update (they are looked at then: static ones rebuild the static tree). */
  pendingAdds: boolean
  /** Largest entity id that ever had a collider. */
  maxEid: number
  staticTree: Bvh
  dynamicTree: Bvh
  /** Plane colliders (ascending ids), tested by every query. */
  planes: Int32Array
  planeCount: number
  /** Static tree (and plane list) membership changed: rebuild at the next update. */
  staticDirty: boolean
  /** Dynamic tree membership changed: rebuild at the next update. */
  dynamicDirty: boolean
  /** A dynamic collider moved since the last update: refit. */
  moved: boolean
  /** Counters for tests and benches: how the dynamic tree was last kept current. */
  stats: { staticBuilds: number; dynamicBuilds: number; refits: number }
  /** Scratch list of ids for builds. */
  scratch: Int32Array
  /** Per-collider hit scratch of castRay (t, normal, triangle). */
  hitScratch: Float64Array
  /** rayTest scratch: the normalised direction and the cast result (t, normal, triangle). */
  dirScratch: Float64Array
  castScratch: Float64Array
  /** Ray scratch [ox, oy, oz, dx, dy, dz, tMax]: argRay for the rayCollider wrapper, localRay for the shape frame, castRay for queries. */
  argRay: Float64Array
  localRay: Float64Array
  castRay: Float64Array
  /**
   * [x, y, z, on]: while on is 1, every ray tested lies on a line through this world point, at or
   * behind its start (a lidar's sensor: castLidar sets it for its scan); meshes then see the scene
   * from there (mesh-view.ts). localRay[7..10] carries it into a mesh's frame.
   */
  anchor: Float64Array
  /** setColliderPoseFast's rotation scratch. */
  poseScratch: Float64Array
  /**
   * Per collider (POSE_TRIG apart), the cos and sin of its rotation's angles as setColliderPoseIn
   * last took them: [yaw, cos yaw, sin yaw, pitch, roll, cos pitch, sin pitch, cos roll, sin roll]
   * (yawTrig, tiltTrig). A car's chassis keeps them from one host step to the next, where its ground
   * code needs them again.
   */
  poseTrig: Float64Array
  /** castRay's slab-test scratch: start and inverse direction. */
  castInv: Float64Array
  /** castRay's plane frame scratch (origin-cache.ts planeFrame). */
  planeScratch: Float64Array
  /** rayTest's cache for runs of rays from one start. */
  originCache: OriginCache
}

/** A fresh state around the sim's Collider store (api and setPose are filled by installCollision). */
export function createCollisionState(Collider: ColliderStore): CollisionState {
  return {
    ground: -1,
    api: undefined as unknown as CollisionState['api'],
    setPose: undefined as unknown as CollisionState['setPose'],
    version: 0, Collider, heightfields: [], freeSlots: [], meshes: [], freeMeshSlots: [],
    live: new Uint8Array(64), reflectivity: new Float64Array(64), surfaces: [], groundBody: new Uint8Array(64), groundBodies: 0, groundList: new Int32Array(GROUND_LIST), groundListDirty: false, member: new Uint8Array(64), pendingAdds: false, maxEid: 0,
    staticTree: createBvh(4), dynamicTree: createBvh(1, DYNAMIC_MARGIN),
    planes: new Int32Array(8), planeCount: 0,
    staticDirty: true, dynamicDirty: true, moved: false,
    stats: { staticBuilds: 0, dynamicBuilds: 0, refits: 0 },
    scratch: new Int32Array(64),
    hitScratch: new Float64Array(5), dirScratch: new Float64Array(3), castScratch: new Float64Array(5),
    argRay: new Float64Array(7), localRay: new Float64Array(11), anchor: new Float64Array(4), castRay: new Float64Array(7), castInv: new Float64Array(6), planeScratch: new Float64Array(7), poseScratch: new Float64Array(9), poseTrig: new Float64Array(64 * POSE_TRIG).fill(NaN),
    originCache: createOriginCache(),
  }
}

/** Records that `eid` joined the Collider component (from the onAdd observer). */
export function colliderAdded(state: CollisionState, eid: number): void {
  if (eid >= state.live.length) {
    let n = state.live.length
    while (n <= eid) n *= 2
    const live = new Uint8Array(n), member = new Uint8Array(n), reflectivity = new Float64Array(n), groundBody = new Uint8Array(n)
    const poseTrig = new Float64Array(n * POSE_TRIG).fill(NaN)
    live.set(state.live); member.set(state.member); reflectivity.set(state.reflectivity); groundBody.set(state.groundBody); poseTrig.set(state.poseTrig)
    state.live = live; state.member = member; state.reflectivity = reflectivity; state.groundBody = groundBody; state.poseTrig = poseTrig
  }
  state.surfaces[eid] = undefined
  if (state.groundBody[eid] === 0) { state.groundBody[eid] = 1; state.groundBodies++; state.groundListDirty = true }
  state.reflectivity[eid] = DEFAULT_REFLECTIVITY
  state.live[eid] = 1
  state.member[eid] = 0
  if (eid > state.maxEid) state.maxEid = eid
  // a new collider that moves before the next update (a car's chassis) never costs a static rebuild
  state.pendingAdds = true
  state.version++
}

/** Records that `eid` left the Collider component (from the onRemove observer): it is never hit again. */
export function colliderRemoved(state: CollisionState, eid: number): void {
  const C = state.Collider
  if (eid < state.live.length) {
    state.live[eid] = 0
    if (state.member[eid] === 1) state.staticDirty = true
    else if (state.member[eid] === 2) state.dynamicDirty = true
    state.member[eid] = 0
    notGround(state, eid)
  }
  state.surfaces[eid] = undefined
  releaseHeightfield(state, eid)
  releaseMesh(state, eid)
  C.kind[eid] = ColliderKind.none
  C.dynamic[eid] = 0
  C.name[eid] = undefined
  state.version++
}

/** Marks collider `eid` as one wheels never stand on (a plane, tested apart, or a car's chassis). */
export function notGround(state: CollisionState, eid: number): void {
  if (state.groundBody[eid] === 1) { state.groundBody[eid] = 0; state.groundBodies--; state.groundListDirty = true }
}

/** Frees the heightfield slot of `eid`, if it has one. */
export function releaseHeightfield(state: CollisionState, eid: number): void {
  const C = state.Collider
  const slot = C.heightfield[eid]
  if (slot >= 0 && state.heightfields[slot] !== undefined) {
    state.heightfields[slot] = undefined
    state.freeSlots.push(slot)
  }
  C.heightfield[eid] = -1
}

/** Frees the mesh slot of `eid`, if it has one. */
export function releaseMesh(state: CollisionState, eid: number): void {
  const C = state.Collider
  const slot = C.mesh[eid]
  if (slot >= 0 && state.meshes[slot] !== undefined) {
    state.meshes[slot] = undefined
    state.freeMeshSlots.push(slot)
  }
  C.mesh[eid] = -1
}

/** Stores `m` in a slot and returns the slot index. */
export function storeMesh(state: CollisionState, m: MeshData): number {
  const slot = state.freeMeshSlots.length > 0 ? state.freeMeshSlots.pop()! : state.meshes.length
  state.meshes[slot] = m
  return slot
}

/** Stores `hf` in a slot and returns the slot index. */
export function storeHeightfield(state: CollisionState, hf: HeightfieldData): number {
  const slot = state.freeSlots.length > 0 ? state.freeSlots.pop()! : state.heightfields.length
  state.heightfields[slot] = hf
  return slot
}

/**
 * Tells the broadphase that collider `eid`'s fields (shape, pose, group…) were written directly
 * in the store: its AABB is recomputed and its tree rebuilt at the next update.
 */
export function markColliderChanged(state: CollisionState, eid: number): void {
  const C = state.Collider
  computeAabb(C, eid, state.heightfields, state.meshes)
  if (C.dynamic[eid]) state.dynamicDirty = true
  else if (state.member[eid] === 1) state.staticDirty = true
  else state.pendingAdds = true
  state.version++
}

/** After a pose write: recompute the AABB and move `eid` to the dynamic tree if it was static. */
export function colliderMoved(state: CollisionState, eid: number): void {
  const C = state.Collider
  // boxes (every car) skip computeAabb's kind dispatch
  if (C.kind[eid] === ColliderKind.box) computeBoxAabb(C, eid)
  else computeAabb(C, eid, state.heightfields, state.meshes)
  if (C.dynamic[eid] === 0) {
    C.dynamic[eid] = 1
    if (state.member[eid] === 1) state.staticDirty = true
    state.dynamicDirty = true
  } else state.moved = true
  state.version++
}

/**
 * The vehicle domain's per-step pose write (no validation: the caller guarantees a live collider
 * and finite numbers). Sets collider `eid`'s position to (x, y, z) and its rotation to
 * Rz(yaw)·Ry(pitch)·Rx(roll), then updates its AABB; the BVH is refit at the next update.
 * A pose equal to the stored one bit for bit changes nothing (a parked car does not bump the
 * version, so caches keyed on it survive). Cost: one rotation matrix and one AABB, no allocation.
 */
export function setColliderPoseFast(state: CollisionState, eid: number, x: number, y: number, z: number, yaw: number, pitch: number, roll: number): void {
  poseIn[0] = x; poseIn[1] = y; poseIn[2] = z; poseIn[3] = yaw; poseIn[4] = pitch; poseIn[5] = roll
  setColliderPoseIn(state, eid)
}

/** The pose setColliderPoseIn reads: [x, y, z, yaw, pitch, roll] (scratch). */
export const poseIn = new Float64Array(6)

/**
 * setColliderPoseFast with the pose in poseIn (the pose as one record).
 */
export function setColliderPoseIn(state: CollisionState, eid: number): void {
  const x = poseIn[0], y = poseIn[1], z = poseIn[2], pitch = poseIn[4], roll = poseIn[5]
  // a level body (pitch and roll +0: every single-track car on flat ground) takes cos 1, sin +0 as
  // they are (Math.cos/sin of +0, same bits)
  let cp = 1, sp = 0, cr = 1, sr = 0
  const T = state.poseTrig
  if (pitch !== 0 || roll !== 0 || Object.is(pitch, -0) || Object.is(roll, -0)) {
    const t = tiltTrig(state, eid)
    cp = T[t + 5]; sp = T[t + 6]; cr = T[t + 7]; sr = T[t + 8]
  }
  const o9 = yawTrig(state, eid)
  const cy = T[o9 + 1], sy = T[o9 + 2], C = state.Collider, P = C.position, p = eid * 3
  if (P[p] === x && P[p + 1] === y && P[p + 2] === z) {
    mat3FromEulerTrig(state.poseScratch, 0, cy, sy, cp, sp, cr, sr)
    poseAtSamePosition(state, eid)
    return
  }
  // a new position is a move whatever the rotation: write the rotation straight into the store
  P[p] = x; P[p + 1] = y; P[p + 2] = z
  const R = C.rotation, o = eid * 9
  mat3FromEulerTrig(R, o, cy, sy, cp, sp, cr, sr)
  if (C.kind[eid] !== ColliderKind.box || C.dynamic[eid] === 0) { colliderMoved(state, eid); return }
  boxAabb(C.aabb, eid * 6, P, p, R, o, C.params, eid * 4)
  state.moved = true
  state.version++
}

/**
 * Collider `eid`'s poseTrig entry with its yaw pair for poseIn's yaw (recomputed only when the
 * angle differs bit for bit: ±0 told apart, their sines differ); returns the entry's offset.
 */
export function yawTrig(state: CollisionState, eid: number): number {
  const T = state.poseTrig, o = eid * POSE_TRIG, yaw = poseIn[3]
  if (yaw !== T[o] || (yaw === 0 && 1 / yaw !== 1 / T[o])) { T[o] = yaw; T[o + 1] = Math.cos(yaw); T[o + 2] = Math.sin(yaw) }
  return o
}

/** yawTrig for the pitch and roll pairs (poseIn's pitch and roll). */
export function tiltTrig(state: CollisionState, eid: number): number {
  const T = state.poseTrig, o = eid * POSE_TRIG, pitch = poseIn[4], roll = poseIn[5]
  if (pitch !== T[o + 3] || roll !== T[o + 4] || (pitch === 0 && 1 / pitch !== 1 / T[o + 3]) || (roll === 0 && 1 / roll !== 1 / T[o + 4])) {
    T[o + 3] = pitch; T[o + 4] = roll
    T[o + 5] = Math.cos(pitch); T[o + 6] = Math.sin(pitch); T[o + 7] = Math.cos(roll); T[o + 8] = Math.sin(roll)
  }
  return o
}

// setColliderPoseIn at an unchanged position (poseIn), rotation in poseScratch: the rotation decides whether
// anything changed (a parked car takes this every step).
function poseAtSamePosition(state: CollisionState, eid: number): void {
  writePose(state, eid, poseIn[0], poseIn[1], poseIn[2], state.poseScratch, 0)
}

/** Like setColliderPoseFast with a row-major rotation m[mo..mo+8] (assumed orthonormal). */
export function setColliderPoseMat3Fast(state: CollisionState, eid: number, x: number, y: number, z: number, m: ArrayLike<number>, mo = 0): void {
  writePose(state, eid, x, y, z, m, mo)
}

function writePose(state: CollisionState, eid: number, x: number, y: number, z: number, m: ArrayLike<number>, mo: number): void {
  const C = state.Collider
  const P = C.position, R = C.rotation, o = eid * 9, p = eid * 3
  let same = P[p] === x && P[p + 1] === y && P[p + 2] === z
  for (let i = 0; same && i < 9; i++) same = R[o + i] === m[mo + i]
  if (same) return
  P[p] = x; P[p + 1] = y; P[p + 2] = z
  for (let i = 0; i < 9; i++) R[o + i] = m[mo + i]
  colliderMoved(state, eid)
}

/** True when a query would first have to update the broadphase. */
export function broadphaseStale(state: CollisionState): boolean {
  return state.staticDirty || state.dynamicDirty || state.moved || state.pendingAdds
}

/** Brings the trees up to date with every collider's current pose (the broadphase system and lazy queries call this). */
export function updateBroadphase(state: CollisionState): void {
  if (state.pendingAdds) {
    state.pendingAdds = false
    const live = state.live, member = state.member, kind = state.Collider.kind, dyn = state.Collider.dynamic
    for (let e = 0; e <= state.maxEid && !state.staticDirty; e++) {
      if (live[e] && member[e] === 0 && kind[e] !== ColliderKind.none && (dyn[e] === 0 || kind[e] === ColliderKind.plane)) state.staticDirty = true
    }
  }
  if (state.staticDirty) rebuildStatic(state)
  if (state.dynamicDirty) rebuildDynamic(state)
  else if (state.moved) {
    refitBvh(state.dynamicTree, state.Collider.aabb)
    state.stats.refits++
  }
  state.moved = false
}

function scratchFor(state: CollisionState): Int32Array {
  if (state.scratch.length <= state.maxEid) state.scratch = new Int32Array(Math.max(64, (state.maxEid + 1) * 2))
  return state.scratch
}

function rebuildStatic(state: CollisionState): void {
  const C = state.Collider, live = state.live, kind = C.kind, dyn = C.dynamic, hfs = state.heightfields
  const ids = scratchFor(state)
  const member = state.member
  let n = 0, planes = 0
  for (let e = 0; e <= state.maxEid; e++) {
    if (member[e] === 1) member[e] = 0
    if (!live[e] || kind[e] === ColliderKind.none) continue
    if (kind[e] === ColliderKind.plane) { planes++; member[e] = 1; continue }
    if (dyn[e]) continue
    computeAabb(C, e, hfs, state.meshes)
    ids[n++] = e
    member[e] = 1
  }
  if (state.planes.length < planes) state.planes = new Int32Array(planes * 2)
  let k = 0
  for (let e = 0; e <= state.maxEid; e++) if (live[e] && kind[e] === ColliderKind.plane) state.planes[k++] = e
  state.planeCount = k
  buildBvh(state.staticTree, ids, n, C.aabb)
  state.staticDirty = false
  state.stats.staticBuilds++
}

function rebuildDynamic(state: CollisionState): void {
  const C = state.Collider, live = state.live, kind = C.kind, dyn = C.dynamic, hfs = state.heightfields
  const ids = scratchFor(state)
  const member = state.member
  let n = 0
  for (let e = 0; e <= state.maxEid; e++) {
    if (member[e] === 2) member[e] = 0
    if (!live[e] || !dyn[e] || kind[e] === ColliderKind.none || kind[e] === ColliderKind.plane) continue
    computeAabb(C, e, hfs, state.meshes)
    ids[n++] = e
    member[e] = 2
  }
  buildBvh(state.dynamicTree, ids, n, C.aabb)
  state.dynamicDirty = false
  state.stats.dynamicBuilds++
}
