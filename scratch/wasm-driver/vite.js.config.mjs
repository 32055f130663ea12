import { defineConfig } from 'vite'

// Bundles src/driver/drive-cars.ts alone (the same settings as vite.lib.config.ts), so the harness
// can call the JS driveCars directly: dist/ does not export it.
export default defineConfig({
  build: {
    outDir: 'scratch/wasm-driver/out',
    emptyOutDir: false,
    minify: false,
    lib: { entry: { 'drive-cars': 'src/driver/drive-cars.ts' }, formats: ['es'] },
    rollupOptions: { output: { topLevelVar: false } },
  },
})
