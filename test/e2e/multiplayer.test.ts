/**
 * Browser test of the multiplayer example: the race server (in this process, loopback, ephemeral
 * port), the client page built with vite and served by vite preview, and two Chromium pages that
 * join the same room from the lobby (a room of 2). Each player drives with the keyboard once the
 * lights go out; each page sees the other player's car move (where it draws it), and draws its
 * own. No console errors. Skipped with a notice where /usr/bin/chromium is missing, unless
 * PITLANE_E2E=required.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import { browserTestRuns, launchChromium } from './browser'
import type { BrowserContext, Page } from 'playwright-core'
import { startServer, type RaceServer } from '../../examples/multiplayer/serve'
import type { MultiplayerHandle } from '../../examples/multiplayer/main'

const ROOT = resolve(__dirname, '../..')
const runs = browserTestRuns('the multiplayer example')

type Win = { pitlaneMultiplayer: MultiplayerHandle }

describe.skipIf(!runs)('multiplayer example in chromium', () => {
  let context: BrowserContext | undefined
  let server: RaceServer | undefined
  let close: (() => Promise<void>) | undefined
  let base = ''
  let outDir = '', profile = ''
  const errors: string[] = []

  beforeAll(async () => {
    const vite = await import('vite')
    outDir = mkdtempSync(join(tmpdir(), 'pitlane-multiplayer-'))
    profile = mkdtempSync(join(tmpdir(), 'pitlane-chromium-'))
    const configFile = join(ROOT, 'examples/multiplayer/vite.config.ts')
    const launching = launchChromium(profile, { viewport: { width: 960, height: 600 }, args: ['--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows'] })
    launching.catch(() => {})
    server = await startServer({ port: 0 })
    await vite.build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false } })
    const preview = await vite.preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } })
    close = () => preview.close()
    base = `http://127.0.0.1:${(preview.httpServer.address() as AddressInfo).port}`
    context = await launching
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await close?.()
    await server?.stop()
    if (outDir) rmSync(outDir, { recursive: true, force: true })
    if (profile) rmSync(profile, { recursive: true, force: true })
  })

  it('two pages join one room from the lobby, and each sees the other car move', async () => {
    const pages: Page[] = []
    for (const name of ['Ann', 'Bob']) {
      const page = await context!.newPage()
      page.on('console', (m) => { if (m.type() === 'error') errors.push(`${name} console: ${m.text()}`) })
      page.on('pageerror', (e) => errors.push(`${name} page: ${e.message}`))
      await page.goto(`${base}/?server=ws://127.0.0.1:${server!.port}&wait=20`)
      await page.fill('input[name=name]', name)
      await page.selectOption('select[name=size]', '2')
      await page.click('#join')
      await page.waitForFunction(() => (window as unknown as Win).pitlaneMultiplayer.ready || (window as unknown as Win).pitlaneMultiplayer.error !== null, null, { timeout: 30_000 })
      expect(await page.evaluate(() => (window as unknown as Win).pitlaneMultiplayer.error)).toBeNull()
      pages.push(page)
    }
    const rooms = await Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as Win).pitlaneMultiplayer.roomId)))
    expect(rooms[0]).toBe(rooms[1])
    // a full room starts: wait for the lights to go out, with both names in the reports
    for (const p of pages) {
      await p.waitForFunction(() => (window as unknown as Win).pitlaneMultiplayer.race?.race?.phase === 'racing', null, { timeout: 20_000, polling: 100 })
    }
    const others = await Promise.all(pages.map((p) => p.evaluate(() => {
      const h = (window as unknown as Win).pitlaneMultiplayer
      const entry = Object.entries(h.players).find(([car]) => Number(car) !== h.car)
      return entry ? { car: Number(entry[0]), name: entry[1], at: h.drawn(Number(entry[0])), own: h.drawn(h.car) } : null
    })))
    expect(others[0]?.name).toBe('Bob')
    expect(others[1]?.name).toBe('Ann')
    // both drive: throttle held, a little steer
    for (const p of pages) { await p.bringToFront(); await p.keyboard.down('ArrowUp') }
    await new Promise((r) => setTimeout(r, 4000))
    for (const p of pages) await p.keyboard.up('ArrowUp')
    for (let i = 0; i < 2; i++) {
      const seen = await pages[i].evaluate((car) => {
        const h = (window as unknown as Win).pitlaneMultiplayer
        return { other: h.drawn(car), own: h.drawn(h.car), frames: h.frames }
      }, others[i]!.car)
      const moved = Math.hypot(seen.other!.x - others[i]!.at!.x, seen.other!.y - others[i]!.at!.y)
      const ownMoved = Math.hypot(seen.own!.x - others[i]!.own!.x, seen.own!.y - others[i]!.own!.y)
      console.log(`[e2e multiplayer] page ${i}: the other car moved ${moved.toFixed(1)} m as drawn, its own ${ownMoved.toFixed(1)} m, ${seen.frames} frames`)
      expect(moved).toBeGreaterThan(5)
      expect(ownMoved).toBeGreaterThan(5)
      expect(seen.frames).toBeGreaterThan(20)
    }
    if (process.env.PITLANE_SHOT) await pages[1].screenshot({ path: process.env.PITLANE_SHOT })
    expect(errors).toEqual([])
  }, 90_000)
})
