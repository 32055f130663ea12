import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// Builds the headless race CLI (TypeScript, importing the engine's sources) into one node script:
// `npm run race` runs `vite build --config examples/race/vite.config.ts && node dist-race/cli.js`.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  logLevel: 'warn',
  build: {
    ssr: fileURLToPath(new URL('./cli.ts', import.meta.url)),
    outDir: 'dist-race',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'cli.js' } },
  },
})
