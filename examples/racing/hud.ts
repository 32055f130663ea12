/**
 * The HUD, in HTML over the canvas: the standings tower, start lights, the player's lap box and
 * speedometer, the performance line (frame time split into sim and render), and the results card.
 * Text is rewritten only when it changes.
 */
import type { Entrant } from './grid'
import type { Race, Standing } from './race'

/** Formats seconds as m:ss.sss (or ss.sss under a minute); '–' when there is none. */
export function lapTime(t: number | null): string {
  if (t === null || !Number.isFinite(t)) return '–'
  const m = Math.floor(t / 60), s = t - 60 * m
  return m > 0 ? `${m}:${s.toFixed(3).padStart(6, '0')}` : s.toFixed(3)
}

const hex = (c: number) => `#${c.toString(16).padStart(6, '0')}`

/** What the performance line shows. */
export interface PerfData {
  fps: number
  /** Mean sim and render time per frame, ms. */
  simMs: number
  renderMs: number
  /** Cars at each level: full, single-track, path, frozen. */
  levels: [number, number, number, number]
  lidarPoints: number | null
  /** The canvas resolution scale, and whether it follows the frame rate. */
  resolution: number
  autoResolution: boolean
  device: string
  camera: string
}

/** The HUD's elements and their updates. */
export interface Hud {
  /** Redraws the tower, lap box and lights from the race. */
  race(race: Race, standings: readonly Standing[], player: number): void
  /** The speedometer: speed (m/s), gear, engine rpm and its limiter. */
  speedo(speed: number, gear: number, rpm: number, maxRpm: number): void
  /** The performance line. */
  perf(p: PerfData): void
  /** Fills and shows the results card. */
  results(standings: readonly Standing[], player: number): void
  /** Back to the grid's HUD for a new race: the results card hidden, the GO! banner due again. */
  reset(): void
}

