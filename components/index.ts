/**
 * The component stores of one sim, created per sim so that two sims never share stores.
 * Every store grows when an entity id beyond its capacity joins any pitlane component.
 */
import { observe, onAdd, type World } from 'bitecs'
import { ensureStoreCapacity, isStore } from './store'
import { createColliderComponent, type ColliderStore } from './collider'
import { createCarComponents, type CarLevelTags, type CarStore } from './car'
import { createLidarComponent, type LidarStore } from './lidar'
import { createDriverComponent, type DriverStore } from './driver'

/** The component stores of a sim (`sim.components`): bitecs components, SoA typed arrays indexed by entity id. */
export interface Components extends CarLevelTags {
  /** Cars: inputs, pose and motion, and the models' state. */
  Car: CarStore
  /** Collision bodies: shape, group, world pose and bounds. */
  Collider: ColliderStore
  /** Lidars: mount, pattern, range window, rate and the pose of the latest scan. */
  Lidar: LidarStore
  /** Path-following drivers: one record per driven car. */
  Driver: DriverStore
}

/** Creates every pitlane component store for one sim in `world`. */
export function createComponents(world: World): Components {
  const components: Components = {
    ...createColliderComponent(),
    ...createCarComponents(),
    ...createLidarComponent(),
    ...createDriverComponent(),
  }
  const stores = Object.values(components).filter((c) => isStore(c))
  // Registered before any domain observer, so stores have room before a domain writes a field.
  for (const c of Object.values(components)) {
    observe(world, onAdd(c), (eid: number) => {
      for (let i = 0; i < stores.length; i++) ensureStoreCapacity(stores[i], eid)
    })
  }
  return components
}
