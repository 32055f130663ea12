/**
 * Drive phase 1: where each car is. Projects it onto its path from its last projection, then
 * advances distance (wrapped on a closed path) and laps, and records the lateral error.
 */
import type { DriveArrays, DriverPath } from './drive'
import { LOST_DISTANCE, WINDOW_MARGIN } from './drive'
import { projectAll, projectNear, PROJ_DIST, PROJ_LAT, PROJ_S } from './projection'

// Projection scratch (single-threaded, so shared by every sim).
const proj = new Float64Array(3)

/** Locates every car of `cars` that has a path, for a host step of `dt` s (writes seg, s, distance, laps, lateralError). */
export function locateCars(V: DriveArrays, paths: readonly (DriverPath | undefined)[], cars: ArrayLike<number>, dt: number): void {
  // Its own loop, so projectNear and its search inline here: a call would box px, py and reach.
  const X = V.x, Y = V.y, speedA = V.speed, segA = V.seg, sA = V.s, distanceA = V.distance, startA = V.start, lapsA = V.laps, latA = V.lateralError
  for (let i = 0; i < cars.length; i++) {
    const eid = cars[i]
    const path = paths[eid]
    if (path === undefined) continue
    const poly = path.poly
    const px = X[eid], py = Y[eid], speed = speedA[eid]
    const L = poly.length
    // A window around the last projection covers a step's travel.
    let seg = projectNear(poly, px, py, segA[eid], WINDOW_MARGIN + 2 * Math.abs(speed) * dt, proj)
    if (proj[PROJ_DIST] > LOST_DISTANCE) seg = projectAll(poly, px, py, proj)
    const s = proj[PROJ_S]
    let ds = s - sA[eid]
    if (poly.closed) ds = ds > L / 2 ? ds - L : ds < -L / 2 ? ds + L : ds
    segA[eid] = seg
    sA[eid] = s
    const distance = distanceA[eid] + ds
    distanceA[eid] = distance
    if (poly.closed) {
      // Full laps since setAi: it rarely changes, so compare before dividing.
      const run = distance - startA[eid]
      const laps = lapsA[eid]
      if (run >= (laps + 1) * L || (laps > 0 && run < laps * L)) {
        const n = Math.floor(run / L)
        lapsA[eid] = n > 0 ? (n < 0x7fffffff ? n : 0x7fffffff) : 0
      }
    }
    latA[eid] = proj[PROJ_LAT]
  }
}
