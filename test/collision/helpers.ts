/** Test helpers for collision: a sim with or without ground and a one-line ray cast returning plain data. */
import { createWorld } from 'bitecs'
import { createSim, type Sim } from '../../src/sim'
import type { RayHit } from '../../src/collision/ray-list'
import { mulberry32 } from '../../bench/scenes.mjs'

/** A fresh sim; `ground: false` by default so shape tests see only their shape. */
export function makeSim(ground: false | { height?: number } = false): Sim {
  return createSim(createWorld(), { ground })
}

/** Plain copy of the hit of sim.rayTest, or null. */
export function cast(sim: Sim, start: ArrayLike<number>, dir: ArrayLike<number>, length: number, objectId?: number, localId?: number, mask?: number): null | { collider: number; object: number; localId: number; distance: number; position: number[]; normal: number[] } {
  const list = sim.rayTest(start, dir, length, objectId, localId, mask)
  if (list.size() === 0) return null
  const h = list.at(0) as RayHit
  return { collider: h.collider, object: h.object, localId: h.localId, distance: h.distance, position: Array.from(h.position), normal: Array.from(h.normal) }
}

/** Quaternion [x, y, z, w] for `angle` about unit axis (ax, ay, az). */
export function quat(ax: number, ay: number, az: number, angle: number): number[] {
  const n = Math.hypot(ax, ay, az), s = Math.sin(angle / 2) / n
  return [ax * s, ay * s, az * s, Math.cos(angle / 2)]
}

/** Seeded PRNG in [0, 1) (the benches' mulberry32). */
export const rng = mulberry32
