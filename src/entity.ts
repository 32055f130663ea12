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
 * Throws unless `world` numbers entities plainly. bitecs 0.4.0's versioned entity index
 * (withVersioning()) files a recycled id under its full id but looks it up by its id part, so a
 * live entity can read as removed (and then cannot be removed); pitlane cannot track its cars,
 * colliders and lidars in such a world (test/hardening/versioned-ids.test.ts pins the defect).
 */
export function assertUnversioned(world: World): void {
  const index = (world as unknown as Partial<InternalWorld>)[$internal]?.entityIndex
  if (index?.versioning) {
    throw new RangeError('world uses a versioned entity index (withVersioning()), which bitecs 0.4.0 gets wrong: it loses track of live entities once an id is recycled (entityExists is false for a live entity, and removeEntity leaves it), so pitlane cannot keep its entities there; create the world with createWorld() or createEntityIndex() without versioning')
  }
}
