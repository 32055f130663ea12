/**
 * Browser test of the racing demo: builds it with vite, serves the build with vite preview on a
 * free local port, drives Debian's chromium through playwright-core, and plays it as a user would:
 * the start lights, standings that change with every car racing (far ones at the path level), a
 * scripted gamepad and touch buttons steering the player's car, the debug overlay on and off, the
 * frame rate over 5 s with 100 cars, the settings panel changing the car count through the URL,
 * and a fast-forwarded one-lap race to its results and a restart in place (no reload). Checks
 * sampled pixels and the demo's state, never an exact image; no console errors anywhere. Saves
 * docs/screenshot.png (the README's picture) only under PITLANE_UPDATE_SCREENSHOT=1. Skipped with a notice where /usr/bin/chromium is
 * missing, unless PITLANE_E2E=required.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import { browserTestRuns, launchChromium, required } from './browser'
import type { BrowserContext, Page } from 'playwright-core'

const ROOT = resolve(__dirname, '../..')
const runs = browserTestRuns('the demo')

interface PixelWindow { __pitlanePixels(): Uint8ClampedArray }
interface FakePad { connected: boolean; axes: number[]; buttons: { pressed: boolean; value: number }[] }
interface PadWindow { __pad: FakePad }

/** Counts sampled canvas pixels near each of `colors` (0xRRGGBB, ± tol per channel), every `stride`-th pixel. */
async function countColors(page: Page, colors: Record<string, number>, tol = 24, stride = 3): Promise<Record<string, number> & { total: number }> {
  return page.evaluate(({ colors, tol, stride }) => {
    const src = document.querySelector('#stage canvas') as HTMLCanvasElement
    const c = document.createElement('canvas')
    c.width = src.width
    c.height = src.height
    const g = c.getContext('2d')!
    g.drawImage(src, 0, 0)
    const px = g.getImageData(0, 0, c.width, c.height).data
    const out: Record<string, number> = { total: 0 }
    for (const k of Object.keys(colors)) out[k] = 0
    for (let i = 0; i < px.length; i += 4 * stride) {
      out.total++
      for (const [k, rgb] of Object.entries(colors)) {
        if (Math.abs(px[i] - (rgb >> 16)) <= tol && Math.abs(px[i + 1] - ((rgb >> 8) & 255)) <= tol && Math.abs(px[i + 2] - (rgb & 255)) <= tol) { out[k]++; break }
      }
    }
    return out
  }, { colors, tol, stride }) as Promise<Record<string, number> & { total: number }>
}

