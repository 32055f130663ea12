/**
 * `npm run race -- --cars 200 --seconds 120 [--seed N] [--level full|singleTrack|lod] [--top N]`
 * (`--help` for the flags): the headless race in a terminal. A progress bar goes to stderr when it
 * is a TTY; the standings table goes to stdout. Exit code 0 done, 2 a bad command line, 1 a
 * failure. Built by vite (examples/race/vite.config.ts) into dist-race/ and run by node.
 */
import { raceCli } from './race'

process.exitCode = raceCli(process.argv.slice(2), { out: process.stdout, err: process.stderr })
