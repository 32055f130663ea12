/** Types of bench/scenes.mjs (shared ray scenes for benches and tests). */
export interface ShapeDescriptor { shape: { kind: string; [k: string]: unknown }; position: number[]; rotation: number[] }
export interface LidarPatternLike { yawStart?: number; yawIncrement?: number; yawCount?: number; pitchStart?: number; pitchIncrement?: number; pitchCount?: number }
/** Random mixed shapes. */
export function randomShapes(count: number, options?: { size?: number; zMin?: number; zMax?: number; seed?: number; minSize?: number; maxSize?: number }): ShapeDescriptor[]
/** Adds shapes to a sim; returns entity ids. */
export function addShapesToSim(sim: { addCollider(shape: unknown, options?: unknown): number }, shapes: ShapeDescriptor[]): number[]
/** The same shapes in a Rapier world. */
export function buildRapierWorld(RAPIER: unknown, shapes: ShapeDescriptor[], groundHeight?: number | null): { world: any; indexOf: Map<number, number> }
/** Unit directions of a lidar pattern, xyz triples. */
export function lidarDirections(pattern?: LidarPatternLike): Float64Array
/** The bench's sparse scene. */
export function sparseScene(options?: { count?: number; size?: number; seed?: number }): { shapes: ShapeDescriptor[]; sensor: number[]; range: number; pattern: Required<LidarPatternLike> }
/** The grid slot of car i of count spread round a closed flat path, offset m left of it. */
export function slotOnPath(path: ArrayLike<number>, i: number, count: number, offset?: number): { position: number[]; heading: number }
/** The terrain benches' rolling hills, as heightfield() takes them. */
export function rollingHills(options?: { amplitude?: number; wavelength?: number; origin?: number[]; size?: number[]; cellSize?: number }): { origin: number[]; cellSize: number; columns: number; rows: number; heights: Float64Array }
