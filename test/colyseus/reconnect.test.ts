/**
 * A dropped player: its socket is cut (no close handshake), the room holds its car and lets the AI
 * drive it meanwhile, the Colyseus SDK reconnects on its own, and the player is back in the same
 * car within 5 s, driving it again with its own inputs.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { Client } from '@colyseus/sdk'
import { join, roomOf, sleep, start, waitFor } from './harness'
import type { RaceServer } from '../../examples/multiplayer/serve'

describe('PitlaneRoom: reconnection', () => {
  let server: RaceServer | undefined
  afterAll(async () => { await server?.stop() })

  it('gives a dropped client its car back within 5 s', async () => {
    server = await start()
    const p = await join(server.port, { maxClients: 1, cars: 6, wait: 0, reconnect: 10, seed: 3 })
    const sdkRoom = p.rc.room as { roomId: string; sessionId: string; connection: { transport: { ws: { terminate(): void } } }; onReconnect(cb: () => void): void; onDrop(cb: () => void): void }
    const room = roomOf(sdkRoom.roomId)
    room.log = () => {}
    const car = room.carOf(sdkRoom.sessionId)!
    const C = room.sim.components.Car
    // the SDK reconnects only a room joined at least 5 s ago: race a little first
    expect(await waitFor(() => room.phase === 'racing', 15_000)).toBe(true)
    p.rc.setInput({ throttle: 0.6 })
    await sleep(1500)
    expect(C.speed[car]).toBeGreaterThan(3)

    let dropped = 0, back = 0
    sdkRoom.onDrop(() => { dropped = performance.now() })
    sdkRoom.onReconnect(() => { back = performance.now() })
    const cut = performance.now()
    sdkRoom.connection.transport.ws.terminate()
    expect(await waitFor(() => dropped > 0, 3000)).toBe(true)
    // meanwhile the AI has the car
    expect(await waitFor(() => room.sim.aiStatus(car) !== null, 3000)).toBe(true)
    expect(await waitFor(() => back > 0, 5000)).toBe(true)
    const seconds = (back - cut) / 1000
    console.log(`[colyseus] reconnected after ${seconds.toFixed(2)} s`)
    expect(seconds).toBeLessThan(5)
    expect(room.carOf(sdkRoom.sessionId)).toBe(car)
    expect(p.rc.car).toBe(p.rc.entrants[room.world.cars.indexOf(car)].car)
    // the player drives again: the AI is gone, the brakes bring the car to a stop, snapshots flow
    expect(room.sim.aiStatus(car)).toBeNull()
    const snaps = p.rc.snapshots
    p.rc.setInput({ throttle: 0, brake: 1 })
    expect(await waitFor(() => Math.abs(C.speed[car]) < 0.05, 8000)).toBe(true)
    expect(await waitFor(() => p.rc.snapshots > snaps + 10, 3000)).toBe(true)
    await p.rc.leave()
  }, 40_000)

  it('refuses to create a room from hostile options, and the server goes on', async () => {
    const sdk = new Client(`ws://127.0.0.1:${server!.port}`)
    await expect(sdk.joinOrCreate('race', { cars: 5000 })).rejects.toThrow(/cars/)
    await expect(sdk.joinOrCreate('race', { maxClients: 4, wait: 0, evil: true })).rejects.toThrow(/unknown room option 'evil'/)
    const p = await join(server!.port, { maxClients: 1, cars: 4, wait: 0 })
    expect(await waitFor(() => p.rc.snapshots > 5, 5000)).toBe(true)
    await p.rc.leave()
  }, 20_000)
})
