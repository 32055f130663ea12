/** The sim clock: one object the sim advances and the systems read (their host step dt). */

/** A sim's clock. */
export interface SimClock {
  /** Simulated time, s: the sum of the host steps taken (advanced after the schedule has run). */
  time: number
  /** The host step being run, or last run, s (0 before the first step). */
  dt: number
  /** Host steps taken. */
  steps: number
}

/** A clock at zero. */
export function createClock(): SimClock {
  return { time: 0, dt: 0, steps: 0 }
}
