import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// Builds the race server (TypeScript, importing the engine's sources) into one node script:
// `npm run server` runs `vite build --config examples/multiplayer/vite.server.config.ts && node dist-server/server.js`.
// Colyseus, bitecs and the other packages stay imports from node_modules (an SSR build's default).
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  logLevel: 'warn',
  build: {
    ssr: fileURLToPath(new URL('./server.ts', import.meta.url)),
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'server.js' } },
  },
})
