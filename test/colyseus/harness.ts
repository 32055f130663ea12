/**
 * The multiplayer tests' harness: the race server (examples/multiplayer/serve.ts) in this process on
 * an ephemeral loopback port, Colyseus SDK clients joining it with joinRace, byte counting at the
 * WebSocket, and the room instances (for their counters) through Colyseus's matchmaker.
 */
import { Client } from '@colyseus/sdk'
import { matchMaker } from '@colyseus/core'
import { joinRace, type PitlaneRoom, type RaceClient } from '../../src/colyseus/index'
import { startServer, type RaceServer } from '../../examples/multiplayer/serve'
import { circuitScene } from '../../examples/multiplayer/scene'

export { circuitScene }

/** Starts the server on 127.0.0.1, port 0. */
export function start(): Promise<RaceServer> {
  return startServer({ port: 0 })
}

/** A joined client with its byte counter. */
export interface Player {
  sdk: Client
  rc: RaceClient
  /** Bytes received on the WebSocket since joining (every frame, the transport's framing aside). */
  bytes(): number
}

interface WsLike { addEventListener?(type: string, cb: (e: { data: unknown }) => void): void; on?(type: string, cb: (d: unknown) => void): void }

/** Counts the bytes of every message on the room's socket. */
export function countBytes(room: unknown): () => number {
  let total = 0
  const hook = () => {
    const ws = (room as { connection: { transport: { ws: WsLike } } }).connection.transport.ws
    const add = (data: unknown) => { total += data instanceof ArrayBuffer ? data.byteLength : (data as Uint8Array).byteLength ?? 0 }
    if (ws.on) ws.on('message', add)
    else ws.addEventListener!('message', (e) => add(e.data))
  }
  hook()
  ;(room as { onReconnect(cb: () => void): void }).onReconnect(hook)
  return () => total
}

/** Joins (or creates) a 'race' room on `port` with room `options`. */
export async function join(port: number, options: Record<string, unknown> = {}): Promise<Player> {
  const sdk = new Client(`ws://127.0.0.1:${port}`)
  const rc = await joinRace(sdk, 'race', { scene: circuitScene, ...options })
  return { sdk, rc, bytes: countBytes(rc.room) }
}

/** The room instance of `roomId` in this process. */
export function roomOf(roomId: string): PitlaneRoom {
  return matchMaker.getLocalRoomById(roomId) as unknown as PitlaneRoom
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls `ok` every 50 ms until it holds (true) or `ms` pass (false). */
export async function waitFor(ok: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms
  while (performance.now() < end) {
    if (ok()) return true
    await sleep(50)
  }
  return ok()
}
