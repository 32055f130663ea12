// Every README snippet and every example compiles as a user would have it: in a fresh project made
// by `tsc --init` (TypeScript 7: nodenext, strict, noUncheckedIndexedAccess,
// exactOptionalPropertyTypes, verbatimModuleSyntax), against the package as built (a staging copy
// of package.json and dist/, so dist/ is untouched while other tests use it).
//
// - README and docs/guide/*.md: each ```ts block becomes its own module importing 'pitlane', under the --init config
//   as written, and runs under node. Whatever blocks the README holds are compiled (sections added later included); a
//   block opts out only with a visible first line `// fragment` (a deliberate excerpt).
// - examples/: bundler code (served and built by vite), so compiled under the same --init config
//   with vite's resolution (module preserve, moduleResolution bundler) and node's types; their
//   imports of the engine's source entries ('../../src/index') become the package's ('pitlane').
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')
const TSC = join(ROOT, 'node_modules/.bin/tsc')
const run = promisify(execFile)

/** The README's ```ts blocks, in order, with the line each starts on; `fragment` when marked so. */
export function readmeSnippets(text: string): { line: number; code: string; fragment: boolean }[] {
  const out: { line: number; code: string; fragment: boolean }[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue
    const start = i + 1
    let j = start
    while (j < lines.length && !/^```\s*$/.test(lines[j]!)) j++
    const code = lines.slice(start, j).join('\n')
    out.push({ line: start + 1, code, fragment: /^\/\/ fragment\b/.test(lines[start] ?? '') })
    i = j
  }
  return out
}

/** The examples' TypeScript files (build configs excluded), relative to examples/. */
function exampleFiles(dir = join(ROOT, 'examples'), out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) exampleFiles(p, out)
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !/^vite(\.\w+)?\.config\.ts$/.test(name)) out.push(relative(join(ROOT, 'examples'), p))
  }
  return out
}

/** tsc in `cwd`; resolves with '' when clean, else the diagnostics. */
async function tsc(cwd: string, ...args: string[]): Promise<string> {
  try {
    await run(TSC, ['-p', '.', ...args], { cwd, maxBuffer: 1 << 24 })
    return ''
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string }
    return `${err.stdout ?? ''}${err.stderr ?? ''}` || err.message
  }
}

let project = ''

describe('README snippets and examples under tsc --init', () => {
  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'pitlane-snippets-'))
    // the package: package.json and a fresh build, as `npm pack` would ship them
    const pkg = join(project, 'node_modules/pitlane')
    mkdirSync(pkg, { recursive: true })
    cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'))
    await run(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--out', join(pkg, 'dist')], { cwd: ROOT, maxBuffer: 1 << 24 })
    // its peers and the types a user installs beside it, from the repository's own node_modules
    // (and the examples' own dependencies: the Colyseus server packages, three.js' types)
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    const deps = new Set([...Object.keys(manifest.peerDependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})])
    for (const dep of [...deps].filter((d) => statSync(join(ROOT, 'node_modules', d), { throwIfNoEntry: false }))) {
      mkdirSync(dirname(join(project, 'node_modules', dep)), { recursive: true })
      symlinkSync(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir')
    }
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }))
    await run(TSC, ['--init'], { cwd: project })
  }, 180_000)

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true })
  })

  it('compiles every ```ts block of the README and the guides as its own module importing pitlane', async () => {
    // each block's file says where it comes from: readme-line-N.ts, guide-<name>-line-N.ts
    const guides = readdirSync(join(ROOT, 'docs/guide')).filter((f) => f.endsWith('.md')).sort()
    expect(guides.length).toBeGreaterThanOrEqual(1)
    const sources = [{ doc: 'README.md', prefix: 'readme' }, ...guides.map((g) => ({ doc: `docs/guide/${g}`, prefix: `guide-${g.replace(/\.md$/, '')}` }))]
    const compiled = sources.flatMap(({ doc, prefix }) =>
      readmeSnippets(readFileSync(join(ROOT, doc), 'utf8')).filter((s) => !s.fragment).map((s) => ({ ...s, doc, name: `${prefix}-line-${s.line}` })))
    expect(compiled.filter((s) => s.doc === 'README.md').length).toBeGreaterThanOrEqual(6)
    expect(compiled.filter((s) => s.doc !== 'README.md').length).toBeGreaterThanOrEqual(6)
    const dir = join(project, 'readme')
    mkdirSync(dir)
    const init = readFileSync(join(project, 'tsconfig.json'), 'utf8')
    expect(init).toMatch(/"module": "nodenext"/)
    expect(init).toMatch(/"strict": true/)
    expect(init).toMatch(/"noUncheckedIndexedAccess": true/)
    // tsc --init's file as written, with only where the sources are and no output
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { noEmit: true }, include: ['*.ts'] }))
    for (const s of compiled) writeFileSync(join(dir, `${s.name}.ts`), s.code + '\n')
    expect(await tsc(dir)).toBe('')
    // and each runs under node as written (compiled with the same options)
    expect(await tsc(dir, '--noEmit', 'false', '--outDir', join(dir, 'js'), '--sourceMap', 'false', '--declaration', 'false', '--declarationMap', 'false')).toBe('')
    for (const s of compiled) {
      const file = join(dir, 'js', `${s.name}.js`)
      // from the repository's root, as a user of a clone runs them (paths like examples/assets/… resolve)
      await run(process.execPath, [file], { cwd: ROOT, maxBuffer: 1 << 24 }).catch((e: Error & { stderr?: string }) => {
        throw new Error(`${s.doc}'s snippet at line ${s.line} fails under node:\n${e.stderr ?? e.message}`)
      })
    }
  }, 180_000)

  it('refuses a snippet that does not compile (the check can fail)', async () => {
    const dir = join(project, 'broken')
    mkdirSync(dir)
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { noEmit: true }, include: ['*.ts'] }))
    // the idiom the README avoids: a store read is number | undefined under noUncheckedIndexedAccess
    writeFileSync(join(dir, 'a.ts'), "import { createWorld } from 'bitecs'\nimport { createSim } from 'pitlane'\nconst sim = createSim(createWorld())\nif (sim.components.Car.speed[0] > 20) console.log('fast')\n")
    expect(await tsc(dir)).toMatch(/a\.ts\(4,5\): error TS2532/)
  }, 60_000)

  it('compiles every example against the package, with vite\'s resolution', async () => {
    const dir = join(project, 'examples')
    const files = exampleFiles()
    expect(files).toContain('racing/main.ts')
    expect(files).toContain('race/cli.ts')
    for (const f of files) {
      const text = readFileSync(join(ROOT, 'examples', f), 'utf8')
        .replace(/(['"])(?:\.\.\/)+src\/index\1/g, "'pitlane'")
        .replace(/(['"])(?:\.\.\/)+src\/(\w+)\/index\1/g, "'pitlane/$2'")
        .replace(/(['"])(?:\.\.\/)+src\/colyseus\/client-index\1/g, "'pitlane/colyseus/client'")
      expect(text, `${f} imports the engine other than through its entries`).not.toMatch(/['"](\.\.\/)+src\//)
      mkdirSync(dirname(join(dir, f)), { recursive: true })
      writeFileSync(join(dir, f), text)
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      extends: '../tsconfig.json',
      compilerOptions: { noEmit: true, module: 'preserve', moduleResolution: 'bundler', types: ['node'] },
      include: ['**/*.ts'],
    }))
    expect(await tsc(dir)).toBe('')
  }, 120_000)
})
