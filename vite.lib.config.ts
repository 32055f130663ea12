import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// Library build: bundles the entries (core, internals, the optional pixi and three views, Rapier host, glTF
// import, net and Colyseus room) into dist/, with source maps. The engine's modules shared by the entries go
// into one chunk with a readable name (dist/pitlane.js), so a stack trace names that file, not a hashed one.
// bitecs, pixi.js, three, Rapier, glTF-Transform and Colyseus stay external (peer dependencies).
const ENTRY_DIRS = ['/src/pixi/', '/src/rapier/', '/src/gltf/', '/src/three/', '/src/net/', '/src/colyseus/']
const ENTRY_FILES = ['/src/index.ts', '/src/internals.ts']

/** This config's folder (the repository root), with forward slashes, as rollup's module ids have. */
const ROOT = fileURLToPath(new URL('.', import.meta.url)).replace(/\\/g, '/').replace(/\/$/, '')

/** The chunk of an engine module shared by the entries: every core module goes into pitlane.js. */
function chunkOf(id: string): string | undefined {
  const path = id.replace(/\\/g, '/')
  if (!path.startsWith(ROOT) || path.includes('/node_modules/')) return undefined
  const local = path.slice(ROOT.length)
  if (ENTRY_FILES.includes(local) || ENTRY_DIRS.some((d) => local.startsWith(d))) return undefined
  return 'pitlane'
}

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: { index: 'src/index.ts', 'pixi/index': 'src/pixi/index.ts', 'rapier/index': 'src/rapier/index.ts', 'gltf/index': 'src/gltf/index.ts', 'three/index': 'src/three/index.ts', 'net/index': 'src/net/index.ts', 'colyseus/index': 'src/colyseus/index.ts', 'colyseus/client': 'src/colyseus/client-index.ts', internals: 'src/internals.ts' },
      formats: ['es'],
    },
    rollupOptions: {
      external: ['bitecs', 'pixi.js', '@dimforge/rapier3d-compat', '@gltf-transform/core', 'three', /^@colyseus\//, 'ws'],
      // Keep top-level const as const (Vite turns them into var by default). V8 folds a module's
      // const bindings (the hot modules' scratch typed arrays and imported-function aliases) into
      // the optimised code; a var is reloaded and re-checked (map, length) at every use:
      // mixed100, st200 and full20 took 14-23% more CPU time with var (interleaved, same bits).
      output: { topLevelVar: false, manualChunks: chunkOf, chunkFileNames: '[name].js' },
    },
  },
})
