import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// The multiplayer client page: `npm run multiplayer` serves it (the race server runs apart:
// `npm run server`), `vite build --config examples/multiplayer/vite.config.ts` writes it to
// dist-multiplayer/ with relative URLs.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  server: { port: 5174 },
  build: { outDir: fileURLToPath(new URL('../../dist-multiplayer', import.meta.url)), emptyOutDir: true },
})
