/** Car components: vehicle state SoA by entity id, and one tag per level of detail. Owned by vehicle/. */
import { createStore } from './store'

/** Creates the Car store and the level tags of one sim. */
export function createCarComponents() {
  const Car = createStore({
    x: Float64Array,
    y: Float64Array,
    heading: Float64Array,
    collider: Int32Array,
  } as const)
  /** Tag: the car steps with its full (definition's) model. */
  const LodFull = {}
  /** Tag: the car steps with the single-track model. */
  const LodSingleTrack = {}
  /** Tag: the car is frozen (not stepped). */
  const LodFrozen = {}
  return { Car, LodFull, LodSingleTrack, LodFrozen }
}
