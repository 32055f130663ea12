/**
 * The headless race: a grid of path-driven cars on the built-in circuit, run for a number of sim
 * seconds at a 60 Hz host step, timed by pitlane's addLapTimer and slipstreaming by the slipstream mod.
 * Returns the standings and the sim cost per step. Deterministic: the same options give the same
 * standings, bit for bit (the seed sets the drivers' speeds and lines; timing is not part of it).
 */
import { createWorld } from 'bitecs'
import { addLapTimer, createSim, LodController } from '../../src/index'
import { createTrack, type Track } from '../track'
import { addCircuit, addField, trackSurfaces } from './field'
import { addSlipstream } from '../modding/slipstream'

/** Options of runRace. */
export interface RaceOptions {
  /** Cars on the grid (default 200). */
  cars?: number
  /** Sim seconds to race (default 120). */
  seconds?: number
  /** Seed of the field (default 1). */
  seed?: number
  /**
   * Level of detail (default 'lod': a LodController focused on the first car of the grid keeps
   * cars within 300 m of it at singleTrack, 240 Hz, and moves the others along their lines at
   * 'path'; 'singleTrack' (240 Hz) or 'full': every car at that level).
   */
  level?: 'full' | 'singleTrack' | 'lod'
  /** Called about once per sim second with the fraction done. */
  onProgress?: (fraction: number) => void
  /** The track (default createTrack()). */
  track?: Track
}

/** One line of the standings. */
export interface Standing {
  position: number
  car: number
  laps: number
  /** Best lap, s (NaN when none was completed). */
  bestLap: number
  /** Distance driven along the racing line since the start, m. */
  distance: number
  /** The driver's top speed setting, m/s. */
  maxSpeed: number
}

/** The result of a race. */
export interface RaceResult {
  standings: Standing[]
  /** Host steps run. */
  steps: number
  /** Sim seconds raced. */
  seconds: number
  /** Mean wall-clock cost of one 60 Hz host step, ms. */
  msPerStep: number
  /** Mean CPU time of one host step, ms (unlike wall time, not inflated by other processes on a busy machine). */
  cpuMsPerStep: number
  /** Lap length, m. */
  lapLength: number
}

const DT = 1 / 60

