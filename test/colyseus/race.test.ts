/**
 * Four node clients race one PitlaneRoom (20 cars, the AI filling the grid) on the real Colyseus
 * server in this process, on a loopback port, in real time: 20 s of scripted driving after the
 * lights, then brakes. A hostile fifth client sends wrong types, NaN-bearing objects, strings,
 * another car's id, 500 messages a second and a 1 MB payload meanwhile. Checked: every client sees
 * every player's car move; a client's predicted car and where the others draw it agree (1 m p95
 * while driving, 5 cm once stopped); bytes received per client ≤ 12 KB/s; the room applied exactly
 * the honest clients' scripted inputs to their cars, refused the hostile messages, and kept its
 * snapshot rate.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { Client } from '@colyseus/sdk'
import { encodeInput } from '../../src/net/index'
import type { CarInput } from '../../src/index'
import { join, roomOf, sleep, start, waitFor, type Player } from './harness'
import type { RaceServer } from '../../examples/multiplayer/serve'

const DRIVE_S = 20
const TICK = 1 / 60

/** Player i's scripted input for its input number `seq`. */
function script(i: number, seq: number): CarInput {
  return { steer: 0.25 * Math.sin(seq / 45 + i), throttle: 0.75 + 0.25 * Math.sin(seq / 80 + 2 * i), brake: 0, handbrake: 0, clutch: 0, gear: 1 }
}
/** What the wire makes of an input (pitlane/net quantises steer to 1/32767 and pedals to 1/65535). */
const quantised = (v: number, scale: number) => Math.round(v * scale) / scale
const p95 = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(0.95 * s.length))] }

