/**
 * `npm run server -- --port 2567 [--host 0.0.0.0] [--redis redis://127.0.0.1:6379] [--public host:port]`: the race
 * server as a command (built by examples/multiplayer/vite.server.config.ts into dist-server/).
 * Prints `listening on HOST:PORT` once it accepts players; stops on SIGINT or SIGTERM.
 */
import { parseServeArgs, startServer } from './serve'

const options = parseServeArgs(process.argv.slice(2))
const running = await startServer(options)
console.log(`pitlane race server listening on ${options.host ?? '127.0.0.1'}:${running.port}${options.redis ? ` (Redis ${options.redis})` : ''}`)
const stop = () => { running.stop().finally(() => process.exit(0)) }
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
