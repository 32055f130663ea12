/** Test helpers for collision: a sim with or without ground and a one-line ray cast returning plain data. */
import { createWorld } from 'bitecs'
import { createSim, type Sim } from '../../src/sim'
import type { RayHit } from '../../src/collision/ray-list'
import { seededRandom } from '../random'
import { rayCollider } from '../../src/collision/narrowphase'

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

/** Seeded numbers in [0, 1): the shared generator (test/random.ts). */
export const rng = seededRandom

/**
 * The brute-force oracle: the closest hit of every collider in `all` (no BVH, no cache), lowest id
 * on exact ties. A bounding-sphere cull computed here from the shape parameters (not from the
 * engine's AABBs) skips colliders the ray cannot reach. Returns [eid or −1, t].
 */
export function bruteForce(sim: Sim, all: readonly number[], o: ArrayLike<number>, d: ArrayLike<number>, len: number, mask = -1, objectId = -1, localId = -1): [number, number] {
  const C = sim.components.Collider, st = sim.internal.collision
  const P = C.position, q = C.params
  const tmp = bruteScratch
  let best = len, bestE = -1
  for (let i = 0; i < all.length; i++) {
    const e = all[i]
    if ((C.group[e] & mask) === 0) continue
    if (objectId >= 0 && localId >= 0 && C.object[e] === objectId && C.localId[e] === localId) continue
    const k = C.kind[e], a = q[e * 4], b = q[e * 4 + 1], c = q[e * 4 + 2]
    const R = k === 2 ? a : k === 3 ? Math.hypot(a, b, c) : k === 4 ? a + b : k === 5 ? Math.hypot(a, b) : Infinity
    if (R !== Infinity) {
      const wx = P[e * 3] - o[0], wy = P[e * 3 + 1] - o[1], wz = P[e * 3 + 2] - o[2]
      const s = Math.max(0, Math.min(best, wx * d[0] + wy * d[1] + wz * d[2]))
      const px = wx - s * d[0], py = wy - s * d[1], pz = wz - s * d[2]
      if (px * px + py * py + pz * pz > R * R * (1 + 1e-9) + 1e-9) continue
    }
    if (rayCollider(st, e, o[0], o[1], o[2], d[0], d[1], d[2], best, tmp) && (tmp[0] < best || bestE < 0 || (tmp[0] === best && e < bestE))) { best = tmp[0]; bestE = e }
  }
  return [bestE, best]
}
const bruteScratch = new Float64Array(4)