describe('PitlaneRoom: four players and a hostile fifth', () => {
  let server: RaceServer | undefined
  afterAll(async () => { await server?.stop() })

  it('races 20 s with prediction and interpolation in agreement, within the byte budget, unmoved by the hostile client', async () => {
    server = await start()
    const players: Player[] = []
    for (let i = 0; i < 4; i++) players.push(await join(server.port, { maxClients: 5, cars: 20, wait: 60, seed: 11, name: `P${i}` }))
    const roomId = (players[0].rc.room as { roomId: string }).roomId
    for (const p of players) expect((p.rc.room as { roomId: string }).roomId).toBe(roomId)
    const room = roomOf(roomId)
    const logs: string[] = []
    room.log = (line) => { logs.push(line) }
    const sessions = players.map((p) => (p.rc.room as { sessionId: string }).sessionId)
    const serverCars = sessions.map((s) => room.carOf(s)!)
    expect(new Set(serverCars).size).toBe(4)

    // The server side of the check: before every tick's step, each player's car input is the
    // script for the input number the room applied (or the grid's hold).
    let wrongInputs = 0, checkedInputs = 0
    const step = room.sim.step.bind(room.sim)
    room.sim.step = (dt: number) => {
      if (room.phase === 'racing') {
        sessions.forEach((s, i) => {
          const seq = room.lastInputOf(s)!
          if (seq < 0) return
          const got = room.sim.getInput(serverCars[i]), want = script(i, seq)
          checkedInputs++
          const braking = got.brake === 1 && got.throttle === 0 // after the drive
          if (!braking && (got.steer !== quantised(want.steer, 32767) || got.throttle !== quantised(want.throttle, 65535) || got.gear !== 1)) wrongInputs++
        })
      }
      step(dt)
    }

    // Each client: its own predicted position per input number, the (server time, last applied
    // input) pairs of its snapshots, and every other player's car as drawn (interpolated).
    const index = players.map((p) => p.rc.entrants.findIndex((e) => e.car === p.rc.car))
    const pose = new Float64Array(6) // x, y, z, heading, roll, pitch
    const predicted = players.map(() => new Map<number, [number, number]>())
    const applied = players.map(() => [] as [number, number][])
    const drawn = players.map(() => players.map(() => [] as [number, number, number][]))
    // distance each client sees each player's car travel (the newest pose each step, summed)
    const travelled = players.map(() => players.map(() => 0))
    const last = players.map(() => players.map(() => [NaN, NaN]))
    let counting = false
    let stopped = false
    players.forEach((p, i) => {
      let lastTime = NaN
      p.rc.onStep(() => {
        const rc = p.rc, C = rc.sim.components.Car
        if (!stopped) rc.setInput(script(i, rc.seq + 1)) // held by the room until the lights go out
        predicted[i].set(rc.seq, [C.x[rc.car], C.y[rc.car]])
        if (rc.serverTime !== lastTime) { lastTime = rc.serverTime; applied[i].push([rc.serverTime, rc.lastInput]) }
        const now = performance.now() / 1000, t = rc.viewTime(now)
        players.forEach((_, j) => {
          if (j !== i && rc.poseOf(rc.entrants[index[j]].car, pose, now)) drawn[i][j].push([t, pose[0], pose[1]])
          if (!counting) return
          rc.poseOf(rc.entrants[index[j]].car, pose)
          const l = last[i][j]
          if (l[0] === l[0]) travelled[i][j] += Math.hypot(pose[0] - l[0], pose[1] - l[1])
          l[0] = pose[0]; l[1] = pose[1]
        })
      })
    })

    // The fifth client fills the room, which starts the grid.
    const hostileSdk = new Client(`ws://127.0.0.1:${server.port}`)
    const hostile = await hostileSdk.joinOrCreate('race', { name: 'BAD' }) as unknown as {
      sessionId: string; roomId: string; reconnection: { enabled: boolean }
      send(type: unknown, msg?: unknown): void; sendBytes(type: unknown, b: Uint8Array): void; onMessage(type: string, cb: () => void): void
    }
    hostile.reconnection.enabled = false
    hostile.onMessage('*', () => {})
    expect(hostile.roomId).toBe(roomId)
    expect(await waitFor(() => room.phase === 'racing', 15_000)).toBe(true)

    const t0 = performance.now()
    const bytes0 = players.map((p) => p.bytes())
    const snaps0 = players.map((p) => p.rc.snapshots)
    const ticks0 = room.stats().ticks
    counting = true
    await sleep(2000)

    // The hostile burst: 2 s of junk, then 3 s at 500 messages a second, then a 1 MB payload.
    const other = serverCars[0]
    const hostileStart = performance.now()
    const snapsBurst0 = players.map((p) => p.rc.snapshots)
    const ticksBurst0 = room.stats().ticks
    hostile.send(1, { seq: 1, car: other, throttle: NaN, steer: 'left' })
    hostile.send('input', 'full throttle')
    hostile.send(2, { ack: NaN })
    hostile.sendBytes(1, new Uint8Array(17).fill(0xff))
    const withCar = new Uint8Array(21); withCar.set(encodeInput(5, script(0, 5))); new DataView(withCar.buffer).setUint32(17, other, true)
    hostile.sendBytes(1, withCar)
    hostile.sendBytes(2, new Uint8Array([1, 2, 3]))
    hostile.sendBytes(2, new Uint8Array([255, 255, 255, 127]))
    hostile.sendBytes(7, encodeInput(6, script(0, 6)))
    await sleep(2000)
    let seq = 100
    for (let k = 0; k < 30; k++) {
      for (let m = 0; m < 50; m++) hostile.sendBytes(1, encodeInput(seq++, { steer: 1, throttle: 1, brake: 0, handbrake: 0, clutch: 0, gear: 1 }))
      await sleep(100)
    }
    hostile.sendBytes(1, new Uint8Array(1 << 20))
    const hostileSeconds = (performance.now() - hostileStart) / 1000
    const burstRates = players.map((p, i) => (p.rc.snapshots - snapsBurst0[i]) / hostileSeconds)
    const burstTicks = room.stats().ticks - ticksBurst0

    await sleep(Math.max(0, DRIVE_S * 1000 - (performance.now() - t0)))
    const driveSeconds = (performance.now() - t0) / 1000
    const driveTicks = room.stats().ticks - ticks0
    const rates = players.map((p, i) => (p.bytes() - bytes0[i]) / driveSeconds)
    const snapRates = players.map((p, i) => (p.rc.snapshots - snaps0[i]) / driveSeconds)
    const tDriveEnd = players[0].rc.serverTime
    stopped = true
    for (const p of players) p.rc.setInput({ throttle: 0, brake: 1, steer: 0 })
    const C = room.sim.components.Car
    expect(await waitFor(() => serverCars.every((car) => Math.abs(C.speed[car]) < 0.01), 15_000)).toBe(true)
    await sleep(500) // the last snapshots arrive and the drawing catches up (delay 0.1 s)

    // Every client sees every player's car move: the distance travelled, not the displacement, as
    // a weaving car that meets the wall or the field can end 20 s of driving near where it began.
    console.log(`[colyseus] travelled as seen: ${travelled.map((r) => r.map((d) => d.toFixed(0)).join('/')).join(', ')} m`)
    players.forEach((_, i) => players.forEach((__, j) => {
      expect(travelled[i][j], `client ${i} sees car of client ${j} move`).toBeGreaterThan(50)
    }))

    // A client's predicted car against where each other client draws it, matched by server time:
    // the input the server had applied at that time (from the client's snapshots) names the prediction.
    const errors: number[] = []
    const stillErrors: number[] = []
    players.forEach((_, j) => {
      const pairs = applied[j]
      players.forEach((__, i) => {
        if (i === j) return
        for (const [t, x, y] of drawn[i][j]) {
          let k = pairs.length - 1
          while (k >= 0 && pairs[k][0] > t) k--
          if (k < 0 || pairs[k][1] < 0 || t - pairs[k][0] > 0.2) continue
          const s = pairs[k][1] + (t - pairs[k][0]) / TICK
          const s0 = Math.floor(s), f = s - s0
          const a = predicted[j].get(s0), b = predicted[j].get(s0 + 1) ?? a
          if (!a || !b) continue
          const d = Math.hypot(a[0] + (b[0] - a[0]) * f - x, a[1] + (b[1] - a[1]) * f - y)
          if (t > tDriveEnd - DRIVE_S + 1 && t < tDriveEnd) errors.push(d)
        }
        // once stopped: the newest drawn pose against the car as predicted now
        const own = players[j].rc, C = own.sim.components.Car
        players[i].rc.poseOf(players[i].rc.entrants[index[j]].car, pose)
        stillErrors.push(Math.hypot(C.x[own.car] - pose[0], C.y[own.car] - pose[1]))
      })
    })
    const stats = room.stats()
    console.log(`[colyseus] prediction vs drawn: p95 ${p95(errors).toFixed(3)} m over ${errors.length} samples, stopped max ${Math.max(...stillErrors).toFixed(4)} m; ` +
      `bytes/s ${rates.map((r) => r.toFixed(0)).join(', ')}; snapshots/s ${snapRates.map((r) => r.toFixed(1)).join(', ')} (during the hostile burst ${burstRates.map((r) => r.toFixed(1)).join(', ')}); ` +
      `room ticks/s ${(driveTicks / driveSeconds).toFixed(1)} (flood ${(burstTicks / hostileSeconds).toFixed(1)}); inputs checked ${checkedInputs}, wrong ${wrongInputs}; refused ${JSON.stringify(stats.refused)}`)
    expect(errors.length).toBeGreaterThan(1000)
    expect(p95(errors)).toBeLessThan(1)
    expect(Math.max(...stillErrors)).toBeLessThan(0.05)
    for (const r of rates) expect(r).toBeLessThanOrEqual(12 * 1024)
    // 20 Hz while the room keeps real time (a machine busy with other work can starve this process,
    // and a room drops a backlog over a quarter second). During the flood every client gets the
    // snapshot of every third tick, and the room ticks about as fast as over the whole drive
    // (this process also runs the flooding client and four clients' sims: some slack for that).
    for (const r of snapRates) expect(r).toBeGreaterThan(15)
    for (const r of burstRates) expect(r * hostileSeconds).toBeGreaterThanOrEqual(Math.floor(burstTicks / 3) - 1)
    expect(burstTicks / hostileSeconds).toBeGreaterThan(0.8 * (driveTicks / driveSeconds))
    expect(checkedInputs).toBeGreaterThan(4 * 60 * 15)
    expect(wrongInputs).toBe(0)
    for (const s of sessions) expect(stats.refused[s] ?? 0).toBe(0)
    expect(stats.refused[hostile.sessionId]).toBeGreaterThan(100)
    // the room said so once for the hostile client, never for the others
    const refusing = logs.filter((l) => l.includes('refusing'))
    expect(refusing.length).toBe(1)
    expect(refusing[0]).toContain(hostile.sessionId)

    for (const p of players) await p.rc.leave()
  }, 60_000)
})

