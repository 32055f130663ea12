/**
 * Scale-out: a redis-server of the test's own on a loopback port, two race server processes (the
 * `npm run server` script, built here) sharing it through @colyseus/redis-presence and
 * @colyseus/redis-driver, and 8 clients asking for rooms of 4 alternately at either process. The
 * two rooms land on both processes (matchmaking spreads them) and every client races. Skipped with
 * a notice where redis-server is not installed, unless PITLANE_REDIS=required.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { join as pathJoin, resolve } from 'node:path'
import { Client } from '@colyseus/sdk'
import { build } from 'vite'
import { joinRace, type RaceClient } from '../../src/colyseus/index'
import { circuitScene, sleep, waitFor } from './harness'

const ROOT = resolve(__dirname, '../..')
const haveRedis = spawnSync('redis-server', ['--version']).status === 0
const required = process.env.PITLANE_REDIS === 'required'
if (!haveRedis && !required) console.warn('[colyseus] redis-server not found: skipping the scale-out test (apt-get install redis-server; set PITLANE_REDIS=required to fail instead)')

/** A free loopback port (bound and released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** Spawns `cmd` and resolves once a line of its output matches `ready`. */
function launch(cmd: string, args: string[], ready: RegExp, log: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start:\n${log.join('')}`)), 20_000)
    const seen = (d: Buffer) => {
      log.push(d.toString())
      if (ready.test(log.join(''))) { clearTimeout(timer); resolve(child) }
    }
    child.stdout!.on('data', seen)
    child.stderr!.on('data', (d: Buffer) => log.push(d.toString()))
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${cmd} exited with ${code}:\n${log.join('')}`)) })
  })
}

describe.skipIf(!haveRedis && !required)('race servers scaled out over Redis', () => {
  const children: ChildProcess[] = []
  const log: string[] = []
  let outDir = ''
  let ports: number[] = []

  beforeAll(async () => {
    // inside node_modules: the script imports Colyseus from the repo's node_modules
    outDir = mkdtempSync(pathJoin(ROOT, 'node_modules', '.pitlane-server-'))
    await build({ configFile: pathJoin(ROOT, 'examples/multiplayer/vite.server.config.ts'), logLevel: 'error', build: { outDir } })
    const redisPort = await freePort()
    children.push(await launch('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], /Ready to accept connections/, log))
    ports = [await freePort(), await freePort()]
    for (const port of ports) {
      children.push(await launch(process.execPath, [pathJoin(outDir, 'server.js'), '--port', String(port), '--redis', `redis://127.0.0.1:${redisPort}`], /listening on/, log))
    }
  }, 90_000)

  afterAll(async () => {
    for (const c of children.reverse()) {
      if (c.exitCode !== null) continue
      const exited = new Promise<void>((r) => c.once('exit', () => r()))
      c.kill('SIGTERM')
      await Promise.race([exited, sleep(3000)])
      if (c.exitCode === null) c.kill('SIGKILL')
    }
    if (outDir) rmSync(outDir, { recursive: true, force: true })
  })

  it('puts 8 clients in rooms of 4 on both processes, and they race', async () => {
    const clients: RaceClient[] = []
    for (let i = 0; i < 8; i++) {
      // Colyseus persists each process's room count at most once a second and creates a room on the
      // process with the fewest: the second room is asked for once the first one's count is out
      if (i === 4) await sleep(1500)
      const sdk = new Client(`ws://127.0.0.1:${ports[i % 2]}`)
      clients.push(await joinRace(sdk, 'race', { scene: circuitScene, maxClients: 4, cars: 8, wait: 30, seed: 5 }))
    }
    const rooms = clients.map((rc) => (rc.room as { roomId: string }).roomId)
    const urls = clients.map((rc) => String((rc.room as { connection: { transport: { ws: { url: string } } } }).connection.transport.ws.url))
    const servedBy = urls.map((u) => Number(new URL(u).port))
    console.log(`[colyseus] rooms ${rooms.join(' ')}; processes ${servedBy.join(' ')}`)
    expect(new Set(rooms).size).toBe(2)
    for (const r of new Set(rooms)) expect(rooms.filter((x) => x === r).length).toBe(4)
    // the two rooms live on the two processes, whichever process each client asked
    expect(new Set(servedBy)).toEqual(new Set(ports))
    for (const r of new Set(rooms)) expect(new Set(servedBy.filter((_, i) => rooms[i] === r)).size).toBe(1)

    for (const rc of clients) rc.setInput({ throttle: 0.7 })
    expect(await waitFor(() => clients.every((rc) => rc.race?.phase === 'racing'), 15_000)).toBe(true)
    const C0 = clients.map((rc) => [rc.sim.components.Car.x[rc.car], rc.sim.components.Car.y[rc.car]])
    const snaps = clients.map((rc) => rc.snapshots)
    await sleep(3000)
    clients.forEach((rc, i) => {
      const C = rc.sim.components.Car
      expect(Math.hypot(C.x[rc.car] - C0[i][0], C.y[rc.car] - C0[i][1]), `client ${i} drives`).toBeGreaterThan(10)
      expect(rc.snapshots - snaps[i], `client ${i} receives snapshots`).toBeGreaterThan(45)
      expect(rc.race!.standings.length).toBe(8)
    })
    for (const rc of clients) await rc.leave()
  }, 60_000)
})
