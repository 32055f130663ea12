// `node scripts/write-dts-entry.mjs [DIST]`, after `tsc -p tsconfig.build.json` (declarations into DIST/types): gives every relative import
// in them an explicit `.js` (or `/index.js`) extension, so the declarations resolve under
// TypeScript's nodenext and node16 as well as bundler, then writes each entry's .d.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const dist = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('../dist/', import.meta.url))
const types = join(dist, 'types')

/** The specifier with the extension nodenext needs, or the specifier unchanged. */
function withExtension(fromFile, spec) {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return spec
  if (/\.(js|mjs|cjs|json)$/.test(spec)) return spec
  const base = join(dirname(fromFile), spec)
  if (existsSync(base + '.d.ts')) return spec + '.js'
  if (existsSync(join(base, 'index.d.ts'))) return spec + '/index.js'
  throw new Error(`${relative(dist, fromFile)}: cannot resolve ${spec}`)
}

function fixFile(file) {
  const text = readFileSync(file, 'utf8')
  const fixed = text
    .replace(/(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g, (_, lead, q, spec) => `${lead}${q}${withExtension(file, spec)}${q}`)
  if (fixed !== text) writeFileSync(file, fixed)
}

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path)
    else if (name.endsWith('.d.ts')) fixFile(path)
  }
}
walk(types)

const entries = {
  'index.d.ts': './types/src/index.js',
  'internals.d.ts': './types/src/internals.js',
  'pixi/index.d.ts': '../types/src/pixi/index.js',
  'rapier/index.d.ts': '../types/src/rapier/index.js',
  'three/index.d.ts': '../types/src/three/index.js',
  'gltf/index.d.ts': '../types/src/gltf/index.js',
  'colyseus/index.d.ts': '../types/src/colyseus/index.js',
  'colyseus/client.d.ts': '../types/src/colyseus/client-index.js',
  'net/index.d.ts': '../types/src/net/index.js',
}
for (const [file, target] of Object.entries(entries)) {
  mkdirSync(dirname(join(dist, file)), { recursive: true })
  writeFileSync(join(dist, file), `export * from '${target}'\n`)
}
