/** Distance bands with hysteresis: the pure level choice behind LodController. */

/** Level codes used in typed arrays: full, singleTrack, frozen (the order is cost, high to low). */
export const LEVEL_FULL = 0
/** Level code of the single-track model. */
export const LEVEL_SINGLE_TRACK = 1
/** Level code of a frozen car. */
export const LEVEL_FROZEN = 2

/** The level names ('full', 'singleTrack', 'path', 'frozen'), indexed by level code. */
export const LEVEL_NAMES = ['full', 'singleTrack', 'frozen'] as const

/** A level name. */
export type LodLevel = (typeof LEVEL_NAMES)[number]

/** Resolved band edges (m) and hysteresis (m). */
export interface Bands {
  singleTrackBeyond: number
  frozenBeyond: number
  hysteresis: number
}

/**
 * The level a car at distance `d` moves to from level `current`. A car only moves to a cheaper
 * level once it is beyond that level's edge by more than the hysteresis, and only moves back once
 * it is inside the edge by more than the hysteresis, so a car wandering across an edge by less
 * than the hysteresis keeps its level. `external` cars skip singleTrack (full or frozen only).
 */
export function nextLevel(b: Bands, current: number, d: number, external: boolean): number {
  const h = b.hysteresis
  const st = external ? b.frozenBeyond : b.singleTrackBeyond
  const fr = b.frozenBeyond
  let next: number
  if (current === LEVEL_FROZEN) {
    next = d < st - h ? LEVEL_FULL : d < fr - h ? LEVEL_SINGLE_TRACK : LEVEL_FROZEN
  } else if (current === LEVEL_SINGLE_TRACK) {
    next = d < st - h ? LEVEL_FULL : d > fr + h ? LEVEL_FROZEN : LEVEL_SINGLE_TRACK
  } else {
    next = d > fr + h ? LEVEL_FROZEN : d > st + h ? LEVEL_SINGLE_TRACK : LEVEL_FULL
  }
  // An external car found at singleTrack (set by hand) goes back up; it is never reduced to it.
  if (external && next === LEVEL_SINGLE_TRACK) next = LEVEL_FULL
  return next
}
