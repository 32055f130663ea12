/**
 * Browser test of the 3D terrain example (examples/terrain, pitlane/three): builds it with vite,
 * serves the build with vite preview on a free local port, and drives Debian's chromium through
 * playwright-core (software GL): the page starts with no console errors, the city block loads, the
 * driven cars lap at every level and climb and fall by metres over the hills, the player's car
 * answers the keyboard, the lidar's points are drawn, the frame rate holds with the dynamic
 * resolution, and the picture has sky, terrain and lidar colours. Writes a screenshot to a temp
 * folder, and to docs/terrain.png (the README's picture) only with PITLANE_UPDATE_SCREENSHOT=1.
 * Skipped with a notice where /usr/bin/chromium is missing, unless PITLANE_E2E=required.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { BrowserContext, Page } from 'playwright-core'
import type { TerrainHandle } from '../../examples/terrain/main'

const CHROMIUM = '/usr/bin/chromium'
const ROOT = resolve(__dirname, '../..')
const haveBrowser = existsSync(CHROMIUM)
const required = process.env.PITLANE_E2E === 'required'
if (!haveBrowser && !required) console.warn(`[e2e] ${CHROMIUM} not found: skipping the browser test of the terrain example (set PITLANE_E2E=required to fail instead)`)

type TerrainWindow = { pitlaneTerrain: TerrainHandle }

describe.skipIf(!haveBrowser && !required)('terrain example in chromium', () => {
  let context: BrowserContext | undefined
  let page: Page
  let close: (() => Promise<void>) | undefined
  let base = ''
  const errors: string[] = []
  let outDir = '', profile = '', shots = ''

  beforeAll(async () => {
    if (!haveBrowser) throw new Error(`PITLANE_E2E=required but ${CHROMIUM} is missing (apt-get install chromium)`)
    const vite = await import('vite')
    outDir = mkdtempSync(join(tmpdir(), 'pitlane-terrain-'))
    profile = mkdtempSync(join(tmpdir(), 'pitlane-chromium-'))
    shots = mkdtempSync(join(tmpdir(), 'pitlane-terrain-shots-'))
    const configFile = join(ROOT, 'examples/terrain/vite.config.ts')
    const { chromium } = await import('playwright-core')
    const launching = chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 720 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    })
    launching.catch(() => {}) // reported by the await below
    await vite.build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false } })
    const server = await vite.preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } })
    close = () => server.close()
    base = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`
    context = await launching
    page = context.pages()[0] ?? (await context.newPage())
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`) })
    page.on('pageerror', (e) => errors.push(`page: ${e.message}`))
    await page.goto(`${base}/`)
    await page.waitForFunction(() => (window as unknown as TerrainWindow).pitlaneTerrain?.ready === true || (window as unknown as TerrainWindow).pitlaneTerrain?.error != null, null, { timeout: 60_000 })
    const startError = await page.evaluate(() => (window as unknown as TerrainWindow).pitlaneTerrain.error)
    if (startError) throw new Error(`the terrain example failed to start: ${startError}`)
  }, 180_000)

  afterAll(async () => {
    await context?.close()
    await close?.()
    for (const dir of [outDir, profile, shots]) if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('drives every level over the hills: cars lap, their heights vary by metres, the city block and lidar are there', async () => {
    const start = await page.evaluate(() => {
      const t = (window as unknown as TerrainWindow).pitlaneTerrain
      return { cars: t.cars, levels: t.cars.map((c) => t.sim!.getLod(c).level), city: t.cityBlock, d: t.cars.map((c) => t.sim!.aiStatus(c)!.distance) }
    })
    expect(start.levels.sort()).toEqual(['frozen', 'full', 'full', 'path', 'singleTrack', 'singleTrack'])
    expect(start.city).toBeGreaterThanOrEqual(6) // the glTF buildings, tower and ramp
    await page.waitForFunction(() => (window as unknown as TerrainWindow).pitlaneTerrain.sim!.time > 25, null, { timeout: 120_000, polling: 250 })
    const after = await page.evaluate(() => {
      const t = (window as unknown as TerrainWindow).pitlaneTerrain
      return { d: t.cars.map((c) => t.sim!.aiStatus(c)!.distance), levels: t.cars.map((c) => t.sim!.getLod(c).level), heights: t.heights(), points: t.view!.drawn.lidarPoints, time: t.sim!.time }
    })
    for (let k = 0; k < start.cars.length; k++) {
      const car = start.cars[k], level = after.levels[k]
      const [lo, hi] = after.heights[car]
      if (level === 'frozen') { expect(after.d[k] - start.d[k]).toBe(0); continue }
      // 25 s at 15–24 m/s: hundreds of metres, over crests and through troughs
      expect(after.d[k] - start.d[k]).toBeGreaterThan(150)
      expect(hi - lo).toBeGreaterThan(3)
    }
    expect(after.points).toBeGreaterThan(1000)
  }, 180_000)

  it('holds the frame rate in software GL with the dynamic resolution, and draws sky, terrain and lidar points', async () => {
    // 5 s of wall time after the first seconds (shaders compile; the resolution settles)
    await page.waitForFunction(() => (window as unknown as TerrainWindow).pitlaneTerrain.frames > 120, null, { timeout: 60_000, polling: 100 })
    await page.waitForTimeout(4000)
    const fps = await page.evaluate(() => new Promise<number>((done) => {
      const t = (window as unknown as TerrainWindow).pitlaneTerrain
      const f0 = t.frames, t0 = performance.now()
      setTimeout(() => done(((t.frames - f0) * 1000) / (performance.now() - t0)), 5000)
    }))
    const costs = await page.evaluate(() => { const t = (window as unknown as TerrainWindow).pitlaneTerrain; return { sim: t.simMs, render: t.renderMs, resolution: t.resolution } })
    const load = `load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`
    console.log(`[e2e] terrain: ${fps.toFixed(1)} fps over 5 s at resolution ${costs.resolution}; per frame sim ${costs.sim.toFixed(2)} ms, render ${costs.render.toFixed(2)} ms; ${load}`)
    // the dynamic resolution never goes under 0.35 of the screen's pixels
    expect(costs.resolution).toBeGreaterThanOrEqual(0.35)
    // The ≥ 50 fps goal needs the machine to itself (the test alone on two cores): checked under
    // PITLANE_E2E=required, printed otherwise (as the racing demo's test does).
    if (required) expect(fps).toBeGreaterThanOrEqual(50)
    else if (fps < 50) console.warn(`[e2e] terrain frame rate ${fps.toFixed(1)} fps (${load}); the ≥ 50 fps check runs under PITLANE_E2E=required`)
    // the picture: sky, green-to-tan terrain, and the lidar's points (the intensity ramp's cyan, on the ground round the car)
    const px = await page.evaluate(() => (window as unknown as TerrainWindow).pitlaneTerrain.readPixels(2))
    let sky = 0, ground = 0, lidar = 0, total = 0
    for (let i = 0; i < px.data.length; i += 4) {
      const r = px.data[i], g = px.data[i + 1], b = px.data[i + 2]
      total++
      if (r < 80 && g > 110 && b > 140) lidar++
      else if (b > 180 && b > r + 30 && g > 150) sky++
      else if (g >= r - 10 && g > b + 10) ground++
    }
    expect(sky / total).toBeGreaterThan(0.05)
    expect(ground / total).toBeGreaterThan(0.1)
    expect(lidar).toBeGreaterThan(20)
    expect(errors).toEqual([])
  }, 120_000)

  it('answers the keyboard: the player drives off over the hills (the screenshot)', async () => {
    // the README's picture at full resolution: a fresh page at ?res=1
    await page.goto(`${base}/?res=1`)
    await page.waitForFunction(() => (window as unknown as TerrainWindow).pitlaneTerrain?.ready === true, null, { timeout: 60_000 })
    await page.waitForFunction(() => (window as unknown as TerrainWindow).pitlaneTerrain.frames > 30, null, { timeout: 60_000 })
    expect(await page.evaluate(() => (window as unknown as TerrainWindow).pitlaneTerrain.resolution)).toBe(1)
    const player = await page.evaluate(() => (window as unknown as TerrainWindow).pitlaneTerrain.player)
    await page.keyboard.down('ArrowUp')
    await page.waitForFunction((car) => (window as unknown as TerrainWindow).pitlaneTerrain.sim!.carState(car).speed > 12, player, { timeout: 60_000, polling: 50 })
    const input = await page.evaluate((car) => (window as unknown as TerrainWindow).pitlaneTerrain.sim!.getInput(car), player)
    expect(input.throttle).toBeGreaterThan(0.5)
    const file = join(shots, 'terrain.png')
    await page.screenshot({ path: file })
    if (process.env.PITLANE_UPDATE_SCREENSHOT === '1') copyFileSync(file, join(ROOT, 'docs/terrain.png'))
    await page.keyboard.up('ArrowUp')
    expect(errors).toEqual([])
  }, 150_000)
})
