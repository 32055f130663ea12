/** The car definitions both ends of a snapshot stream agree on (a new car is sent as an index into them). */
import { createWorld } from 'bitecs'
import { createSim, presets, type CarDefinition } from '../index'
import { describe } from '../validate'

/** Checked definitions: the list, each one's JSON (for matching a car) and its gear count. */
export interface DefinitionList {
  list: readonly CarDefinition[]
  json: string[]
  gears: number[]
}

/** Most definitions a list may hold. */
export const MAX_DEFINITIONS = 256

/** Validates `defs` (default [presets.hatchback]) by adding each to a scratch sim; names a bad one. */
export function checkDefinitions(defs: unknown, name: string): DefinitionList {
  const list = defs === undefined ? [presets.hatchback] : defs
  if (!Array.isArray(list)) throw new TypeError(`${name} must be an array of car definitions, got ${describe(list)}`)
  if (list.length < 1 || list.length > MAX_DEFINITIONS) throw new RangeError(`${name} must hold 1 to ${MAX_DEFINITIONS} definitions, got ${list.length}`)
  const scratch = createSim(createWorld(), { ground: false })
  const json: string[] = []
  const gears: number[] = []
  for (let i = 0; i < list.length; i++) {
    let car: number
    try {
      car = scratch.addCar({ definition: list[i] as CarDefinition })
    } catch (e) {
      const E = e instanceof TypeError ? TypeError : RangeError
      throw new E(`${name}[${i}]: ${(e as Error).message}`)
    }
    const def = scratch.carDefinition(car)
    json.push(JSON.stringify(def))
    gears.push(def.gearbox.ratios.length)
  }
  return { list: list.slice() as CarDefinition[], json, gears }
}
