/** Surfaces: grip and rolling resistance by ground position; built-ins and a cheap painted grid. */
import { describe, finiteVector, optionKeys, optionsObject, positiveNumber } from '../validate'

/** A surface's properties. */
export interface Surface {
  /** Name, e.g. 'tarmac'. */
  name: string
  /** Grip factor scaling the tyre's friction (tarmac = 1). */
  grip: number
  /** Rolling-resistance coefficient (rolling force / normal load). */
  rollingResistance: number
}

/** Maps a ground position to a surface. */
export interface SurfaceMap {
  /** The surface at ground position (x, y). */
  surfaceAt(x: number, y: number): Surface
}

// Grip relative to dry tarmac, from typical friction coefficients of passenger tyres
// (dry asphalt μ≈1.0, wet ≈0.7, loose gravel ≈0.6, grass ≈0.45, ice ≈0.1; e.g. Wong, "Theory of
// Ground Vehicles", table 1.3), rolling resistance from the same sources (asphalt ≈0.012, gravel
// ≈0.03, grass ≈0.06).
/** The built-in surfaces. */
export const surfaces = Object.freeze({
  /** Dry asphalt. */
  tarmac: Object.freeze({ name: 'tarmac', grip: 1, rollingResistance: 0.012 }),
  /** Wet asphalt. */
  wetTarmac: Object.freeze({ name: 'wetTarmac', grip: 0.7, rollingResistance: 0.014 }),
  /** Loose gravel. */
  gravel: Object.freeze({ name: 'gravel', grip: 0.6, rollingResistance: 0.03 }),
  /** Dry grass. */
  grass: Object.freeze({ name: 'grass', grip: 0.45, rollingResistance: 0.06 }),
  /** Ice. */
  ice: Object.freeze({ name: 'ice', grip: 0.1, rollingResistance: 0.01 }),
}) as { readonly [K in 'tarmac' | 'wetTarmac' | 'gravel' | 'grass' | 'ice']: Readonly<Surface> }

/** Options of surfaceGrid. */
export interface SurfaceGridOptions {
  /** World position [x, y] of the grid's corner (cell 0, 0). */
  origin: ArrayLike<number>
  /** Cell edge length, m (> 0). */
  cellSize: number
  /** Cells along x. */
  columns: number
  /** Cells along y. */
  rows: number
  /** The surfaces cells refer to by index (at most 256). */
  palette: Surface[]
  /** Row-major palette indices, columns × rows (default all 0). */
  cells?: ArrayLike<number>
  /** Surface outside the grid (default palette[0]). */
  outside?: Surface
}

/** A painted grid of surfaces: O(1) lookup, no allocation. */
export interface SurfaceGrid extends SurfaceMap {
  /** The palette index of each cell, row-major (writable: paint by writing indices). */
  readonly cells: Uint8Array
  /** Paints the cell containing (x, y) with palette index `index`; outside the grid does nothing. */
  paint(x: number, y: number, index: number): void
}

/** `s` as a Surface, or a TypeError/RangeError naming `name`. */
export function checkSurface(s: unknown, name: string): Surface {
  if (s === null || typeof s !== 'object') throw new TypeError(`${name} must be a surface { name, grip, rollingResistance }, got ${describe(s)}`)
  const o = s as Surface
  if (typeof o.name !== 'string') throw new TypeError(`${name}.name must be a string, got ${describe(o.name)}`)
  positiveNumber(o.grip, `${name}.grip`)
  positiveNumber(o.rollingResistance, `${name}.rollingResistance`)
  return o
}

function positiveInt(v: unknown, name: string): number {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < 1 || v > 1 << 16) throw new RangeError(`${name} must be an integer in [1, 65536], got ${v}`)
  return v
}

const GRID_KEYS = optionKeys<SurfaceGridOptions>({ origin: true, cellSize: true, columns: true, rows: true, palette: true, cells: true, outside: true })

/** A grid of surfaces (cells index a palette) so a track can paint surfaces cheaply. */
export function surfaceGrid(options: SurfaceGridOptions): SurfaceGrid {
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describe(options)}`)
  optionsObject<SurfaceGridOptions>(options, 'options', GRID_KEYS)
  const origin = finiteVector(options.origin, 2, 'options.origin')
  const cellSize = positiveNumber(options.cellSize, 'options.cellSize')
  const columns = positiveInt(options.columns, 'options.columns')
  const rows = positiveInt(options.rows, 'options.rows')
  if (!Array.isArray(options.palette) || options.palette.length < 1 || options.palette.length > 256) {
    throw new TypeError('options.palette must be an array of 1 to 256 surfaces')
  }
  const palette = options.palette.map((s, i) => checkSurface(s, `options.palette[${i}]`))
  const outside = options.outside === undefined ? palette[0] : checkSurface(options.outside, 'options.outside')
  const cells = new Uint8Array(columns * rows)
  if (options.cells !== undefined) {
    const c = options.cells
    if (c === null || typeof c !== 'object' || c.length !== columns * rows) throw new RangeError(`options.cells must hold columns × rows = ${columns * rows} indices`)
    for (let i = 0; i < c.length; i++) {
      const v = c[i]
      if (!Number.isInteger(v) || v < 0 || v >= palette.length) throw new RangeError(`options.cells[${i}] must be a palette index in [0, ${palette.length - 1}], got ${v}`)
      cells[i] = v
    }
  }
  const x0 = origin[0]
  const y0 = origin[1]
  const inv = 1 / cellSize
  const cellOf = (x: number, y: number): number => {
    const cx = Math.floor((x - x0) * inv)
    const cy = Math.floor((y - y0) * inv)
    return cx >= 0 && cx < columns && cy >= 0 && cy < rows ? cy * columns + cx : -1
  }
  return {
    cells,
    surfaceAt(x, y) {
      const i = cellOf(x, y)
      return i < 0 ? outside : palette[cells[i]] ?? outside
    },
    paint(x, y, index) {
      if (!Number.isInteger(index) || index < 0 || index >= palette.length) throw new RangeError(`index must be a palette index in [0, ${palette.length - 1}], got ${index}`)
      const i = cellOf(x, y)
      if (i >= 0) cells[i] = index
    },
  }
}
