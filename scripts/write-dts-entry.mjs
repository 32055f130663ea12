// Writes dist/index.d.ts (and the sub-entries) pointing at the declarations tsc emitted in dist/types.
import { writeFileSync, mkdirSync } from 'node:fs'
const entries = { 'index.d.ts': './types/src/index', 'pixi/index.d.ts': '../types/src/pixi/index', 'rapier/index.d.ts': '../types/src/rapier/index' }
for (const [file, target] of Object.entries(entries)) {
  mkdirSync(new URL(`../dist/${file}`, import.meta.url).pathname.replace(/[^/]+$/, ''), { recursive: true })
  writeFileSync(new URL(`../dist/${file}`, import.meta.url), `export * from '${target}'\n`)
}
