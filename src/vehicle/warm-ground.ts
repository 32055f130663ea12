/**
 * Runs the ground paths (the gathers by list and by tree, the wheels' and axles' rays on a plane,
 * boxes and a heightfield, the four-wheel and single-track models on them, a wheel and an axle in
 * the air, the path level on the ground) on the warm-up's private car over a private collision
 * world, so their first optimised code has seen every branch: a car's first slope or kerb late in
 * a race would otherwise run them unoptimised, allocating (test/perf/perf.test.ts "race frames").
 */
import type { CarStore } from '../../components/car'
import { ColliderKind, createColliderComponent } from '../../components/collider'
import { colliderAdded, createCollisionState, notGround, storeHeightfield, type CollisionState } from '../collision/state'
import { computeAabb } from '../collision/shapes'
import { parseHeightfield } from '../collision/heightfield'
import { GROUND_LIST } from '../collision/state'
import type { ResolvedCar } from './definition'
import type { Substep } from './substep'
import { createGroundContact, levelGround, prepareGround } from './ground-contact'
import { pathCarsOnGround } from './single-track-ground'
import { stepOnGround } from './step-on-ground'
import { surfaces, type SurfaceMap } from './surfaces'

/** A private world: the level ground plane, `boxes` boxes (a platform and a wall by it at x ≈ 0, the wall with a surface of its own) and a heightfield hill at x ≈ 40. */
function privateWorld(boxes: number): CollisionState {
  const { Collider: K } = createColliderComponent()
  const cs = createCollisionState(K)
  const add = (kind: number): number => {
    const e = cs.maxEid + (cs.live[0] === 1 ? 1 : 0)
    colliderAdded(cs, e)
    K.kind[e] = kind; K.group[e] = 1; K.object[e] = e; K.heightfield[e] = -1
    K.rotation.fill(0, e * 9, e * 9 + 9); K.rotation[e * 9] = K.rotation[e * 9 + 4] = K.rotation[e * 9 + 8] = 1
    return e
  }
  const plane = add(ColliderKind.plane)
  notGround(cs, plane)
  cs.ground = plane
  for (let i = 0; i < boxes; i++) {
    const e = add(ColliderKind.box)
    // the first a kerb-high platform at x ≈ 0, the second a wall 2 m tall beside it (the wheels' rays start inside it), the rest far away
    K.params[e * 4] = i < 2 ? 6 : 0.5; K.params[e * 4 + 1] = i === 0 ? 4 : 0.5; K.params[e * 4 + 2] = i === 1 ? 1 : 0.05
    K.position[e * 3] = i < 2 ? 6 * i : 100 + 3 * i; K.position[e * 3 + 1] = i === 0 ? 0.5 : i === 1 ? 4.3 : 0; K.position[e * 3 + 2] = i === 1 ? 1 : 0.05
    if (i === 1) cs.surfaces[e] = surfaces.gravel
    computeAabb(K, e, cs.heightfields, cs.meshes)
  }
  const hf = add(ColliderKind.heightfield)
  const n = 21, heights: number[] = []
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) heights.push(1.3 * Math.sin(0.31 * i) * Math.cos(0.17 * j))
  K.heightfield[hf] = storeHeightfield(cs, parseHeightfield({ kind: 'heightfield', origin: [30, -20, 0], cellSize: 2, columns: n, rows: n, heights }, 'heightfield'))
  computeAabb(K, hf, cs.heightfields, cs.meshes)
  return cs
}

const gc = createGroundContact()
const tarmacMap: SurfaceMap = { surfaceAt: () => surfaces.tarmac }
const cars = new Int32Array(1)
/**
 * Host steps per scene of a single-track car: after the first 3 (of 4 substeps), steps of one
 * substep, enough for V8 to optimise the single-track ground path here. A car of the race reaches
 * that path only beside or across a wall, too rarely to get it optimised, and unoptimised it
 * allocates for every number: test/perf/perf.test.ts "race frames" (and "race steady") fail
 * without it.
 */
const SINGLE_TRACK_STEPS = 60

/**
 * Drives the private car `eid` (its state set by the caller's last scene) of definition `d` over
 * the private worlds at both levels and the path level: on the platform's edge (a wheel off it),
 * over the hill, and dropped from a height.
 */
export function warmGround(C: CarStore, d: ResolvedCar, eid: number, step: Substep, gravity: number): void {
  const defs: (ResolvedCar | undefined)[] = [d]
  for (const cs of [privateWorld(2), privateWorld(GROUND_LIST + 2)]) {
    for (let k = 0; k < 6; k++) {
      for (let model = d.fourWheel ? 0 : 1; model < 2; model++) {
        const hz = model === 0 ? d.hz : 240
        step.h = 1 / hz
        step.gravity = gravity
        C.model[eid] = model
        C.x[eid] = k < 2 ? 5.3 : 40.1 + k; C.y[eid] = k & 1 ? 3.7 : 0.3; C.heading[eid] = 0.1 * k
        C.vx[eid] = 3.1 + 2.3 * k; C.vy[eid] = 0.011; C.yawRate[eid] = 0.013
        C.heave[eid] = k === 5 ? 3.1 : 0.1 + 0.3 * (k & 1); C.heaveRate[eid] = k === 5 ? -1.3 : 0.001
        C.roll[eid] = 0.001; C.rollRate[eid] = 0.001; C.pitch[eid] = -0.001; C.pitchRate[eid] = 0.001
        C.groundMask[eid] = -1
        C.grounded.fill(k === 5 ? 0 : 1, eid * 4, eid * 4 + 4)
        C.throttle[eid] = 0.5; C.brake[eid] = k === 3 ? 0.7 : 0; C.steer[eid] = 0.1; C.gear[eid] = 1
        gc.groundZ = 0
        gc.span = 1 / 60
        levelGround(cs, gc)
        // (k 4: far from every box and the hill, over the plane alone: the flat code)
        if (k === 4) { C.x[eid] = -60; C.heave[eid] = 0; C.heaveRate[eid] = 0; C.pitch[eid] = 0; C.roll[eid] = 0 }
        const steps = model === 0 ? 3 : SINGLE_TRACK_STEPS
        for (let i = 0; i < steps; i++) {
          prepareGround(cs, C, d, eid, gc)
          stepOnGround(cs, C, d, eid, gc, i === 1 ? tarmacMap : null, step, model === 0 ? 17 : i < 3 ? 4 : 1)
        }
      }
      cars[0] = eid
      pathCarsOnGround(cs, C, defs, cars, 0, 1 / 60, null)
    }
  }
}
