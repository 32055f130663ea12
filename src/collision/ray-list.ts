/** RayHit and RayCollisionList: the result of sim.rayTest, owned by the sim and overwritten by the next call. */

/** One closest hit of a ray. */
export interface RayHit {
  /** The hit collider's object id. */
  object: number
  /** The hit collider's local id within its object. */
  localId: number
  /** The hit collider's entity id. */
  collider: number
  /** World hit point (start + distance · unit direction). */
  position: Float64Array
  /** World unit normal at the hit (−direction when the ray started inside). */
  normal: Float64Array
  /** Distance from the start along the ray, in [0, length]. */
  distance: number
  /** The index of the mesh triangle hit (its place in the shape's indices, divided by 3); −1 for any other shape. */
  triangle: number
}

/** The hits of one rayTest (0 or 1 of them): size(), at(i) and iteration. Reused by the next call. */
export class RayCollisionList implements Iterable<RayHit> {
  /** The single reused hit record. */
  readonly hit: RayHit = { object: -1, localId: -1, collider: -1, position: new Float64Array(3), normal: new Float64Array(3), distance: 0, triangle: -1 }
  /** Number of valid hits (internal writers set it). */
  count = 0

  /** Number of hits: 0 or 1. */
  size(): number { return this.count }

  /** Hit `i` (0 ≤ i < size()), else undefined. */
  at(i: number): RayHit | undefined { return i === 0 && this.count > 0 ? this.hit : undefined }

  /** Iterates the hits. */
  *[Symbol.iterator](): Iterator<RayHit> {
    if (this.count > 0) yield this.hit
  }
}
