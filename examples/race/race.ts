/**
 * The headless race: a grid of path-driven cars on the built-in circuit, run for a number of sim
 * seconds at a 60 Hz host step, timed by the lap-timer mod and slipstreaming by the slipstream mod.
 * Returns the standings and the sim cost per step. Deterministic: the same options give the same
 * standings, bit for bit (the seed sets the drivers' speeds and lines; timing is not part of it).
 */
import { createWorld } from 'bitecs'
import { createSim, LodController } from '../../src/index'
import { createTrack, type Track } from '../track'
import { addCircuit, addField, trackSurfaces } from './field'
import { addLapTimer } from '../modding/lap-timer'
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

/** Runs a race (see RaceOptions) and returns the standings, best first. */
export function runRace(options: RaceOptions = {}): RaceResult {
  const cars = options.cars ?? 200
  const seconds = options.seconds ?? 120
  const seed = options.seed ?? 1
  if (!Number.isInteger(cars) || cars < 1 || cars > 5000) throw new RangeError(`cars must be an integer in [1, 5000], got ${cars}`)
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) throw new RangeError(`seconds must be finite and > 0, got ${seconds}`)
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`)
  const track = options.track ?? createTrack()
  const sim = createSim(createWorld(), { surfaces: trackSurfaces(track) })
  addCircuit(sim, track)
  const field = addField(sim, track, { cars, seed, layout: 'grid' })
  const level = options.level ?? 'lod'
  if (level !== 'full') for (const f of field) sim.setLod(f.car, 'singleTrack', 240)
  if (level === 'lod') new LodController(sim, { singleTrackBeyond: 0, pathBeyond: 300, frozenBeyond: Infinity, singleTrackHz: 240 }).install({ focus: field[0].car })
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

/** Parses `--cars N --seconds S --seed K --level full|singleTrack|lod` (and `--top N`); throws a RangeError on a bad flag. */
export function parseRaceArgs(argv: readonly string[]): RaceOptions & { top?: number } {
  const out: RaceOptions & { top?: number } = {}
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = argv[i + 1]
    const num = () => {
      const v = Number(value)
      if (value === undefined || !Number.isFinite(v)) throw new RangeError(`${flag} needs a number, got ${value ?? 'nothing'}`)
      i++
      return v
    }
    if (flag === '--cars') out.cars = num()
    else if (flag === '--seconds') out.seconds = num()
    else if (flag === '--seed') out.seed = num()
    else if (flag === '--top') out.top = num()
    else if (flag === '--level') {
      if (value !== 'full' && value !== 'singleTrack' && value !== 'lod') throw new RangeError(`--level must be full, singleTrack or lod, got ${value ?? 'nothing'}`)
      out.level = value
      i++
    } else throw new RangeError(`unknown flag ${flag} (use --cars N --seconds S --seed K --level full|singleTrack|lod --top N)`)
  }
  return out
}
