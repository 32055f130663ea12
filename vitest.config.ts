import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/soak/**'],
    setupFiles: ['test/setup-fast-check.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
