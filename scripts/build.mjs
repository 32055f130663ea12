// `npm run build [-- --out DIR]`: the library bundle (vite), the declarations (tsc) and the
// entries' .d.ts with explicit extensions, into dist/ or DIR (the consumer test packs a copy).
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const at = process.argv.indexOf('--out')
const out = at >= 0 ? resolve(process.argv[at + 1]) : resolve(root, 'dist')
const bin = (name) => resolve(root, 'node_modules/.bin', name)
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' })

run(bin('vite'), ['build', '--config', 'vite.lib.config.ts', '--outDir', out, '--emptyOutDir'])
run(bin('tsc'), ['-p', 'tsconfig.build.json', '--outDir', resolve(out, 'types')])
run(process.execPath, [resolve(root, 'scripts/write-dts-entry.mjs'), out])
