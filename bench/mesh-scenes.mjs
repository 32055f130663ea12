// Triangle meshes for the mesh tests and benches (plain JS, shared by node benches and vitest tests).
import { seededRandom } from './random.mjs'

/**
 * A terrain mesh: a grid of `cells` × `cells` squares of `cellSize` m (two triangles each, split
 * along alternating diagonals), centred on the origin, heights of rolling hills (amplitude `amp`
 * m, wavelengths 40–80 m) plus a little seeded roughness. Returns { vertices: Float64Array,
 * indices: Uint32Array } (2·cells² triangles).
 */
export function terrainMesh({ cells = 316, cellSize = 1, amp = 3, seed = 5 } = {}) {
  const rand = seededRandom(seed)
  const n = cells + 1, half = (cells * cellSize) / 2
  const vertices = new Float64Array(3 * n * n), indices = new Uint32Array(6 * cells * cells)
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const k = 3 * (j * n + i), x = i * cellSize - half, y = j * cellSize - half
      vertices[k] = x; vertices[k + 1] = y
      vertices[k + 2] = amp * (Math.sin((2 * Math.PI * x) / 61) * Math.cos((2 * Math.PI * y) / 47) + 0.5 * Math.sin((2 * Math.PI * (x + y)) / 79)) + 0.05 * rand()
    }
  }
  let q = 0
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const a = j * n + i, b = a + 1, c = a + n + 1, d = a + n
      if ((i + j) & 1) { indices[q++] = a; indices[q++] = b; indices[q++] = d; indices[q++] = b; indices[q++] = c; indices[q++] = d }
      else { indices[q++] = a; indices[q++] = b; indices[q++] = c; indices[q++] = a; indices[q++] = c; indices[q++] = d }
    }
  }
  return { vertices, indices }
}

/**
 * `count` seeded random triangles (sides up to `size` m) in a cube of half-side `spread` m round
 * the origin, appended to `mesh` (a { vertices, indices } of plain arrays or typed arrays); some
 * share an edge with the one before. Returns a new { vertices: Float64Array, indices: Uint32Array }.
 */
export function withRandomTriangles(mesh, count, { spread = 15, size = 4, seed = 11 } = {}) {
  const rand = seededRandom(seed)
  const v = Array.from(mesh.vertices), idx = Array.from(mesh.indices)
  for (let t = 0; t < count; t++) {
    const base = v.length / 3
    if (t > 0 && rand() < 0.3) {
      // shares the previous triangle's last edge
      const p = idx.length - 3, a = idx[p + 1], b = idx[p + 2]
      const cx = v[3 * a] + (rand() - 0.5) * size, cy = v[3 * a + 1] + (rand() - 0.5) * size, cz = v[3 * a + 2] + (rand() - 0.5) * size
      v.push(cx, cy, cz)
      idx.push(a, b, base)
      continue
    }
    const cx = (rand() - 0.5) * 2 * spread, cy = (rand() - 0.5) * 2 * spread, cz = (rand() - 0.5) * 2 * spread
    for (let k = 0; k < 3; k++) v.push(cx + (rand() - 0.5) * size, cy + (rand() - 0.5) * size, cz + (rand() - 0.5) * size)
    idx.push(base, base + 1, base + 2)
  }
  return { vertices: new Float64Array(v), indices: new Uint32Array(idx) }
}