/** Checks the race options' values; throws a RangeError naming the first bad one. */
export function checkRaceOptions(options: RaceOptions): void {
  const { cars, seconds, seed, level } = options
  if (cars !== undefined && !(Number.isInteger(cars) && cars >= 1 && cars <= 5000)) throw new RangeError(`cars must be an integer in [1, 5000], got ${cars}`)
  if (seconds !== undefined && !(typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0)) throw new RangeError(`seconds must be finite and > 0, got ${seconds}`)
  if (seed !== undefined && !Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`)
  if (level !== undefined && level !== 'full' && level !== 'singleTrack' && level !== 'lod') throw new RangeError(`level must be full, singleTrack or lod, got ${String(level)}`)
}

/** Runs a race (see RaceOptions) and returns the standings, best first. */
export function runRace(options: RaceOptions = {}): RaceResult {
  checkRaceOptions(options)
  const cars = options.cars ?? 200
  const seconds = options.seconds ?? 120
  const seed = options.seed ?? 1
  const track = options.track ?? createTrack()
  const sim = createSim(createWorld(), { surfaces: trackSurfaces(track) })
  addCircuit(sim, track)
  const field = addField(sim, track, { cars, seed, layout: 'grid' })
  const level = options.level ?? 'lod'
  if (level !== 'full') for (const f of field) sim.setLod(f.car, 'singleTrack', 240)
  if (level === 'lod') new LodController(sim, { singleTrackBeyond: 0, pathBeyond: 300, frozenBeyond: Infinity, singleTrackHz: 240 }).install({ focus: field[0]!.car })
  const timer = addLapTimer(sim, { line: track.startLine })
  addSlipstream(sim)

  const steps = Math.round(seconds / DT)
  const chunk = 60
  let spent = 0
  const cpu0 = process.cpuUsage()
  for (let done = 0; done < steps; ) {
    const n = Math.min(chunk, steps - done)
    const t0 = performance.now()
    sim.stepMany(DT, n)
    spent += performance.now() - t0
    done += n
    options.onProgress?.(done / steps)
  }
  const cpu = process.cpuUsage(cpu0)
  const standings: Standing[] = field.map((f) => {
    const st = sim.aiStatus(f.car)
    return { position: 0, car: f.car, laps: timer.laps(f.car), bestLap: timer.bestLap(f.car), distance: st?.distance ?? 0, maxSpeed: f.maxSpeed }
  })
  // Laps first, then distance; the car id breaks exact ties so the order never depends on sorting.
  standings.sort((a, b) => b.laps - a.laps || b.distance - a.distance || a.car - b.car)
  standings.forEach((s, i) => { s.position = i + 1 })
  return { standings, steps, seconds: steps * DT, msPerStep: spent / steps, cpuMsPerStep: (cpu.user + cpu.system) / 1000 / steps, lapLength: track.length }
}

const lapTime = (t: number) => (Number.isFinite(t) ? `${Math.floor(t / 60)}:${(t % 60).toFixed(3).padStart(6, '0')}` : '–')

/** The standings as a text table (top `limit` rows, default all) with the sim cost line. */
export function formatStandings(result: RaceResult, limit = result.standings.length): string {
  const rows = [' pos   car  laps   best lap   distance (m)  top (km/h)']
  for (const s of result.standings.slice(0, limit)) {
    rows.push(`${String(s.position).padStart(4)}  ${String(s.car).padStart(4)}  ${String(s.laps).padStart(4)}  ${lapTime(s.bestLap).padStart(9)}  ${s.distance.toFixed(1).padStart(13)}  ${(s.maxSpeed * 3.6).toFixed(0).padStart(10)}`)
  }
  if (limit < result.standings.length) rows.push(`  … ${result.standings.length - limit} more`)
  rows.push(`${result.standings.length} cars, ${result.seconds.toFixed(0)} s raced (${result.steps} steps of 1/60 s), lap ${result.lapLength.toFixed(0)} m; sim cost ${result.msPerStep.toFixed(3)} ms per step (${result.cpuMsPerStep.toFixed(3)} ms CPU)`)
  return rows.join('\n')
}

/** The CLI's usage text (`--help`). */
export const RACE_USAGE = `usage: npm run race -- [--cars N] [--seconds S] [--seed K] [--level full|singleTrack|lod] [--top N]

Races path-driven cars on the built-in circuit headless and prints the standings.
  --cars N      cars on the grid, 1 to 5000 (default 200)
  --seconds S   sim seconds to race, > 0 (default 120)
  --seed K      seed of the field's speeds and lines, an integer (default 1)
  --level L     full, singleTrack or lod (default lod: LOD around the first car)
  --top N       rows of the standings to print, >= 1 (default 20)
  --help        this text`

/** Parsed command line: the race options, the rows to print, or a request for the usage text. */
export type RaceArgs = RaceOptions & { top?: number; help?: boolean }

/**
 * Parses `--cars N --seconds S --seed K --level full|singleTrack|lod --top N` (or `--help`) and
 * checks the values; throws a RangeError naming the flag on a bad one.
 */
export function parseRaceArgs(argv: readonly string[]): RaceArgs {
  const out: RaceArgs = {}
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = argv[i + 1]
    const num = () => {
      const v = Number(value)
      if (value === undefined || value.trim() === '' || !Number.isFinite(v)) throw new RangeError(`${flag} needs a number, got ${value ?? 'nothing'}`)
      i++
      return v
    }
    if (flag === '--help' || flag === '-h') out.help = true
    else if (flag === '--cars') out.cars = num()
    else if (flag === '--seconds') out.seconds = num()
    else if (flag === '--seed') out.seed = num()
    else if (flag === '--top') out.top = num()
    else if (flag === '--level') {
      if (value !== 'full' && value !== 'singleTrack' && value !== 'lod') throw new RangeError(`--level must be full, singleTrack or lod, got ${value ?? 'nothing'}`)
      out.level = value
      i++
    } else throw new RangeError(`unknown flag ${flag} (see --help)`)
  }
  try {
    checkRaceOptions(out)
  } catch (e) {
    throw new RangeError(`--${(e as Error).message}`)
  }
  if (out.top !== undefined && !(Number.isInteger(out.top) && out.top >= 1)) throw new RangeError(`--top must be an integer >= 1, got ${out.top}`)
  return out
}

/** Where the CLI writes: the standings to `out`, the progress and errors to `err`. */
export interface RaceCliIo {
  out: { write(text: string): unknown }
  err: { write(text: string): unknown; isTTY?: boolean }
}

/**
 * The race CLI: parses `argv`, races, prints; returns the exit code: 0 done (or --help), 2 a bad
 * command line (one line on `err`, no stack), 1 a failure while racing.
 */
export function raceCli(argv: readonly string[], io: RaceCliIo): number {
  let options: RaceArgs
  try {
    options = parseRaceArgs(argv)
  } catch (e) {
    io.err.write(`pitlane race: ${(e as Error).message}\n`)
    return 2
  }
  if (options.help) { io.out.write(`${RACE_USAGE}\n`); return 0 }
  const tty = io.err.isTTY === true
  const bar = (f: number) => {
    const width = 40, full = Math.round(f * width)
    io.err.write(`\r  racing [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(f * 100).toFixed(0).padStart(3)}%`)
  }
  const { top, help: _help, ...race } = options
  io.err.write(`pitlane race: ${race.cars ?? 200} cars, ${race.seconds ?? 120} s, seed ${race.seed ?? 1}\n`)
  try {
    const result = runRace(tty ? { ...race, onProgress: bar } : race)
    if (tty) io.err.write('\n')
    io.out.write(formatStandings(result, top ?? 20) + '\n')
    return 0
  } catch (e) {
    io.err.write(`${tty ? '\n' : ''}pitlane race failed: ${(e as Error).message}\n`)
    return 1
  }
}
