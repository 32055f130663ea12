// The one seeded random generator of the tests and benches (plain JS, so node benches against
// dist/ and vitest tests against src/ share it; test/random.ts gives it types).

/** Seeded uniform numbers in [0, 1) (mulberry32: each value is a 32-bit integer / 2³²), the same sequence for the same seed. */
export function seededRandom(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A uniformly random unit quaternion [x, y, z, w] from `rand` (Shoemake). */
export function randomQuat(rand) {
  const u1 = rand(), u2 = rand() * 2 * Math.PI, u3 = rand() * 2 * Math.PI
  const a = Math.sqrt(1 - u1), b = Math.sqrt(u1)
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)]
}
