/** Geometry of the surfaces pitlane/three draws: heightfields (grid triangles as the ray test splits them) and triangle meshes, coloured by height. */
import { BufferAttribute, BufferGeometry, Color } from 'three'

/** A heightfield as sim.colliderShape returns it. */
export interface HeightfieldLike { origin: ArrayLike<number>; cellSize: number; columns: number; rows: number; heights: ArrayLike<number> }

const low = new Color(), high = new Color(), mixed = new Color()

/** Writes a colour per vertex from its height z[k] (every third entry of `positions`), from `lowColor` at the lowest to `highColor` at the highest. */
function colourByHeight(positions: Float32Array, lowColor: number, highColor: number): Float32Array {
  let lo = Infinity, hi = -Infinity
  for (let k = 2; k < positions.length; k += 3) { const z = positions[k]; if (z < lo) lo = z; if (z > hi) hi = z }
  const span = hi > lo ? hi - lo : 1
  low.setHex(lowColor); high.setHex(highColor)
  const colors = new Float32Array(positions.length)
  for (let k = 0; k < positions.length; k += 3) {
    mixed.copy(low).lerp(high, (positions[k + 2] - lo) / span)
    colors[k] = mixed.r; colors[k + 1] = mixed.g; colors[k + 2] = mixed.b
  }
  return colors
}

function finish(g: BufferGeometry, positions: Float32Array, index: Uint32Array | Uint16Array, lowColor: number, highColor: number): BufferGeometry {
  g.setAttribute('position', new BufferAttribute(positions, 3))
  g.setAttribute('color', new BufferAttribute(colourByHeight(positions, lowColor, highColor), 3))
  g.setIndex(new BufferAttribute(index, 1))
  g.computeVertexNormals()
  g.computeBoundingSphere()
  return g
}

/**
 * The heightfield's surface in its collider's local frame: vertex (i, j) at (x0 + i·cellSize,
 * y0 + j·cellSize, heights[j·columns + i]); each cell two triangles split along the diagonal from
 * (i, j) to (i+1, j+1), counter-clockwise seen from above (as the ray test splits them).
 */
export function heightfieldGeometry(hf: HeightfieldLike, lowColor: number, highColor: number): BufferGeometry {
  const { columns: nx, rows: ny, cellSize: cs, heights } = hf
  const x0 = hf.origin[0], y0 = hf.origin[1], z0 = hf.origin.length > 2 ? hf.origin[2] : 0
  const positions = new Float32Array(nx * ny * 3)
  for (let j = 0, k = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++, k += 3) {
      positions[k] = x0 + i * cs; positions[k + 1] = y0 + j * cs; positions[k + 2] = z0 + heights[j * nx + i]
    }
  }
  const cells = (nx - 1) * (ny - 1)
  const index = nx * ny > 65535 ? new Uint32Array(cells * 6) : new Uint16Array(cells * 6)
  let t = 0
  for (let j = 0; j < ny - 1; j++) {
    for (let i = 0; i < nx - 1; i++) {
      const a = j * nx + i, b = a + 1, c = a + nx + 1, d = a + nx
      index[t++] = a; index[t++] = b; index[t++] = c
      index[t++] = a; index[t++] = c; index[t++] = d
    }
  }
  return finish(new BufferGeometry(), positions, index, lowColor, highColor)
}

/** A triangle mesh's surface in its collider's local frame (xyz triples, three indices a triangle). */
export function meshGeometry(vertices: ArrayLike<number>, indices: ArrayLike<number>, lowColor: number, highColor: number): BufferGeometry {
  const positions = Float32Array.from(vertices)
  const index = positions.length / 3 > 65535 ? Uint32Array.from(indices) : Uint16Array.from(indices)
  return finish(new BufferGeometry(), positions, index, lowColor, highColor)
}
