import { defineConfig } from 'vitest/config'

/** Tests that time something (frame times, frames per second, real-time multiplayer): run alone, after the others, so no other test file shares the cores with them. */
const TIMED = ['test/perf/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/colyseus/**/*.test.ts']

export default defineConfig({
  test: {
    setupFiles: ['test/setup-fast-check.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/soak/**', ...TIMED], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'timed', include: TIMED, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
})
