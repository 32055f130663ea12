/**
 * The component stores of one sim, created per sim so that two sims never share stores.
 * Every store grows when an entity id beyond its capacity joins any pitlane component.
 */
import { observe, onAdd, type World } from 'bitecs'
import { ensureStoreCapacity, isStore } from './store'
import { createColliderComponent } from './collider'
import { createCarComponents } from './car'
import { createLidarComponent } from './lidar'
import { createDriverComponent } from './driver'

/** Creates every pitlane component store for one sim in `world`. */
export function createComponents(world: World) {
  const components = {
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

/** The component stores of a sim. */
export type Components = ReturnType<typeof createComponents>
