import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

// Dev server and static build of the racing demo (examples/racing): `npm start` serves it,
// `npm run build:demo` writes it to dist-demo/ with relative URLs, so any static host (or a
// sub-directory of one) serves it as it is. `npm start` also serves the 3D terrain example at
// /terrain/ (examples/terrain; `npm run terrain` serves it alone and builds it with its own config).

/** Serves examples/terrain/index.html at /terrain/ in the dev server (its script from the example's folder). */
function terrainPage(): Plugin {
  const dir = fileURLToPath(new URL('./examples/terrain', import.meta.url))
  return {
    name: 'pitlane-terrain-page',
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const path = (req.url ?? '').split('?')[0]
        if (path === '/terrain') { res.statusCode = 302; res.setHeader('Location', '/terrain/'); res.end(); return }
        if (path !== '/terrain/' && path !== '/terrain/index.html') { next(); return }
        const html = readFileSync(join(dir, 'index.html'), 'utf8').replace('src="./main.ts"', `src="/@fs${dir}/main.ts"`)
        res.setHeader('Content-Type', 'text/html')
        res.end(await server.transformIndexHtml(req.url ?? '/terrain/', html))
      })
    },
  }
}

export default defineConfig({
  root: 'examples/racing',
  base: './',
  server: { port: 5173 },
  build: { outDir: '../../dist-demo', emptyOutDir: true },
  plugins: [terrainPage()],
})
