/** The chassis box collider's pose from the car's state: centre at half the body height over the ground plus heave. */
import type { CarStore } from '../../components/car'
import { ColliderKind } from '../../components/collider'
import type { CollisionState } from '../collision/state'
import { poseIn, setColliderPoseIn } from '../collision/state'
import { boxAabb } from '../collision/shapes'
import { mat3FromEulerTrig } from '../math/mat3'
import type { ResolvedCar } from './definition'
import { FROZEN_LEVEL } from './level'

/** Writes car `eid`'s chassis collider pose (the caller checks the car has a live collider). No allocation. */
export function writeChassisPose(cs: CollisionState, C: CarStore, d: ResolvedCar, eid: number, groundZ: number): void {
  poseIn[0] = C.x[eid]; poseIn[1] = C.y[eid]; poseIn[2] = groundZ + 0.5 * d.def.height + C.heave[eid]
  poseIn[3] = C.heading[eid]; poseIn[4] = C.pitch[eid]; poseIn[5] = C.roll[eid]
  setColliderPoseIn(cs, C.collider[eid])
}

/**
 * writeChassisPose for every car in `cars` that is not frozen and has a definition and a live collider, in one loop
 * (same bits, same collision version). A level body (pitch and roll +0: every single-track car)
 * whose box is already in the dynamic tree and moved is written here, with no call, no scratch
 * round trip and its one cos/sin pair: setColliderPoseIn's level move, which the rest go through.
 * Cost ≈ one cos/sin pair, a rotation and a box per moving car; no allocation.
 */
export function writeChassisPoses(cs: CollisionState, C: CarStore, defs: readonly (ResolvedCar | undefined)[], cars: ArrayLike<number>, groundZ: number): void {
  const X = C.x, Y = C.y, heading = C.heading, heave = C.heave, pitch = C.pitch, roll = C.roll, collider = C.collider, level = C.level
  const K = cs.Collider, P = K.position, R = K.rotation, aabb = K.aabb, kind = K.kind, dynamic = K.dynamic, params = K.params
  let moves = 0
  for (let k = 0; k < cars.length; k++) {
    const eid = cars[k]
    if (level[eid] === FROZEN_LEVEL) continue // its collider stays where it was (setPose and restore move it themselves)
    const c = collider[eid]
    const d = defs[eid]
    if (c < 0 || d === undefined) continue
    const p = pitch[eid], r = roll[eid], x = X[eid], y = Y[eid], z = groundZ + 0.5 * d.def.height + heave[eid], o = c * 3
    const levelMove = p === 0 && r === 0 && !Object.is(p, -0) && !Object.is(r, -0) && kind[c] === ColliderKind.box && dynamic[c] !== 0 && (P[o] !== x || P[o + 1] !== y || P[o + 2] !== z)
    if (!levelMove) { writeChassisPose(cs, C, d, eid, groundZ); continue }
    const yaw = heading[eid]
    P[o] = x; P[o + 1] = y; P[o + 2] = z
    mat3FromEulerTrig(R, c * 9, Math.cos(yaw), Math.sin(yaw), 1, 0, 1, 0)
    boxAabb(aabb, c * 6, P, o, R, c * 9, params, c * 4)
    moves++
  }
  // what setColliderPoseIn does per move, once for them all
  if (moves > 0) { cs.moved = true; cs.version += moves }
}
