/**
 * Cached sensor-frame ray directions of a scan pattern. Direction (y, p) is
 * (cp[p]·cy[y], cp[p]·sy[y], sp[p]); the trigonometry is done once per unchanged pattern, and the
 * products are formed per ray exactly as the contract writes them, so results never depend on
 * whether the cache was warm.
 */

import type { LidarPattern } from './presets'

/** The trig tables of one pattern (the pattern fields are the key), rebuilt only when it changes. */
export interface LidarDirections extends LidarPattern {
  /** False when any angle of the pattern is non-finite (the scan is then cleared). */
  finite: boolean
  /** cos / sin of each yaw angle. */
  cy: Float64Array
  sy: Float64Array
  /** cos / sin of each pitch angle. */
  cp: Float64Array
  sp: Float64Array
  /** Bumped whenever the tables change (lets dependent caches notice). */
  revision: number
}

/** Creates an empty direction cache. */
export function createLidarDirections(): LidarDirections {
  const e = new Float64Array(0)
  return { yawStart: NaN, yawIncrement: NaN, yawCount: 0, pitchStart: NaN, pitchIncrement: NaN, pitchCount: 0, finite: false, cy: e, sy: e, cp: e, sp: e, revision: 0 }
}

/** Fills `out[0..n)` with cos and `sin` of start + i·inc; returns false when an angle is non-finite. */
function fillTrig(cos: Float64Array, sin: Float64Array, start: number, inc: number, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const a = start + i * inc
    if (!Number.isFinite(a)) return false
    cos[i] = Math.cos(a)
    sin[i] = Math.sin(a)
  }
  return true
}

/** Makes `d` describe the pattern (counts must be positive integers); recomputes only on a change. */
export function updateLidarDirections(d: LidarDirections, yawStart: number, yawIncrement: number, yawCount: number, pitchStart: number, pitchIncrement: number, pitchCount: number): void {
  // Object.is so that a pattern of NaNs (or -0 vs 0, which give different sines) never matches wrongly.
  if (Object.is(d.yawStart, yawStart) && Object.is(d.yawIncrement, yawIncrement) && d.yawCount === yawCount &&
      Object.is(d.pitchStart, pitchStart) && Object.is(d.pitchIncrement, pitchIncrement) && d.pitchCount === pitchCount) return
  if (d.cy.length < yawCount) { d.cy = new Float64Array(yawCount); d.sy = new Float64Array(yawCount) }
  if (d.cp.length < pitchCount) { d.cp = new Float64Array(pitchCount); d.sp = new Float64Array(pitchCount) }
  d.finite = fillTrig(d.cy, d.sy, yawStart, yawIncrement, yawCount) && fillTrig(d.cp, d.sp, pitchStart, pitchIncrement, pitchCount)
  d.yawStart = yawStart; d.yawIncrement = yawIncrement; d.yawCount = yawCount
  d.pitchStart = pitchStart; d.pitchIncrement = pitchIncrement; d.pitchCount = pitchCount
  d.revision++
}
