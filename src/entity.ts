/** Entity-id checks shared by the domains (they take the world, never the sim). */
import { $internal, entityExists, type InternalWorld, type World } from 'bitecs'
import { describe } from './validate'

/** Throws unless `eid` is a live entity id of `owner.world`; returns it. */
export function assertEntity(owner: { readonly world: World }, eid: unknown, name: string): number {
  if (typeof eid !== 'number') throw new TypeError(`${name} must be an entity id (number), got ${describe(eid)}`)
  if (!Number.isInteger(eid) || eid < 0) throw new RangeError(`${name} must be a non-negative integer entity id, got ${eid}`)
  if (!entityExists(owner.world, eid)) throw new RangeError(`${name} ${eid} is not a live entity`)
  return eid
}

/**
 * Throws unless `world` numbers entities plainly: pitlane's stores are typed arrays indexed by
 * entity id, and a versioned id (the version in the high bits) would size them by gigabytes.
 */
export function assertUnversioned(world: World): void {
  const index = (world as unknown as Partial<InternalWorld>)[$internal]?.entityIndex
  if (index?.versioning) {
    throw new RangeError('world uses a versioned entity index (withVersioning()), which pitlane does not support: its stores are indexed by entity id; create the world with createWorld() or createEntityIndex() without versioning')
  }
}
