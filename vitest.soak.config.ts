import { defineConfig } from 'vitest/config'

// `npm run soak`: the long soak runs (PITLANE_SOAK=long), kept out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/soak/**/*.test.ts'],
    testTimeout: 3_600_000,
    env: { PITLANE_SOAK: 'long' },
  },
})
