/** The substep a model function takes, handed to it by the vehicle systems. */
export interface Substep {
  /** Length, s. */
  h: number
  /** Gravity, m/s². */
  gravity: number
}

/** A Substep to fill: a system keeps one and sets it per car (numbers start as NaN: decision 0007). */
export function createSubstep(): Substep {
  return { h: NaN, gravity: NaN }
}
