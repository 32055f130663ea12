import { defineConfig } from 'vite'

// Dev server and static build of the racing demo (examples/racing): `npm start` serves it,
// `npm run build:demo` writes it to dist-demo/ with relative URLs, so any static host (or a
// sub-directory of one) serves it as it is.
export default defineConfig({
  root: 'examples/racing',
  base: './',
  server: { port: 5173 },
  build: { outDir: '../../dist-demo', emptyOutDir: true },
})
