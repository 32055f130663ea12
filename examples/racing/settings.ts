/**
 * The demo's settings: read from the page URL (`?cars=40&lidar=0`), so a view can be shared, and
 * written back by the settings panel, which reloads the page with the new query.
 */

/** Camera modes: north-up following, or turning with the car (car-up). */
export type CameraMode = 'follow' | 'rotate'

/** The circuits: the built-in 2.6 km one, and a 0.7 km club circuit for short races. */
export type Circuit = 'gp' | 'club'

/** Control points of the club circuit (a closed spline through them, as examples/track.ts builds). */
export const CLUB_CIRCUIT: readonly (readonly [number, number])[] = [
  [0, 0], [130, 0], [185, 25], [195, 85], [150, 125], [70, 115], [20, 150], [-45, 130], [-70, 70], [-50, 15],
]

/** Every setting of the demo. */
export interface Settings {
  /** The circuit raced on. */
  track: Circuit
  /** AI cars on the grid besides the player. */
  cars: number
  /** Race length, laps. */
  laps: number
  /** LOD band edges, m from the camera: single-track beyond, path beyond, frozen beyond (Infinity: never). */
  singleTrackBeyond: number
  pathBeyond: number
  frozenBeyond: number
  /** The player's lidar scans and is drawn. */
  lidar: boolean
  /** Camera mode. */
  camera: CameraMode
  /** Base zoom, screen px per metre. */
  zoom: number
  /** The debug overlay is shown from the start. */
  debug: boolean
  /** Grid order and driver seed. */
  seed: number
  /** Sim seconds per real second (fast-forward: a short race for tests and replays of a long one). */
  speed: number
  /** Canvas pixels per screen pixel, or 'auto': lowered while the frame rate is under 57 fps, raised again when there is room (resolution.ts). */
  resolution: number | 'auto'
}

/** The defaults: a 100-car, five-lap race with the lidar on; far cars race on at the path level, none is frozen. */
export const DEFAULTS: Readonly<Settings> = Object.freeze({
  track: 'gp', cars: 100, laps: 5, singleTrackBeyond: 30, pathBeyond: 300, frozenBeyond: Infinity, lidar: true, camera: 'follow', zoom: 7, debug: false, seed: 7, speed: 1, resolution: 'auto',
})

/** URL parameter names of the settings. */
const KEYS: Record<keyof Settings, string> = {
  track: 'track', cars: 'cars', laps: 'laps', singleTrackBeyond: 'st', pathBeyond: 'path', frozenBeyond: 'frozen', lidar: 'lidar', camera: 'cam', zoom: 'zoom', debug: 'debug', seed: 'seed', speed: 'speed', resolution: 'res',
}

const clampInt = (v: string | null, lo: number, hi: number, fallback: number) => {
  const n = v === null ? NaN : Math.round(Number(v))
  return Number.isFinite(n) ? Math.max(lo, Math.min(hi, n)) : fallback
}
const clampNum = (v: string | null, lo: number, hi: number, fallback: number) => {
  const n = v === null ? NaN : Number(v)
  return Number.isFinite(n) ? Math.max(lo, Math.min(hi, n)) : fallback
}
/** A band edge that may be "never" (Infinity): empty, `never`, `inf` or `Infinity`. */
const edge = (v: string | null, lo: number, fallback: number) => {
  if (v !== null && /^(|never|inf|infinity)$/i.test(v.trim())) return Infinity
  return clampNum(v, lo, 100000, fallback)
}
/** A resolution scale in [0.25, 2], or 'auto' (missing, `auto` or malformed). */
const scale = (v: string | null): number | 'auto' => {
  const n = v === null || v.trim() === '' ? NaN : Number(v)
  return Number.isFinite(n) ? Math.max(0.25, Math.min(2, n)) : 'auto'
}
const flag = (v: string | null, fallback: boolean) => (v === null ? fallback : !(v === '0' || v === 'false' || v === 'off'))