describe.skipIf(!runs)('racing demo in chromium', () => {
  let context: BrowserContext | undefined
  let page: Page
  let close: (() => Promise<void>) | undefined
  let base = ''
  const errors: string[] = []
  let outDir = '', profile = ''

  /** Opens `query` and waits for the demo to be ready (or to report a start-up error). */
  const open = async (query: string) => {
    await page.goto(`${base}/${query}`)
    await ready()
  }
  const ready = async () => {
    await page.waitForFunction(() => window.pitlaneDemo?.ready === true || window.pitlaneDemo?.error != null, null, { timeout: 60_000 })
    const startError = await page.evaluate(() => window.pitlaneDemo.error)
    if (startError) throw new Error(`demo failed to start: ${startError}`)
  }
  const order = () => page.evaluate(() => window.pitlaneDemo.race!.standings().map((s) => s.car))

  beforeAll(async () => {
    const vite = await import('vite')
    outDir = mkdtempSync(join(tmpdir(), 'pitlane-demo-'))
    profile = mkdtempSync(join(tmpdir(), 'pitlane-chromium-'))
    const configFile = join(ROOT, 'vite.config.ts')
    // The browser starts while vite builds (both take seconds on a busy machine).
    const launching = launchChromium(profile)
    launching.catch(() => {}) // reported by the await below
    await vite.build({ configFile, root: join(ROOT, 'examples/racing'), logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false } }) // a test build: skip the slow bits
    const server = await vite.preview({ configFile, root: join(ROOT, 'examples/racing'), logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } })
    close = () => server.close()
    base = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`
    context = await launching
    page = context.pages()[0] ?? (await context.newPage())
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`) })
    page.on('pageerror', (e) => errors.push(`page: ${e.message}`))
    // A scripted gamepad: navigator.getGamepads returns this one pad, which the test moves.
    await page.addInitScript(() => {
      const pad: FakePad = { connected: false, axes: [0, 0, 0, 0], buttons: Array.from({ length: 17 }, () => ({ pressed: false, value: 0 })) }
      ;(window as unknown as PadWindow).__pad = pad
      Object.defineProperty(navigator, 'getGamepads', { value: () => [pad.connected ? { ...pad, id: 'scripted pad', index: 0, mapping: 'standard', timestamp: performance.now() } : null] })
    })
    await open('')
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await close?.()
    if (outDir) rmSync(outDir, { recursive: true, force: true })
    if (profile) rmSync(profile, { recursive: true, force: true })
  })

  it('draws a 100-car grid and measures its frame rate: cars, track, the player and the minimap', async () => {
    const start = await page.evaluate(() => ({ phase: window.pitlaneDemo.race!.phase, cars: window.pitlaneDemo.field.length }))
    expect(start.cars).toBe(100)
    expect(['grid', 'lights']).toContain(start.phase)
    // The picture on the grid: tarmac, grass, kerbs, the player's pink car, liveries; sprites drawn only near the camera.
    await page.waitForFunction(() => window.pitlaneDemo.frames > 2, null, { timeout: 10_000 })
    const px = await countColors(page, { tarmac: 0x4a4d52, grass: 0x3d7a36, kerb: 0xd23b33, player: 0xff4fd8 }, 14)
    expect(px.tarmac / px.total).toBeGreaterThan(0.05)
    expect(px.grass / px.total).toBeGreaterThan(0.05)
    expect(px.kerb).toBeGreaterThan(20)
    expect(px.player).toBeGreaterThan(8)
    const drawn = await page.evaluate(() => window.pitlaneDemo.carsDrawn)
    expect(drawn).toBeGreaterThan(10)
    expect(drawn).toBeLessThan(101)
    // The minimap (a HUD canvas): the player's pink dot and the field's dots on the circuit.
    const map = await page.evaluate(() => {
      const c = document.getElementById('minimap') as HTMLCanvasElement
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data
      let pink = 0, drawn = 0
      for (let i = 0; i < px.length; i += 4) {
        if (px[i + 3] > 200) drawn++
        if (Math.abs(px[i] - 0xff) < 20 && Math.abs(px[i + 1] - 0x4f) < 20 && Math.abs(px[i + 2] - 0xd8) < 20) pink++
      }
      return { pink, drawn, total: px.length / 4 }
    })
    expect(map.pink).toBeGreaterThan(20)
    expect(map.drawn / map.total).toBeGreaterThan(0.05)
    // The frame rate over 5 s of wall time on the grid, with 100 cars, the lidar and the HUD, after
    // the first 2 s (shaders compile and textures upload in the first frames; the dynamic resolution
    // starts to follow the frame rate then). The lights go out after 7.6 s of sim time at the earliest.
    await page.waitForFunction(() => window.pitlaneDemo.frames > 0 && window.pitlaneDemo.race!.raceTime() === 0 && window.pitlaneDemo.sim!.time >= 2, null, { timeout: 30_000, polling: 50 })
    const fps = await page.evaluate(() => new Promise<number>((done) => {
      const f0 = window.pitlaneDemo.frames, t0 = performance.now()
      setTimeout(() => done(((window.pitlaneDemo.frames - f0) * 1000) / (performance.now() - t0)), 5000)
    }))
    const costs = await page.evaluate(() => ({ sim: window.pitlaneDemo.simMs, render: window.pitlaneDemo.renderMs, resolution: window.pitlaneDemo.resolution, phase: window.pitlaneDemo.race!.phase }))
    const load = `load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`
    console.log(`[e2e] ${fps.toFixed(1)} fps over 5 s with 101 cars (${costs.phase} at the end) at resolution ${costs.resolution}; per frame sim ${costs.sim.toFixed(2)} ms, render ${costs.render.toFixed(2)} ms; ${load}`)
    // the dynamic resolution never goes under half
    expect(costs.resolution).toBeGreaterThanOrEqual(0.5)
    // The 55 fps goal (issue #20), in software GL: it needs the machine to itself (the test runs
    // alone under vitest on two cores), so it is checked under PITLANE_E2E=required and only
    // printed otherwise.
    if (required) expect(fps).toBeGreaterThanOrEqual(55)
    else if (fps < 55) console.warn(`[e2e] frame rate ${fps.toFixed(1)} fps (${load}); the ≥ 55 fps check runs under PITLANE_E2E=required`)
  }, 60_000)

  it('shows the race under way, every car racing, far ones at the path level (the README screenshot)', async () => {
    // Four sim seconds per second to the lights going out, then a few seconds of racing, the camera
    // on the car behind the player (who waits on the grid) so the picture is of the field at speed.
    await open('?speed=4&res=1') // the README's picture at full resolution
    const distances = () => page.evaluate(() => Object.fromEntries(window.pitlaneDemo.race!.standings().map((s) => [s.car, s.distance])))
    await page.waitForFunction(() => window.pitlaneDemo.race!.phase === 'racing' && window.pitlaneDemo.race!.raceTime() > 6, null, { timeout: 120_000, polling: 100 })
    const d0 = await distances()
    await page.keyboard.press('KeyC')
    // (12 s: with traffic the back of the grid moves off a few seconds after the front)
    await page.waitForFunction(() => window.pitlaneDemo.following !== window.pitlaneDemo.player && window.pitlaneDemo.race!.raceTime() > 12, null, { timeout: 60_000, polling: 100 })
    const d1 = await distances()
    const seen = await page.evaluate(() => {
      const d = window.pitlaneDemo
      const levels: Record<string, number> = {}
      for (const car of d.field) { const l = d.sim!.getLod(car).level; levels[l] = (levels[l] ?? 0) + 1 }
      return { drawn: d.carsDrawn, speed: d.sim!.carState(d.following).speed, levels, field: d.field, perf: document.getElementById('perf')!.textContent! }
    })
    expect(seen.drawn).toBeGreaterThan(3)
    expect(seen.speed).toBeGreaterThan(10)
    // far cars race on along their lines: some at the path level, none frozen, every AI car 10+ m further on
    expect(seen.levels.path).toBeGreaterThan(10)
    expect(seen.levels.frozen).toBeUndefined()
    expect(seen.perf).toMatch(/path [1-9]/)
    expect(seen.perf).not.toMatch(/frozen/)
    // every AI car 10+ m further on, but those queued behind the player waiting on the grid (traffic:
    // a car right behind a parked one cannot pull out of a grid slot, and the ones behind it wait)
    const held = await page.evaluate(() => {
      const d = window.pitlaneDemo, behind = new Set([d.player])
      for (let grew = true; grew;) {
        grew = false
        for (const car of d.field) if (!behind.has(car) && behind.has(d.sim!.aiStatus(car)!.ahead)) { behind.add(car); grew = true }
      }
      behind.delete(d.player)
      return [...behind]
    })
    const stuck = seen.field.filter((car) => !(d1[car] - d0[car] > 10))
    const why = await page.evaluate((cars) => cars.slice(0, 8).map((c) => { const d = window.pitlaneDemo, s = d.sim!.aiStatus(c)!, C = d.sim!.components.Car; return `${c}: ahead ${s.ahead} gap ${s.gap.toFixed(1)} v ${C.speed[c].toFixed(1)} lat ${s.lateralError.toFixed(1)} passing ${s.passing} ${d.sim!.getLod(c).level}` }).join('; '), stuck)
    expect(stuck.filter((car) => !held.includes(car)), why).toEqual([])
    expect(stuck.length, why).toBeLessThan(8)
    // The README's picture: rewritten only when asked, so `npm test` leaves the checkout clean.
    if (process.env.PITLANE_UPDATE_SCREENSHOT === '1') await page.screenshot({ path: join(ROOT, 'docs/screenshot.png') })
    else expect((await page.screenshot()).length).toBeGreaterThan(10_000)
  }, 200_000)

  it('toggles the debug overlay: LOD tint, colliders and lidar from pitlane/pixi', async () => {
    // on the race under way (the page of the screenshot, the camera on a car in the field): no reload
    const tint = { full: 0x4ade80, singleTrack: 0xfacc15 }
    const off = await countColors(page, tint, 20)
    await page.keyboard.press('KeyO')
    await page.waitForFunction(() => window.pitlaneDemo.debug && window.pitlaneDemo.lidarPoints > 0, null, { timeout: 5_000 })
    await page.waitForTimeout(200)
    const on = await countColors(page, tint, 20)
    expect(on.full + on.singleTrack).toBeGreaterThan(off.full + off.singleTrack + 30)
    await page.keyboard.press('KeyO')
    await page.waitForFunction(() => !window.pitlaneDemo.debug, null, { timeout: 5_000 })
  }, 30_000)

  it('changes the car count in the settings panel, through the URL', async () => {
    await page.click('#btn-settings')
    await page.fill('#settings input[name=cars]', '20')
    await Promise.all([page.waitForURL(/cars=20/, { timeout: 30_000 }), page.click('#settings-apply')])
    await ready()
    const after = await page.evaluate(() => ({ cars: window.pitlaneDemo.field.length, standings: window.pitlaneDemo.race!.standings().length, search: location.search }))
    expect(after.search).toContain('cars=20')
    expect(after.cars).toBe(20)
    expect(after.standings).toBe(21)
  }, 60_000)

  it('races a fast-forwarded lap of the club circuit: lights, a gamepad, touch, standings, a lap time, results, restart', async () => {
    // Eight sim seconds per second; the field laps while the test drives.
    await open('?track=club&cars=10&laps=1&speed=8&lidar=0')
    const phases = new Set<string>()
    let lit = 0
    const t0 = Date.now()
    while (Date.now() - t0 < 120_000) {
      const s = await page.evaluate(() => ({ phase: window.pitlaneDemo.race!.phase, bulbs: document.querySelectorAll('#lights i.on').length }))
      phases.add(s.phase)
      lit = Math.max(lit, s.bulbs)
      if (s.phase === 'racing') break
      await page.waitForTimeout(20)
    }
    expect(phases.has('lights')).toBe(true)
    expect(phases.has('racing')).toBe(true)
    expect(lit).toBeGreaterThanOrEqual(3) // the lights come on one by one (a poll may miss the last at 8×)
    await page.waitForFunction(() => document.getElementById('lights')!.hidden, null, { timeout: 5_000 }) // the HUD redraws four times a second
    // A scripted gamepad: full throttle, stick hard left (its x is -1 to the left)...
    const player = await page.evaluate(() => window.pitlaneDemo.player)
    await page.evaluate(() => {
      const pad = (window as unknown as PadWindow).__pad
      pad.connected = true
      pad.axes[0] = -1
      pad.buttons[7] = { pressed: true, value: 1 }
    })
    const h0 = await page.evaluate((car) => window.pitlaneDemo.sim!.carState(car).heading, player)
    await page.waitForFunction((car) => window.pitlaneDemo.sim!.carState(car).speed > 4, player, { timeout: 60_000, polling: 50 })
    const left = await page.evaluate((car) => ({ input: window.pitlaneDemo.sim!.getInput(car), heading: window.pitlaneDemo.sim!.carState(car).heading, device: window.pitlaneDemo.device }), player)
    expect(left.device).toBe('gamepad')
    expect(left.input.throttle).toBeGreaterThan(0.95)
    expect(left.input.steer).toBeGreaterThan(0.3) // + = left
    expect(left.heading - h0).toBeGreaterThan(0.05) // turning anticlockwise
    // ...then half stick right: an analog steer the other way, smaller; then hands off.
    await page.evaluate(() => { (window as unknown as PadWindow).__pad.axes[0] = 0.5 })
    await page.waitForFunction((car) => window.pitlaneDemo.sim!.getInput(car).steer < 0, player, { timeout: 30_000, polling: 50 })
    const right = await page.evaluate((car) => window.pitlaneDemo.sim!.getInput(car).steer, player)
    expect(right).toBeLessThan(-0.1)
    expect(-right).toBeLessThan(left.input.steer)
    await page.evaluate(() => { const pad = (window as unknown as PadWindow).__pad; pad.axes[0] = 0; pad.buttons[7] = { pressed: false, value: 0 }; pad.connected = false })
    // Touch, as on a phone: a first tap shows the on-screen buttons, then thumbs on throttle and left...
    const cdp = await context!.newCDPSession(page)
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 })
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: { x: number; y: number; id: number }[]) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points })
    await touch('touchStart', [{ x: 640, y: 360, id: 0 }])
    await touch('touchEnd', [])
    await page.waitForSelector('#touch [data-touch=up]', { state: 'visible', timeout: 5_000 })
    const centre = (name: string) => page.evaluate((n) => { const r = document.querySelector(`#touch [data-touch=${n}]`)!.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 } }, name)
    const up = { ...(await centre('up')), id: 1 }, leftBtn = { ...(await centre('left')), id: 2 }, rightBtn = { ...(await centre('right')), id: 3 }
    await touch('touchStart', [up, leftBtn])
    await page.waitForFunction((car) => { const i = window.pitlaneDemo.sim!.getInput(car); return i.throttle > 0.5 && i.steer > 0.2 }, player, { timeout: 30_000, polling: 50 })
    expect(await page.evaluate(() => window.pitlaneDemo.device)).toBe('touch')
    // ...then both thumbs lift and come down on throttle and right: the steer goes the other way
    await touch('touchEnd', [])
    await touch('touchStart', [up, rightBtn])
    await page.waitForFunction((car) => window.pitlaneDemo.sim!.getInput(car).steer < -0.2, player, { timeout: 30_000, polling: 50 })
    expect((await page.evaluate((car) => window.pitlaneDemo.sim!.getInput(car).throttle, player))).toBeGreaterThan(0.5)
    await touch('touchEnd', [])
    await page.waitForFunction((car) => window.pitlaneDemo.sim!.getInput(car).throttle < 0.05, player, { timeout: 30_000, polling: 50 })
    await cdp.detach()
    // Standings: positions change while the field races.
    const before = await order()
    await page.waitForFunction((b) => window.pitlaneDemo.race!.standings().some((s, i) => s.car !== b[i]), before, { timeout: 120_000, polling: 100 })
    expect(await page.evaluate(() => document.querySelectorAll('#tower-rows .row:not([hidden])').length)).toBe(11)
    // A lap completes with a lap time, in the standings and in the tower.
    await page.waitForFunction(() => window.pitlaneDemo.race!.standings().some((s) => s.bestLap !== null), null, { timeout: 120_000, polling: 100 })
    const lap = await page.evaluate(() => window.pitlaneDemo.race!.standings().find((s) => s.bestLap !== null)!)
    expect(lap.laps).toBe(1)
    // about 0.7 km from a standing start at 26–44 m/s top speed, through a 25 m hairpin
    expect(lap.bestLap!).toBeGreaterThan(15)
    expect(lap.bestLap!).toBeLessThan(70)
    await page.waitForTimeout(600) // the tower redraws four times a second of frame time
    expect(await page.evaluate(() => document.getElementById('tower-rows')!.textContent)).toContain(lap.bestLap!.toFixed(3))
    // The flag, the results card with every car, and a restart back to the grid.
    await page.waitForFunction(() => window.pitlaneDemo.race!.phase === 'finished', null, { timeout: 120_000, polling: 100 })
    await page.waitForSelector('#results:not([hidden])', { timeout: 10_000 })
    expect(await page.evaluate(() => document.querySelectorAll('#results tbody tr').length)).toBe(11)
    // Restart in place: the same page (a mark set on window survives), the grid again, the clock and laps back to zero.
    const grid = await page.evaluate(() => { (window as unknown as { __samePage: boolean }).__samePage = true; return window.pitlaneDemo.restarts })
    await page.click('#results [data-action=restart]')
    await page.waitForFunction((n) => window.pitlaneDemo.restarts === n + 1, grid, { timeout: 10_000 })
    const again = await page.evaluate(() => {
      const d = window.pitlaneDemo
      return { same: (window as unknown as { __samePage?: boolean }).__samePage === true, phase: d.race!.phase, time: d.race!.raceTime(), results: document.getElementById('results')!.hidden, laps: d.race!.standings().map((s) => s.laps), speed: d.sim!.carState(d.player).speed, onGrid: d.race!.standings().every((s) => s.distance < 0) }
    })
    expect(again.same).toBe(true)
    expect(['grid', 'lights']).toContain(again.phase)
    expect(again.time).toBe(0)
    expect(again.results).toBe(true)
    expect(again.laps).toEqual(Array(11).fill(0))
    expect(Math.abs(again.speed)).toBeLessThan(0.5)
    expect(again.onGrid).toBe(true)
    // and it races again: the lights go out on the restarted race
    await page.waitForFunction(() => window.pitlaneDemo.race!.phase === 'racing', null, { timeout: 60_000, polling: 100 })
    expect(errors).toEqual([])
  }, 300_000)
})
