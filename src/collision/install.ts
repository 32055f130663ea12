/** Installs the collision domain into a sim: collider stores, broadphase system, ray queries. */
import type { Sim } from '../sim'

/** Collision state of a sim (internal). */
export interface CollisionState {
  /** The ground plane entity, or -1. */
  ground: number
  /** Methods merged onto the Sim. */
  api: {
    /** Adds a collider; see DESIGN section 3. */
    addCollider(shape: unknown, options?: unknown): number
    /** Closest-hit ray test; see DESIGN section 5. */
    rayTest(start: ArrayLike<number>, direction: ArrayLike<number>, length: number, objectId?: number, localId?: number, collisionMask?: number): unknown
  }
  /** Moves a collider. */
  setPose(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void
}

/** Installs collision into `sim`. */
export function installCollision(sim: Sim): CollisionState {
  void sim
  const todo = () => { throw new Error('not implemented yet') }
  return { ground: -1, api: { addCollider: todo, rayTest: todo }, setPose: todo }
}
