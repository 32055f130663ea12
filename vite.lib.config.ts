import { defineConfig } from 'vite'

// Library build: bundles src/index.ts (core) and src/pixi/index.ts (optional renderer) into dist/.
// bitecs and pixi.js stay external (peer dependencies).
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: { index: 'src/index.ts', 'pixi/index': 'src/pixi/index.ts', 'rapier/index': 'src/rapier/index.ts' },
      formats: ['es'],
    },
    rollupOptions: {
      external: ['bitecs', 'pixi.js', '@dimforge/rapier3d-compat'],
    },
  },
})
