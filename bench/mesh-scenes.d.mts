// Types of mesh-scenes.mjs for the TypeScript tests.

/** A mesh as the mesh shape takes it. */
export interface MeshArrays { vertices: Float64Array; indices: Uint32Array }
/** A terrain mesh: 2·cells² triangles of rolling hills, centred on the origin. */
export function terrainMesh(options?: { cells?: number; cellSize?: number; amp?: number; seed?: number }): MeshArrays
/** `count` seeded random triangles appended to `mesh`. */
export function withRandomTriangles(mesh: { vertices: ArrayLike<number>; indices: ArrayLike<number> }, count: number, options?: { spread?: number; size?: number; seed?: number }): MeshArrays
