import { defineConfig } from 'vite'

// Dev server and static build of the racing demo (examples/racing). `npm start` runs this.
export default defineConfig({
  root: 'examples/racing',
  server: { port: 5173 },
  build: { outDir: '../../dist-demo', emptyOutDir: true },
})
