// Versioned entity ids (decision 0008): bitecs 0.4.0's versioned entity index loses track of live
// entities once an id is recycled, so createSim refuses such a world. The first test pins the
// defect itself: when a bitecs release fixes it, it fails, and pitlane can support versioned ids.
import { describe, expect, it } from 'vitest'
import { $internal, addComponent, addEntity, createEntityIndex, createWorld, entityExists, getAllEntities, removeEntity, withVersioning } from 'bitecs'
import { createSim } from '../../src/index'

describe("bitecs 0.4.0's versioned entity index", () => {
  it('reports a live recycled entity as removed, and then cannot remove it', () => {
    const index = createEntityIndex(withVersioning())
    const world = createWorld(index)
    const a = addEntity(world), b = addEntity(world)
    removeEntity(world, a)
    const c = addEntity(world) // a's slot, version 1
    expect(c & index.entityMask).toBe(a)
    expect(entityExists(world, c)).toBe(true)
    removeEntity(world, b)
    addEntity(world) // b's slot, version 1: the index now files c under its full id, reads it by its id part
    const live = index.dense.slice(0, index.aliveCount)
    expect(live).toContain(c)
    // the defect: c is live, bitecs says it is not, and neither removes nor extends it
    expect(entityExists(world, c)).toBe(false)
    removeEntity(world, c)
    expect(index.dense.slice(0, index.aliveCount)).toContain(c)
    expect(() => addComponent(world, c, {})).toThrow(/does not exist/)
    expect(getAllEntities(world)).toContain(c)
  })
})

describe('createSim in a versioned world', () => {
  it('is refused with a RangeError that names the defect, before anything is registered', () => {
    const world = createWorld(createEntityIndex(withVersioning()))
    expect(() => createSim(world)).toThrow(RangeError)
    expect(() => createSim(world)).toThrow(/versioned entity index.*loses track of live entities/)
    expect((world as unknown as { [$internal]: { componentCount: number } })[$internal].componentCount).toBe(0)
    expect(() => createSim(createWorld(createEntityIndex(withVersioning(12))))).toThrow(RangeError)
  })
})
