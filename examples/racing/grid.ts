/**
 * The starting grid: the player and the AI field on two staggered columns behind the start line,
 * each car with a definition (hatchbacks, sports cars, the odd van; every gearbox automatic), a number, a three-letter
 * name, a livery and the driver settings it races with once the lights go out.
 */
import { presets, type CarDefinition, type Sim } from '../../src/index'
import { trackPoint, type Track } from '../track'

/** One entrant of the race. */
export interface Entrant {
  car: number
  /** Race number shown on the roof. */
  number: number
  /** Three-letter name shown in the standings. */
  name: string
  /** Livery: body colour and stripe colour (0xRRGGBB). */
  color: number
  stripe: number
  /** True for the player's car. */
  player: boolean
  /** Driver settings used from the start (AI cars only). */
  maxSpeed: number
  lateralAccel: number
  lateralOffset: number
}

/** Options of placeGrid. */
export interface GridOptions {
  /** AI cars besides the player. */
  cars: number
  /** Seed of the grid order, definitions and driver settings. */
  seed: number
  /** The player's grid slot (0 = pole), clamped to the field. */
  playerSlot?: number
}

const NAMES = ['ALO', 'BRA', 'CAS', 'DUV', 'ELM', 'FOX', 'GRA', 'HAK', 'IVO', 'JAN', 'KOV', 'LAR', 'MOR', 'NAV', 'ORT', 'PIK', 'QUI', 'ROS', 'SAN', 'TAN', 'ULM', 'VAS', 'WEB', 'XAV', 'YAN', 'ZOL']
/** The player's livery: the pink the demo always had. */
const PLAYER_COLOR = 0xff4fd8
/** Metres between grid rows, and from the line to the first row. */
const ROW = 8
const FIRST_ROW = 6

/** A small seeded generator (mulberry32): the same seed gives the same grid. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * `definition` with its gearbox made automatic (same ratios and shift points): the path-following
 * driver leaves the gearbox to its user, and neither it nor a keyboard player shifts a manual box.
 */
function automatic(definition: CarDefinition): CarDefinition {
  return { ...definition, name: `${definition.name} (automatic)`, gearbox: { ...definition.gearbox, automatic: true } }
}
const SPORTS = automatic(presets.sportsCar), VAN = automatic(presets.van), HATCH = presets.hatchback

/** HSL (0..1) to 0xRRGGBB. */
function hsl(h: number, s: number, l: number): number {
  const f = (n: number) => {
    const k = (n + h * 12) % 12
    const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1))
    return Math.round(c * 255)
  }
  return (f(0) << 16) | (f(8) << 8) | f(4)
}

/** Arc length (m, negative: behind the line) and lateral offset of grid slot `i`. */
export function gridSlot(i: number): { s: number; lateral: number } {
  // Staggered: the right-hand column sits half a row back, as on a real grid.
  return { s: -FIRST_ROW - ROW * Math.floor(i / 2) - (i % 2) * ROW * 0.5, lateral: i % 2 === 0 ? 2.6 : -2.6 }
}

/** Adds the player and `cars` AI cars to `sim` on the grid, standing, in gear, brakes on. */
export function placeGrid(sim: Sim, track: Track, options: GridOptions): Entrant[] {
  const random = seeded(options.seed)
  const total = options.cars + 1
  const playerSlot = Math.max(0, Math.min(total - 1, options.playerSlot ?? 7))
  const lanes = [-4.5, -3, -1.5, 0, 1.5, 3, 4.5]
  const out: Entrant[] = []
  for (let slot = 0; slot < total; slot++) {
    const player = slot === playerSlot
    const pick = random()
    const definition = player ? SPORTS : pick < 0.5 ? HATCH : pick < 0.88 ? SPORTS : VAN
    const { s, lateral } = gridSlot(slot)
    const p = trackPoint(track, s, lateral)
    const car = sim.addCar({ definition, position: [p.x, p.y], heading: p.heading, speed: 0 })
    sim.setInput(car, { gear: 1, brake: 1 })
    const n = out.length + 1
    const hue = (n * 0.61803398875) % 1
    const color = player ? PLAYER_COLOR : hsl(hue, 0.62 + 0.3 * random(), 0.42 + 0.16 * random())
    const stripe = random() < 0.5 ? 0xf5f5f5 : hsl((hue + 0.5) % 1, 0.8, 0.55)
    out.push({
      car, number: n, name: player ? 'YOU' : NAMES[(n * 7) % NAMES.length]!,
      color, stripe, player,
      maxSpeed: 26 + 18 * random(),
      lateralAccel: 5.5 + 3 * random(),
      lateralOffset: lanes[Math.floor(random() * lanes.length)]!,
    })
  }
  return out
}
