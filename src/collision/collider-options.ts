/** The options of sim.addCollider and their accepted keys. */
import { optionKeys } from '../validate'
import type { Surface } from '../vehicle/surfaces'

/** A collider's reflectivity when none is given (a mid-grey Lambertian surface). */
export const DEFAULT_REFLECTIVITY = 0.5

/** Options of sim.addCollider. */
export interface ColliderOptions {
  /** World position of the shape's centre ([x, y] puts it at ground height). Default [0, 0, 0]. */
  position?: ArrayLike<number>
  /** Row-major Mat3 (9 numbers) or quaternion [x, y, z, w]. Default identity. */
  rotation?: ArrayLike<number>
  /** Group bits: hittable when (group & collisionMask) !== 0. Default 1. */
  group?: number
  /** Object id reported by hits and used by the self-filter. Default: the collider's own entity id. */
  object?: number
  /** Local id within the object. Default 0. */
  localId?: number
  /** A name for the user's own bookkeeping. */
  name?: string
  /** Lidar reflectivity in [0, 1] (default 0.5), for scans' intensities. */
  reflectivity?: number
  /** The surface (grip, rolling resistance) of the wheels standing on it. Default: the sim's surface map at the contact, or tarmac. */
  surface?: Surface
}

/** The keys addCollider accepts. */
export const COLLIDER_OPTION_KEYS = optionKeys<ColliderOptions>({ position: true, rotation: true, group: true, object: true, localId: true, name: true, reflectivity: true, surface: true })
