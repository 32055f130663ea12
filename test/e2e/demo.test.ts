/**
 * Browser test of the racing demo: builds it with vite, serves the build with vite preview on a
 * free local port, drives Debian's chromium through playwright-core, and checks what a user would
 * see: the track and cars on the canvas (sampled pixels), the sim advancing, cars moving, the
 * keyboard moving the player's car, lidar points drawn, no console errors. Saves docs/screenshot.png.
 * Skipped with a notice where /usr/bin/chromium is missing, unless PITLANE_E2E=required.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { BrowserContext, Page } from 'playwright-core'
import { createTrack, projectOnTrack } from '../../examples/track'

const CHROMIUM = '/usr/bin/chromium'
const ROOT = resolve(__dirname, '../..')
const haveBrowser = existsSync(CHROMIUM)
const required = process.env.PITLANE_E2E === 'required'
if (!haveBrowser && !required) console.warn(`[e2e] ${CHROMIUM} not found: skipping the browser test of the demo (set PITLANE_E2E=required to fail instead)`)

interface CarPose { x: number; y: number; heading: number; speed: number }

/** The grass point of the circuit's area farthest from its centreline (and so from every car and barrier). */
function quietSpot(): [number, number] {
  const track = createTrack()
  let best: [number, number] = [0, 0], bestD = -1
  for (let i = 0; i <= 40; i++) {
    for (let j = 0; j <= 40; j++) {
      const x = track.gridX0 + (track.gridColumns * track.gridCell * i) / 40
      const y = track.gridY0 + (track.gridRows * track.gridCell * j) / 40
      const d = Math.abs(projectOnTrack(track, x, y).lateral)
      if (d > bestD) { bestD = d; best = [x, y] }
    }
  }
  return best
}
interface PixelWindow { __pitlanePixels(): Uint8ClampedArray }

/** Defines window.__pitlanePixels(): the demo canvas read back as RGBA (the demo keeps its drawing buffer). */
async function installPixelReader(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as PixelWindow).__pitlanePixels = () => {
      const src = document.querySelector('#stage canvas') as HTMLCanvasElement
      const c = document.createElement('canvas')
      c.width = src.width
      c.height = src.height
      const g = c.getContext('2d')!
      g.drawImage(src, 0, 0)
      return g.getImageData(0, 0, c.width, c.height).data
    }
  })
}

