/** Surfaces: grip and rolling resistance by ground position. */

/** A surface's properties. */
export interface Surface {
  /** Name, e.g. 'tarmac'. */
  name: string
  /** Grip factor scaling the tyre's friction (tarmac = 1). */
  grip: number
  /** Rolling-resistance coefficient. */
  rollingResistance: number
}

/** Maps a ground position to a surface. */
export interface SurfaceMap {
  /** The surface at ground position (x, y). */
  surfaceAt(x: number, y: number): Surface
}