/** Reads the settings from a query string; anything missing or malformed takes its default. */
export function readSettings(search: string): Settings {
  const q = new URLSearchParams(search)
  const d = DEFAULTS
  const singleTrackBeyond = clampNum(q.get(KEYS.singleTrackBeyond), 0, 5000, d.singleTrackBeyond)
  // the bands nest: single-track ≤ path ≤ frozen
  const pathBeyond = Math.max(singleTrackBeyond, edge(q.get(KEYS.pathBeyond), 0, d.pathBeyond))
  const cam = q.get(KEYS.camera)
  return {
    track: q.get(KEYS.track) === 'club' ? 'club' : d.track,
    cars: clampInt(q.get(KEYS.cars), 0, 200, d.cars),
    laps: clampInt(q.get(KEYS.laps), 1, 50, d.laps),
    singleTrackBeyond,
    pathBeyond,
    frozenBeyond: Math.max(pathBeyond, edge(q.get(KEYS.frozenBeyond), 0, d.frozenBeyond)),
    lidar: flag(q.get(KEYS.lidar), d.lidar),
    camera: cam === 'rotate' || cam === 'follow' ? cam : d.camera,
    zoom: clampNum(q.get(KEYS.zoom), 1, 30, d.zoom),
    debug: flag(q.get(KEYS.debug), d.debug),
    seed: clampInt(q.get(KEYS.seed), 0, 2 ** 31 - 1, d.seed),
    speed: clampNum(q.get(KEYS.speed), 0.25, 8, d.speed),
    resolution: scale(q.get(KEYS.resolution)),
  }
}

/** The query string of `s`, listing only what differs from the defaults (short, shareable URLs). */
export function settingsQuery(s: Settings): string {
  const q = new URLSearchParams()
  for (const key of Object.keys(KEYS) as (keyof Settings)[]) {
    const v = s[key]
    if (v === DEFAULTS[key]) continue
    q.set(KEYS[key], typeof v === 'boolean' ? (v ? '1' : '0') : v === Infinity ? 'never' : String(v))
  }
  const text = q.toString()
  return text ? `?${text}` : ''
}

/** The settings panel: a form over the settings; Apply loads the page with them in the URL. */
export interface SettingsPanel {
  /** Shows or hides the panel. */
  toggle(show?: boolean): void
  /** True while shown. */
  readonly open: boolean
}

/** Binds the panel markup in `root` (inputs named after the Settings keys) to `current`. */
export function createSettingsPanel(root: HTMLElement, current: Settings, onApply: (query: string) => void): SettingsPanel {
  const form = root.querySelector('form')!
  const field = (name: keyof Settings) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement
  const fill = () => {
    for (const key of Object.keys(KEYS) as (keyof Settings)[]) {
      const el = field(key)
      if (!el) continue
      const v = current[key]
      if (el instanceof HTMLInputElement && el.type === 'checkbox') el.checked = v as boolean
      else el.value = v === Infinity ? '' : String(v) // an empty band edge reads as never
    }
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    const next: Settings = { ...current }
    const read = (key: keyof Settings) => {
      const el = field(key)
      if (!el) return null
      return el instanceof HTMLInputElement && el.type === 'checkbox' ? (el.checked ? '1' : '0') : el.value
    }
    const q = new URLSearchParams()
    for (const key of Object.keys(KEYS) as (keyof Settings)[]) { const v = read(key); if (v !== null) q.set(KEYS[key], v) }
    // the form's values go through the same parser as a typed-in URL, so both clamp alike
    Object.assign(next, readSettings(`?${q.toString()}`))
    for (const key of Object.keys(KEYS) as (keyof Settings)[]) if (read(key) === null) (next as unknown as Record<string, unknown>)[key] = current[key]
    onApply(settingsQuery(next))
  })
  root.querySelector('[data-action=reset]')?.addEventListener('click', () => onApply(''))
  root.querySelector('[data-action=close]')?.addEventListener('click', () => panel.toggle(false))
  const panel: SettingsPanel = {
    get open() { return root.hidden !== true },
    toggle(show = root.hidden === true) {
      if (show) fill()
      root.hidden = !show
    },
  }
  return panel
}
