/**
 * Traffic's geometry of bodies: how far a car may move straight on before its body meets
 * another's (a pull-out's crawl), and the obstacles (colliders of a group in obstacleMask) ahead
 * of it, through the world's ray query. Both write their numbers to scratch records: doubles passed
 * to or returned from a call that is not inlined would each be boxed.
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from '../vehicle/definition'
import type { CollisionState } from '../collision/state'
import { castRay } from '../collision/query'
import { ColliderKind } from '../../components/collider'
import { bodyOf } from './traffic-lines'

/** freeAlong's result, m. */
export const along = new Float64Array(1)

/**
 * Writes to along[0] how far (m) car `a` may move straight along its heading before its body meets car `b`'s, as
 * both stand (translation: the first contact is a corner of one on an edge of the other, so each
 * body's four corners are cast against the other's rectangle). One function with no calls: doubles
 * passed to a call that is not inlined would each be boxed.
 */
export function freeAlong(C: CarStore, defs: readonly (ResolvedCar | undefined)[], a: number, b: number): void {
  const X = C.x, Y = C.y, H = C.heading
  const dx = Math.cos(H[a]), dy = Math.sin(H[a])
  let free = Infinity
  for (let pass = 0; pass < 2; pass++) {
    // corners of `from` cast along ±(dx, dy) against the rectangle of `to`
    const from = pass === 0 ? a : b, to = pass === 0 ? b : a, sign = pass === 0 ? 1 : -1
    const fb = bodyOf(defs, from), tb = bodyOf(defs, to)
    const fc = Math.cos(H[from]), fs = Math.sin(H[from]), fl = 0.5 * fb.length, fw = 0.5 * fb.width
    const tc = Math.cos(H[to]), tsn = Math.sin(H[to]), tl = 0.5 * tb.length, tw = 0.5 * tb.width
    const ux = tc * dx * sign + tsn * dy * sign, uy = -tsn * dx * sign + tc * dy * sign // the direction in the frame of `to`
    for (let k = 0; k < 4; k++) {
      const u = k === 0 || k === 3 ? fl : -fl, w = k < 2 ? fw : -fw
      const rx = X[from] + fc * u - fs * w - X[to], ry = Y[from] + fs * u + fc * w - Y[to]
      const ox = tc * rx + tsn * ry, oy = -tsn * rx + tc * ry
      // slab test against [-tl, tl] × [-tw, tw]
      let t0 = 0, t1 = Infinity
      if (Math.abs(ux) < 1e-12) { if (ox < -tl || ox > tl) continue } else {
        let p = (-tl - ox) / ux, q = (tl - ox) / ux
        if (p > q) { const t = p; p = q; q = t }
        if (p > t0) t0 = p
        if (q < t1) t1 = q
      }
      if (Math.abs(uy) < 1e-12) { if (oy < -tw || oy > tw) continue } else {
        let p = (-tw - oy) / uy, q = (tw - oy) / uy
        if (p > q) { const t = p; p = q; q = t }
        if (p > t0) t0 = p
        if (q < t1) t1 = q
      }
      if (t0 <= t1 && t0 < free) free = t0
    }
  }
  along[0] = free
}

// Scratch of obstacleAhead: a ray's hit (t, normal) and the nearest bumper gap (single-threaded: shared).
const rayHit = new Float64Array(4)
/** obstacleAhead's bumper gap to the obstacle it found, m. */
export const obstacleHit = new Float64Array(1)

/**
 * The nearest collider of a group in `mask` within `reach` m ahead of car `eid`'s front bumper
 * (three rays along its heading at half its height: its middle and its two sides; other cars'
 * chassis, planes and heightfields are not obstacles), or −1; its bumper gap goes to obstacleHit[0].
 */
export function obstacleAhead(C: CarStore, defs: readonly (ResolvedCar | undefined)[], cs: CollisionState, groundZ: number, eid: number, hl: number, hw: number, reach: number, mask: number): number {
  const K = cs.Collider, h = C.heading[eid], c = Math.cos(h), sn = Math.sin(h)
  const z = groundZ + 0.5 * bodyOf(defs, eid).height + C.heave[eid]
  let best = -1, bestT = reach
  for (let k = -1; k <= 1; k++) {
    const ox = C.x[eid] + c * hl - sn * hw * k * 0.9, oy = C.y[eid] + sn * hl + c * hw * k * 0.9
    const hit = castRay(cs, ox, oy, z, c, sn, 0, bestT, eid, 0, mask, rayHit)
    if (hit < 0) continue
    const kind = K.kind[hit], owner = K.object[hit]
    if (kind === ColliderKind.plane || kind === ColliderKind.heightfield) continue
    if (owner >= 0 && owner < C.collider.length && C.collider[owner] === hit) continue // a car's chassis: cars are seen along the line
    if (rayHit[0] < bestT) { bestT = rayHit[0]; best = hit }
  }
  obstacleHit[0] = bestT
  return best
}

