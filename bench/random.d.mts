/** Types of bench/random.mjs (the seeded random generator of tests and benches). */
/** Seeded uniform numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number
/** A uniformly random unit quaternion [x, y, z, w] from `rand`. */
export function randomQuat(rand: () => number): number[]
