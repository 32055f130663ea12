import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// `npm run terrain`: the 3D terrain example on its own (npm start serves it too, at /terrain/).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  server: { port: 5174 },
  build: { outDir: '../../dist-terrain', emptyOutDir: true },
})
