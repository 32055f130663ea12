/**
 * The race server: Colyseus with the WebSocket transport and RaceRoom registered as 'race', one
 * process on its own or, with a Redis URL, one of several processes sharing rooms and matchmaking
 * through @colyseus/redis-presence and @colyseus/redis-driver.
 */
import { Server } from '@colyseus/core'
import { WebSocketTransport } from '@colyseus/ws-transport'
import { RedisPresence } from '@colyseus/redis-presence'
import { RedisDriver } from '@colyseus/redis-driver'
import { RaceRoom } from './room'

/** Options of startServer. */
export interface ServeOptions {
  /** Port to listen on (0: any free one; default 2567). */
  port?: number
  /** Address to bind (default 127.0.0.1: only this machine). */
  host?: string
  /** Redis URL shared by every process of the cluster (default: none, a single process). */
  redis?: string
  /**
   * Where players reach this process, host:port (default host:port with --redis): matchmaking sends
   * a player to the process that holds the room, whichever process it asked.
   */
  publicAddress?: string
}

/** A running server. */
export interface RaceServer {
  server: Server
  /** The port it listens on. */
  port: number
  /** Stops it (rooms disposed, Redis connections closed). */
  stop(): Promise<void>
}

/** Starts the race server (see ServeOptions). */
export async function startServer(options: ServeOptions = {}): Promise<RaceServer> {
  const transport = new WebSocketTransport({ pingInterval: 3000, pingMaxRetries: 2 })
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 2567
  if (options.redis && port === 0 && !options.publicAddress) throw new RangeError('with --redis, give --port a number (or --public host:port): other processes send players to it')
  const publicAddress = options.publicAddress ?? (options.redis ? `${host}:${port}` : undefined)
  const server = new Server({
    transport,
    greet: false,
    gracefullyShutdown: false,
    ...(publicAddress ? { publicAddress } : {}),
    ...(options.redis ? { presence: new RedisPresence(options.redis), driver: new RedisDriver(options.redis) } : {}),
  } as ConstructorParameters<typeof Server>[0])
  server.define('race', RaceRoom)
  await server.listen(port, host)
  const address = (transport as unknown as { server: { address(): { port: number } } }).server.address()
  return {
    server,
    port: address.port,
    stop: () => server.gracefullyShutdown(false),
  }
}

/** Parses `--port N --host H --redis URL --public host:port`; throws a RangeError on a bad flag. */
export function parseServeArgs(argv: readonly string[]): ServeOptions {
  const out: ServeOptions = {}
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i], value = argv[i + 1]
    if (value === undefined) throw new RangeError(`${flag} needs a value`)
    if (flag === '--port') {
      const port = Number(value)
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`--port must be an integer in [0, 65535], got ${value}`)
      out.port = port
    } else if (flag === '--host') out.host = value
    else if (flag === '--public') out.publicAddress = value
    else if (flag === '--redis') {
      if (!/^rediss?:\/\//.test(value)) throw new RangeError(`--redis must be a redis:// URL, got ${value}`)
      out.redis = value
    } else throw new RangeError(`unknown flag ${flag} (use --port N --host H --redis redis://host:port --public host:port)`)
  }
  return out
}
