/** The seeded random generator of every test (one implementation with the benches': bench/random.mjs). */
export { seededRandom, randomQuat } from '../bench/random.mjs'
