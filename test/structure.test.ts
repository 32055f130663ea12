// The engine's structure: domains do not import the sim's wiring, no module imports itself through
// others (type-only imports included), and examples and the subpath entries use the public API.
import { describe, expect, it } from 'vitest'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve(__dirname, '..')

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) filesUnder(p, out)
    else if (/\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

interface Import { spec: string; typeOnly: boolean }

/** A file's relative static imports and re-exports; typeOnly when TypeScript erases it (`import type`, or every name `type`). */
function imports(text: string): Import[] {
  const out: Import[] = []
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  for (const m of code.matchAll(/(?:^|\n)\s*(import|export)\b([^'"`;]*?)from\s*['"]([^'"]+)['"]/g)) {
    const clause = m[2].trim()
    const names = /^\{([^}]*)\}$/.exec(clause)?.[1].split(',').map((n) => n.trim()).filter(Boolean)
    const typeOnly = clause.startsWith('type ') || (names !== undefined && names.length > 0 && names.every((n) => n.startsWith('type ')))
    out.push({ spec: m[3], typeOnly })
  }
  for (const m of code.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push({ spec: m[1], typeOnly: false })
  return out.filter((i) => i.spec.startsWith('.'))
}
const specifiers = (text: string) => imports(text).map((i) => i.spec)

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec)
  for (const p of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(p) && statSync(p).isFile()) return p
  return null
}

const rel = (p: string) => relative(ROOT, p)
/** The package's subpath entries (src/<name>/index.ts), held to the public API like the examples. */
const SUBPATHS = ['pixi', 'rapier', 'gltf', 'three', 'net', 'colyseus']
const product = ['src', 'components', 'systems'].flatMap((d) => filesUnder(join(ROOT, d)))
const graph = new Map<string, string[]>(), runtimeGraph = new Map<string, string[]>()
for (const f of product) {
  const list = imports(readFileSync(f, 'utf8'))
  const targets = (l: Import[]) => l.map((i) => resolveImport(f, i.spec)).filter((p): p is string => p !== null)
  graph.set(f, targets(list))
  runtimeGraph.set(f, targets(list.filter((i) => !i.typeOnly)))
}

/** The strongly connected components of more than one file (or a file importing itself), Tarjan's algorithm. */
function cyclesOf(g: Map<string, string[]>): string[][] {
  let index = 0
  const idx = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>()
  const cycles: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index); low.set(v, index); index++
    stack.push(v); on.add(v)
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)) }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = []
      let w: string
      do { w = stack.pop()!; on.delete(w); scc.push(rel(w)) } while (w !== v)
      if (scc.length > 1 || g.get(v)!.includes(v)) cycles.push(scc.sort())
    }
  }
  for (const v of g.keys()) if (!idx.has(v)) visit(v)
  return cycles
}

describe('the engine structure', () => {
  it('resolves every relative import of src/, components/ and systems/', () => {
    const missing: string[] = []
    for (const f of product) for (const s of specifiers(readFileSync(f, 'utf8'))) if (!resolveImport(f, s)) missing.push(`${rel(f)}: ${s}`)
    expect(missing).toEqual([])
    expect(graph.get(join(ROOT, 'src/index.ts'))!.length).toBeGreaterThan(10)
  })

  it('has no file but src/index.ts import src/sim.ts', () => {
    const sim = join(ROOT, 'src/sim.ts')
    const importers = product.filter((f) => graph.get(f)!.includes(sim)).map(rel)
    expect(importers).toEqual(['src/index.ts'])
  })

  it('has no import cycle at run time, and type-only cycles only between files of one folder', () => {
    expect(cyclesOf(runtimeGraph)).toEqual([])
    const acrossFolders = cyclesOf(graph).filter((c) => new Set(c.map((f) => dirname(f))).size > 1)
    expect(acrossFolders).toEqual([])
  })

  it('keeps the lidar domain in src/lidar/, which collision never imports, with no import circle inside either folder', () => {
    const lidarFiles = readdirSync(join(ROOT, 'src/lidar')).filter((n) => n.endsWith('.ts'))
    expect(lidarFiles.length).toBeGreaterThan(10)
    expect(readdirSync(join(ROOT, 'src/collision')).filter((n) => n.startsWith('lidar'))).toEqual([])
    const intoLidar = product.filter((f) => rel(f).startsWith('src/collision/'))
      .flatMap((f) => graph.get(f)!.filter((t) => rel(t).startsWith('src/lidar/')).map((t) => `${rel(f)} -> ${rel(t)}`))
    expect(intoLidar).toEqual([])
    const inside = cyclesOf(graph).filter((c) => c.some((f) => f.startsWith('src/collision/') || f.startsWith('src/lidar/')))
    expect(inside).toEqual([])
  })

  it('imports each optional peer only from its own subpath entry (the core never loads pixi.js, Rapier, three, glTF-Transform or Colyseus)', () => {
    const owner: [RegExp, string][] = [[/^pixi\.js/, 'src/pixi/'], [/^@dimforge\//, 'src/rapier/'], [/^@gltf-transform\//, 'src/gltf/'], [/^three(\/|$)/, 'src/three/'], [/^@colyseus\//, 'src/colyseus/']]
    const bad: string[] = []
    for (const f of product) {
      const code = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
      for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
        const rule = owner.find(([re]) => re.test(m[1]))
        if (rule && !rel(f).startsWith(rule[1])) bad.push(`${rel(f)}: imports ${m[1]}`)
      }
    }
    expect(bad).toEqual([])
    expect(readFileSync(join(ROOT, 'src/gltf/index.ts'), 'utf8')).toMatch(/from '@gltf-transform\/core'/)
  })

  it('keeps examples and the subpath entries (pixi, rapier, gltf, three, net, colyseus) on the public API (no sim.internal, no deep paths)', () => {
    const users = [...filesUnder(join(ROOT, 'examples')), ...SUBPATHS.flatMap((d) => filesUnder(join(ROOT, 'src', d)))]
    const entries = ['src/index.ts', 'src/colyseus/client-index.ts', ...SUBPATHS.map((d) => `src/${d}/index.ts`)].map((p) => join(ROOT, p))
    const bad: string[] = []
    for (const f of users) {
      const text = readFileSync(f, 'utf8')
      if (/\binternal\b/.test(text)) bad.push(`${rel(f)}: mentions internal`)
      const inExamples = rel(f).startsWith('examples')
      for (const s of specifiers(text)) {
        const target = resolveImport(f, s) ?? resolve(dirname(f), s)
        const own = inExamples ? rel(target).startsWith('examples') : dirname(target) === dirname(f)
        // the examples may import each other; the subpath entries their own folder, the validation helpers, entity checks and math
        const allowed = own || entries.includes(target) || (!inExamples && (['src/validate.ts', 'src/entity.ts'].includes(rel(target)) || rel(target).startsWith('src/math/')))
        if (!allowed) bad.push(`${rel(f)}: imports ${s}`)
      }
    }
    expect(bad).toEqual([])
  })
})
