/** Distance bands with hysteresis: the pure level choice behind LodController. */

/** Level code of the full model (codes are Car.level's). */
export const LEVEL_FULL = 0
/** Level code of the single-track model. */
export const LEVEL_SINGLE_TRACK = 1
/** Level code of a frozen car. */
export const LEVEL_FROZEN = 2
/** Level code of a car moved along its driver's line. */
export const LEVEL_PATH = 3

/** The level names, indexed by level code. */
export const LEVEL_NAMES = ['full', 'singleTrack', 'frozen', 'path'] as const

/** A level name. */
export type LodLevel = (typeof LEVEL_NAMES)[number]

/** Resolved band edges (m) and hysteresis (m). */
export interface Bands {
  singleTrackBeyond: number
  /** Edge to the path level (driven cars); frozenBeyond when there is no path band. */
  pathBeyond: number
  frozenBeyond: number
  hysteresis: number
}

// Levels by cost, dearest first: the band index of each level code, and the code of each band.
const BAND_OF_LEVEL = [0, 1, 3, 2]
const LEVEL_OF_BAND = [LEVEL_FULL, LEVEL_SINGLE_TRACK, LEVEL_PATH, LEVEL_FROZEN]

/**
 * The level a car at distance `d` moves to from level `current`. A car only moves to a cheaper
 * level once it is beyond that level's edge by more than the hysteresis, and only moves back once
 * it is inside the edge by more than the hysteresis, so a car wandering across an edge by less
 * than the hysteresis keeps its level. `external` cars skip singleTrack and path (full or frozen
 * only); cars without a driver (`driven` false) skip path.
 */
export function nextLevel(b: Bands, current: number, d: number, external: boolean, driven = false): number {
  const h = b.hysteresis
  const fr = b.frozenBeyond
  const pa = external || !driven ? fr : b.pathBeyond
  const st = external ? fr : b.singleTrackBeyond
  const band = BAND_OF_LEVEL[current]
  // bands beyond their edge + h (where a car would move down to) and not inside edge − h (up to)
  const down = (d > st + h ? 1 : 0) + (d > pa + h ? 1 : 0) + (d > fr + h ? 1 : 0)
  const up = (d < st - h ? 0 : 1) + (d < pa - h ? 0 : 1) + (d < fr - h ? 0 : 1)
  let next = down > band ? down : up < band ? up : band
  // An external car found at singleTrack or path (set by hand) goes up; it is never reduced to them.
  if (external && (next === 1 || next === 2)) next = 0
  // A car without a driver found at path band (no driver any more) stays at singleTrack.
  if (!external && !driven && next === 2) next = 1
  return LEVEL_OF_BAND[next]
}

/**
 * The distances at which a car at level `current` keeps it under nextLevel (the same marks): it
 * does for every d with `out[o] ≤ d ≤ out[o + 1]` and for no other d; a level nextLevel never
 * keeps for these marks (an external car at singleTrack or path, a car without a driver at path)
 * gets [Infinity, −Infinity]. Lets a caller settle most cars with two comparisons.
 */
export function keptBetween(b: Bands, current: number, external: boolean, driven: boolean, out: Float64Array, o: number): void {
  const band = BAND_OF_LEVEL[current]
  if ((external && (band === 1 || band === 2)) || (!external && !driven && band === 2)) { out[o] = Infinity; out[o + 1] = -Infinity; return }
  const h = b.hysteresis, fr = b.frozenBeyond
  const pa = external || !driven ? fr : b.pathBeyond
  const st = external ? fr : b.singleTrackBeyond
  // nextLevel keeps the band while no edge above it is passed by more than h (down ≤ band) and
  // the edges below it are not come within by more than h (up ≥ band); the edges are in order
  const below = band === 1 ? st : band === 2 ? pa : fr, above = band === 0 ? st : band === 1 ? pa : fr
  out[o] = band > 0 ? below - h : -Infinity
  out[o + 1] = band < 3 ? above + h : Infinity
}