describe.skipIf(!haveBrowser && !required)('racing demo in chromium', () => {
  let context: BrowserContext | undefined
  let page: Page
  let close: (() => Promise<void>) | undefined
  const errors: string[] = []
  let outDir = '', profile = ''

  beforeAll(async () => {
    if (!haveBrowser) throw new Error(`PITLANE_E2E=required but ${CHROMIUM} is missing (apt-get install chromium)`)
    const vite = await import('vite')
    outDir = mkdtempSync(join(tmpdir(), 'pitlane-demo-'))
    profile = mkdtempSync(join(tmpdir(), 'pitlane-chromium-'))
    const configFile = join(ROOT, 'vite.config.ts')
    const { chromium } = await import('playwright-core')
    // The browser starts while vite builds (both take seconds on a busy machine).
    const launching = chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 720 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    })
    launching.catch(() => {}) // reported by the await below
    await vite.build({ configFile, root: join(ROOT, 'examples/racing'), logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false } }) // a test build: skip the slow bits
    const server = await vite.preview({ configFile, root: join(ROOT, 'examples/racing'), logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } })
    close = () => server.close()
    const port = (server.httpServer.address() as AddressInfo).port
    context = await launching
    page = context.pages()[0] ?? (await context.newPage())
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`) })
    page.on('pageerror', (e) => errors.push(`page: ${e.message}`))
    await page.goto(`http://127.0.0.1:${port}/`)
    await page.waitForFunction(() => window.pitlaneDemo?.ready === true || window.pitlaneDemo?.error != null, null, { timeout: 60_000 })
    const startError = await page.evaluate(() => window.pitlaneDemo.error)
    if (startError) throw new Error(`demo failed to start: ${startError}`)
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await close?.()
    if (outDir) rmSync(outDir, { recursive: true, force: true })
    if (profile) rmSync(profile, { recursive: true, force: true })
  })

  /** Waits until the demo has taken `n` more host steps (sim time, not wall time: the machine may be slow). */
  const waitSteps = async (n: number) => {
    const target = (await page.evaluate(() => window.pitlaneDemo.steps)) + n
    await page.waitForFunction((t) => window.pitlaneDemo.steps >= t, target, { timeout: 45_000, polling: 50 })
  }

  const pose = (car: number) => page.evaluate((c) => {
    const s = window.pitlaneDemo.sim!.carState(c)
    return { x: s.position[0], y: s.position[1], heading: s.heading, speed: s.speed }
  }, car) as Promise<CarPose>

  it('advances the sim and moves the driven cars', async () => {
    const before = await page.evaluate(() => {
      const d = window.pitlaneDemo
      const cars = d.field.slice(0, 8)
      return { steps: d.steps, cars: cars.map((c) => [c, d.sim!.components.Car.x[c], d.sim!.components.Car.y[c]]) }
    })
    await waitSteps(90)
    const after = await page.evaluate((cars) => {
      const d = window.pitlaneDemo
      return { steps: d.steps, moved: cars.map(([c, x, y]) => Math.hypot(d.sim!.components.Car.x[c] - x, d.sim!.components.Car.y[c] - y)) }
    }, before.cars)
    expect(after.steps - before.steps).toBeGreaterThanOrEqual(90)
    // the first cars of the field, driven from a rolling start at 15 m/s, covered well over 10 m in 1.5 s of sim
    const moving = after.moved.filter((m) => m > 10).length
    expect(moving).toBeGreaterThanOrEqual(6)
  }, 90_000)

  it('shows the track, the cars and the lidar points on the canvas', async () => {
    await installPixelReader(page)
    const counts = await page.evaluate(() => {
      const px = (window as unknown as PixelWindow).__pitlanePixels()
      const near = (i: number, rgb: number, tol: number) => Math.abs(px[i] - (rgb >> 16)) <= tol && Math.abs(px[i + 1] - ((rgb >> 8) & 255)) <= tol && Math.abs(px[i + 2] - (rgb & 255)) <= tol
      const out = { total: 0, tarmac: 0, grass: 0, player: 0, cars: 0, lidar: 0 }
      for (let i = 0; i < px.length; i += 4 * 3) {
        out.total++
        if (near(i, 0x4a4d52, 10)) out.tarmac++
        else if (near(i, 0x3d7a36, 12)) out.grass++
        else if (near(i, 0xff4fd8, 30)) out.player++
        else if (near(i, 0x4ade80, 30) || near(i, 0xfacc15, 30) || near(i, 0x60a5fa, 30)) out.cars++
        // lidar points run from orange (near) to violet (far): strong red, low green, not the player's pink
        else if (px[i] > 170 && px[i + 1] < 150 && Math.abs(px[i] - 0xff) + Math.abs(px[i + 1] - 0x4f) + Math.abs(px[i + 2] - 0xd8) > 60) out.lidar++
      }
      return out
    })
    expect(counts.tarmac / counts.total).toBeGreaterThan(0.03)
    expect(counts.grass / counts.total).toBeGreaterThan(0.05)
    expect(counts.player).toBeGreaterThan(10)
    expect(counts.lidar).toBeGreaterThan(20)
    const lidarPoints = await page.evaluate(() => window.pitlaneDemo.lidarPoints)
    expect(lidarPoints).toBeGreaterThan(100)
    // The README's picture: the player on the grid with its lidar rings, the field streaming past.
    await page.screenshot({ path: join(ROOT, 'docs/screenshot.png') })
    // Other cars: zoom out so the field's cars (coloured by level) are on screen.
    await page.mouse.move(640, 360)
    for (let i = 0; i < 2; i++) await page.mouse.wheel(0, 400)
    await page.waitForFunction(() => window.pitlaneDemo.camera.zoom < 2, null, { timeout: 10_000 })
    await waitSteps(2) // a frame drawn at the new zoom
    const cars = await page.evaluate(() => {
      const px = (window as unknown as PixelWindow).__pitlanePixels()
      const near = (i: number, rgb: number, tol: number) => Math.abs(px[i] - (rgb >> 16)) <= tol && Math.abs(px[i + 1] - ((rgb >> 8) & 255)) <= tol && Math.abs(px[i + 2] - (rgb & 255)) <= tol
      let n = 0
      for (let i = 0; i < px.length; i += 4) if (near(i, 0x4ade80, 40) || near(i, 0xfacc15, 40) || near(i, 0x60a5fa, 40)) n++
      return { n, zoom: window.pitlaneDemo.camera.zoom }
    })
    expect(cars.zoom).toBeLessThan(2)
    expect(cars.n).toBeGreaterThan(10)
    for (let i = 0; i < 2; i++) await page.mouse.wheel(0, -400)
  }, 90_000)

  it('drives the player car from the keyboard', async () => {
    const player = await page.evaluate(() => window.pitlaneDemo.player)
    // Drive where nothing can run into the player (cars may be hosted on a rigid-body world, where
    // a rival arriving from behind would push it about): open grass, far from the track, facing east.
    const spot = quietSpot()
    await page.evaluate(([x, y, car]) => window.pitlaneDemo.sim!.setPose(car, [x, y], [1, 0, 0, 0, 1, 0, 0, 0, 1]), [spot[0], spot[1], player])
    await waitSteps(5)
    const p0 = await pose(player)
    await page.keyboard.down('ArrowUp')
    await waitSteps(120)
    const p1 = await pose(player)
    const held = await page.evaluate((car) => window.pitlaneDemo.sim!.getInput(car), player)
    await page.keyboard.down('ArrowLeft')
    await waitSteps(45)
    const steering = await page.evaluate((car) => window.pitlaneDemo.sim!.getInput(car), player)
    await page.keyboard.up('ArrowLeft')
    await page.keyboard.up('ArrowUp')
    const p2 = await pose(player)
    expect(held.throttle).toBe(1)
    expect(held.gear).toBeGreaterThanOrEqual(1)
    expect(steering.steer).toBeGreaterThan(0.3) // + = left
    // The HUD's speed trace has drawn the run: yellow this lap, grey the one before (the player may
    // have crossed the line). The HUD redraws five times a second of frame time.
    await page.waitForTimeout(600)
    const traced = await page.evaluate(() => {
      const c = document.getElementById('trace') as HTMLCanvasElement
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data
      let n = 0
      for (let i = 0; i < px.length; i += 4) {
        if (px[i + 3] < 100) continue
        const yellow = px[i] > 180 && px[i + 1] > 150 && px[i + 2] < 100
        const grey = Math.abs(px[i] - 0x9a) < 30 && Math.abs(px[i + 1] - 0xa4) < 30 && Math.abs(px[i + 2] - 0xb2) < 30
        if (yellow || grey) n++
      }
      return n
    })
    expect(traced).toBeGreaterThan(8) // a few seconds of a 30 s wide plot
    const hud = await page.evaluate(() => document.getElementById('hud')!.textContent!)
    for (const field of ['fps', 'ms/step', 'full', 'single-track', 'frozen', 'km/h', 'gear', 'rpm', 'lap', 'lidar']) expect(hud).toContain(field)
    const forward = (p1.x - p0.x) * Math.cos(p0.heading) + (p1.y - p0.y) * Math.sin(p0.heading)
    // 2 s of throttle from rest on grass (grip 0.45, rolling resistance 0.06): about 5 m/s and 5 m
    expect(p1.speed).toBeGreaterThan(2.5)
    expect(forward).toBeGreaterThan(2.5)
    // steering left turns the car anticlockwise
    let turn = p2.heading - p1.heading
    turn = Math.atan2(Math.sin(turn), Math.cos(turn))
    expect(turn).toBeGreaterThan(0.2)
    await page.keyboard.down('ArrowDown')
    await waitSteps(30)
    await page.keyboard.up('ArrowDown')
    // C moves the camera to another car, V brings it back.
    await page.keyboard.press('KeyC')
    await page.waitForFunction(() => window.pitlaneDemo.following !== window.pitlaneDemo.player, null, { timeout: 10_000 })
    const other = await page.evaluate(() => window.pitlaneDemo.following)
    await page.keyboard.press('KeyV')
    await page.waitForFunction(() => window.pitlaneDemo.following === window.pitlaneDemo.player, null, { timeout: 10_000 })
    expect(other).not.toBe(player)
  }, 120_000)

  it('holds 60 fps worth of sim with 100 cars and the lidar, without a console error', async () => {
    const { simMs, startupMs } = await page.evaluate(() => ({ simMs: window.pitlaneDemo.simMs, startupMs: window.pitlaneDemo.startupMs }))
    console.log(`[e2e] demo sim cost: ${simMs.toFixed(2)} ms per 60 Hz step (100 AI cars + player + 16-channel lidar); start-up ${startupMs.toFixed(0)} ms`)
    expect(simMs).toBeGreaterThan(0)
    expect(simMs).toBeLessThan(8)
    expect(errors).toEqual([])
  })
})
