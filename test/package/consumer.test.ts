// The package as a user gets it: packs pitlane (built into a staging copy, so dist/ is untouched
// while other tests use it), installs the tarball with bitecs and the lowest pixi.js pitlane claims
// into a fresh project made by `tsc --init` (nodenext, strict), typechecks test/package/consumer
// under nodenext, node16 and bundler (its @ts-expect-error lines must fail), and runs it with node.
// Offline, the install cannot fetch bitecs: skipped with a notice, unless CI=true or
// PITLANE_PACKAGE=required (.ci/run sets it).
import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')
const TSC = join(ROOT, 'node_modules/.bin/tsc')
const run = promisify(execFile)
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
/** The lowest pixi.js the peer range claims (`^8.5.0` → 8.5.0). */
const LOWEST_PIXI = String(pkg.peerDependencies['pixi.js']).replace(/^[\^~]/, '')
const BITECS = String(pkg.devDependencies.bitecs)
const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH/

let staging = '', consumer = '', offline = ''

async function sh(cmd: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd, maxBuffer: 1 << 24, env: { ...process.env, npm_config_update_notifier: 'false' } })
    return stdout + stderr
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string }
    throw new Error(`${[cmd, ...args].join(' ')} failed in ${cwd}:\n${err.stdout ?? ''}${err.stderr ?? ''}\n${err.message}`)
  }
}

const tsc = (...args: string[]) => sh(TSC, ['-p', '.', ...args], consumer)

describe('the packed package in a fresh consumer project', () => {
  beforeAll(async () => {
    staging = mkdtempSync(join(tmpdir(), 'pitlane-pack-'))
    consumer = mkdtempSync(join(tmpdir(), 'pitlane-consumer-'))
    for (const f of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(ROOT, f), join(staging, f))
    await sh(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--out', join(staging, 'dist')], ROOT)
    await sh('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', staging], staging)
    const tarball = join(staging, readdirSync(staging).find((f) => f.endsWith('.tgz'))!)

    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
    await sh(TSC, ['--init'], consumer)
    for (const f of ['main.ts', 'renderer.ts']) copyFileSync(join(__dirname, 'consumer', f), join(consumer, f))
    try {
      await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, `bitecs@${BITECS}`, `pixi.js@${LOWEST_PIXI}`], consumer)
    } catch (e) {
      const message = (e as Error).message
      if (!OFFLINE.test(message) || process.env.CI === 'true' || process.env.PITLANE_PACKAGE === 'required') throw e
      offline = message.split('\n').find((l) => OFFLINE.test(l)) ?? 'offline'
      console.warn(`[consumer test] skipped: npm install needs the registry (${offline})`)
    }
  }, 180_000)

  afterAll(() => {
    for (const dir of [staging, consumer]) if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it(`installs beside pixi.js ${LOWEST_PIXI}, the lowest pixi the peer range claims`, (ctx) => {
    if (offline) ctx.skip()
    const lock = JSON.parse(readFileSync(join(consumer, 'package-lock.json'), 'utf8'))
    expect(lock.packages['node_modules/pixi.js'].version).toBe(LOWEST_PIXI)
    expect(lock.packages['node_modules/pitlane'].version).toBe(pkg.version)
    expect(lock.packages['node_modules/pitlane'].license).toBe('MIT')
    // renderer.ts (typechecked below) imports from pixi.js every name pitlane/pixi imports.
    const pixiNames = (file: string) => readFileSync(file, 'utf8').match(/import \{([^}]*)\} from 'pixi\.js'/)![1]!.split(',').map((n) => n.trim()).sort()
    expect(pixiNames(join(__dirname, 'consumer/renderer.ts'))).toEqual(pixiNames(join(ROOT, 'src/pixi/index.ts')))
  })

  it('typechecks under tsc --init defaults (nodenext, strict) and runs under node', async (ctx) => {
    if (offline) ctx.skip()
    const config = readFileSync(join(consumer, 'tsconfig.json'), 'utf8')
    expect(config).toMatch(/"module": "nodenext"/)
    expect(config).toMatch(/"strict": true/)
    await tsc()
    const out = await sh(process.execPath, ['main.js'], consumer)
    expect(out).toMatch(/^consumer ok: 31 steps/m)
  })

  it('typechecks under node16 and bundler resolution', async (ctx) => {
    if (offline) ctx.skip()
    await tsc('--noEmit', '--module', 'node16', '--moduleResolution', 'node16')
    await tsc('--noEmit', '--module', 'preserve', '--moduleResolution', 'bundler')
  })

  it('refuses the @ts-expect-error lines: without them the program does not typecheck', async (ctx) => {
    if (offline) ctx.skip()
    const main = readFileSync(join(consumer, 'main.ts'), 'utf8')
    const expected = main.split('\n').filter((l) => l.trimStart().startsWith('// @ts-expect-error')).length
    expect(expected).toBe(4)
    writeFileSync(join(consumer, 'main.ts'), main.replaceAll('// @ts-expect-error', '// (expected error)'))
    const errors = await tsc('--noEmit').then(() => '', (e: Error) => e.message)
    writeFileSync(join(consumer, 'main.ts'), main)
    expect(errors.match(/main\.ts\(\d+,\d+\): error/g)?.length).toBe(expected)
  })
})
