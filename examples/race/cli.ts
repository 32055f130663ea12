/**
 * `npm run race -- --cars 200 --seconds 120 [--seed N] [--level full|singleTrack|lod] [--top N]`:
 * the headless race in a terminal. A progress bar goes to stderr when it is a TTY; the standings
 * table goes to stdout. Built by vite (examples/race/vite.config.ts) into dist-race/ and run by node.
 */
import { formatStandings, parseRaceArgs, runRace } from './race'

function main(): void {
  let options
  try {
    options = parseRaceArgs(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`)
    process.exit(2)
  }
  const tty = process.stderr.isTTY === true
  const bar = (f: number) => {
    const width = 40, full = Math.round(f * width)
    process.stderr.write(`\r  racing [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(f * 100).toFixed(0).padStart(3)}%`)
  }
  const cars = options.cars ?? 200, seconds = options.seconds ?? 120
  process.stderr.write(`pitlane race: ${cars} cars, ${seconds} s, seed ${options.seed ?? 1}\n`)
  const result = runRace({ ...options, onProgress: tty ? bar : undefined })
  if (tty) process.stderr.write('\n')
  process.stdout.write(formatStandings(result, options.top ?? 20) + '\n')
}

main()
