/** Entity-id checks shared by the domains (they take the world, never the sim). */
import { entityExists, type World } from 'bitecs'
import { describe } from './validate'

/** Throws unless `eid` is a live entity id of `owner.world`; returns it. */
export function assertEntity(owner: { readonly world: World }, eid: unknown, name: string): number {
  if (typeof eid !== 'number') throw new TypeError(`${name} must be an entity id (number), got ${describe(eid)}`)
  if (!Number.isInteger(eid) || eid < 0) throw new RangeError(`${name} must be a non-negative integer entity id, got ${eid}`)
  if (!entityExists(owner.world, eid)) throw new RangeError(`${name} ${eid} is not a live entity`)
  return eid
}