/** Binds the HUD to the page's elements for `entrants`. */
export function createHud(entrants: readonly Entrant[]): Hud {
  const $ = (id: string) => document.getElementById(id)!
  const byCar = new Map(entrants.map((e) => [e.car, e]))
  const set = (el: HTMLElement, text: string) => { if (el.textContent !== text) el.textContent = text }
  const tower = $('tower-rows'), towerLap = $('tower-lap'), laps = $('laps'), lights = $('lights'), banner = $('banner')
  const bulbs = Array.from(lights.querySelectorAll('i'))
  const speedEl = $('speed'), gearEl = $('gear'), rpmEl = $('rpm'), perfEl = $('perf')
  const ROWS = 12
  // the tower's rows are made once; a race update rewrites their text only
  const rows: { row: HTMLElement; pos: HTMLElement; sw: HTMLElement; num: HTMLElement; name: HTMLElement; best: HTMLElement; gap: HTMLElement; color: number }[] = []
  for (let i = 0; i < ROWS + 1; i++) {
    const row = document.createElement('div')
    row.className = 'row'
    const cell = (cls: string) => { const c = document.createElement('span'); c.className = cls; row.appendChild(c); return c }
    rows.push({ row, pos: cell('pos'), sw: cell('sw'), num: cell('num'), name: cell('name'), best: cell('best'), gap: cell('gap'), color: -1 })
    tower.appendChild(row)
  }
  let lastPerf = '', lapsHtml = ''
  let bannerUntil = 0
  return {
    race(race, standings, player) {
      const leader = standings[0]
      set(towerLap, race.phase === 'grid' || race.phase === 'lights' ? 'GRID' : race.phase === 'finished' ? 'FINISH' : `LAP ${Math.min(race.laps, (leader?.laps ?? 0) + 1)}/${race.laps}`)
      const mine = standings.findIndex((s) => s.car === player)
      // the top of the field, and the player's row at the bottom when they are further back
      const shown: number[] = []
      for (let i = 0; i < Math.min(ROWS, standings.length); i++) shown.push(i)
      if (mine >= ROWS) shown[ROWS - 1] = mine
      rows.forEach((r, k) => {
        const i = shown[k]
        r.row.hidden = i === undefined
        if (i === undefined) return
        const s = standings[i]!, e = byCar.get(s.car)!
        r.row.classList.toggle('you', s.car === player)
        r.row.classList.toggle('gap-above', k > 0 && i !== shown[k - 1]! + 1)
        set(r.pos, String(s.position))
        if (r.color !== e.color) { r.color = e.color; r.sw.style.background = hex(e.color) }
        set(r.num, `#${e.number}`)
        set(r.name, e.name)
        set(r.best, lapTime(s.bestLap))
        const gap = s.finished && i === 0 ? 'FLAG' : i === 0 ? (race.phase === 'racing' ? 'LEADER' : '') : s.lapsDown > 0 ? `+${s.lapsDown} lap${s.lapsDown > 1 ? 's' : ''}` : s.gap === null ? '' : `+${s.gap.toFixed(1)}`
        set(r.gap, gap)
      })
      const me = standings[mine]
      if (me) {
        const lap = Math.min(race.laps, me.laps + 1)
        const html = `<div class="big">P${me.position}<span style="font-size:14px;color:#aab4c3"> / ${standings.length}</span></div>` +
          `<div><span class="k">lap</span>${race.phase === 'racing' || race.phase === 'finished' ? `${lap} / ${race.laps}` : `– / ${race.laps}`}</div>` +
          `<div><span class="k">time</span>${lapTime(race.raceTime())}</div>` +
          `<div><span class="k">last</span>${lapTime(me.lastLap)}</div>` +
          `<div><span class="k">best</span>${lapTime(me.bestLap)}</div>`
        if (html !== lapsHtml) laps.innerHTML = lapsHtml = html
      }
      const n = race.lights
      lights.hidden = !(race.phase === 'grid' || race.phase === 'lights')
      bulbs.forEach((b, i) => b.classList.toggle('on', i < n))
      const now = performance.now()
      if (race.phase === 'racing' && bannerUntil === 0) bannerUntil = now + 1500
      set(banner, race.phase === 'grid' ? 'GET READY' : race.phase === 'racing' && now < bannerUntil ? 'GO!' : '')
    },
    speedo(speed, gear, rpm, maxRpm) {
      set(speedEl, String(Math.round(Math.abs(speed) * 3.6)))
      set(gearEl, gear < 0 ? 'R' : gear === 0 ? 'N' : String(gear))
      const width = `${Math.min(100, (100 * rpm) / maxRpm).toFixed(0)}%`
      if (rpmEl.style.width !== width) rpmEl.style.width = width
    },
    perf(p) {
      const lines = [
        `fps ${p.fps.toFixed(0).padStart(3)}   frame: sim ${p.simMs.toFixed(2)} ms + render ${p.renderMs.toFixed(2)} ms`,
        `resolution ${Math.round(p.resolution * 100)}%${p.autoResolution ? ' (auto)' : ''}`,
        `cars  full ${p.levels[0]}  single-track ${p.levels[1]}  path ${p.levels[2]}${p.levels[3] ? `  frozen ${p.levels[3]}` : ''}`,
        `${p.lidarPoints === null ? 'lidar off' : `lidar ${p.lidarPoints} points`}   input ${p.device}   camera ${p.camera}`,
      ]
      const text = lines.join('\n')
      if (text === lastPerf) return
      lastPerf = text
      perfEl.textContent = text
    },
    results(standings, player) {
      const body = document.querySelector('#results tbody')!
      body.textContent = ''
      const me = standings.find((s) => s.car === player)
      $('results-title').textContent = me?.finished ? `Results: you finished P${me.position}` : 'Results'
      for (const s of standings) {
        const e = byCar.get(s.car)!
        const tr = document.createElement('tr')
        if (s.car === player) tr.className = 'you'
        const time = s.finished ? (s.position === 1 ? lapTime(s.finishTime) : s.lapsDown > 0 ? `+${s.lapsDown} lap${s.lapsDown > 1 ? 's' : ''}` : `+${(s.finishTime! - standings[0]!.finishTime!).toFixed(3)}`) : 'DNF'
        tr.innerHTML = `<td>${s.position}</td><td class="l"><span style="display:inline-block;width:8px;height:12px;border-radius:2px;margin-right:6px;background:${hex(e.color)}"></span>#${e.number} ${e.name}</td><td>${s.laps}</td><td>${time}</td><td>${lapTime(s.bestLap)}</td>`
        body.appendChild(tr)
      }
      $('results').hidden = false
    },
    reset() {
      bannerUntil = 0
      $('results').hidden = true
    },
  }
}
