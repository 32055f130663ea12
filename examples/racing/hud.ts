/** The HUD: a text panel (fps, sim cost, LOD counts, speed, gear, rpm, laps) and a speed trace of the last lap. */

/** What the HUD shows, filled in by the demo each frame. */
export interface HudData {
  fps: number
  simMs: number
  steps: number
  levels: [number, number, number]
  speed: number
  gear: number
  rpm: number
  lap: number
  currentLap: number
  lastLap: number
  bestLap: number
  lapTimes: readonly number[]
  lidarPoints: number
  following: string
}

/** The HUD's panel and trace; `sample` records the player's speed, `render` redraws (a few times a second). */
export interface Hud {
  /** Records a speed sample (m/s) at `t` s into the current lap; a new lap starts when `lap` changes or `t` goes back. */
  sample(lap: number, t: number, speed: number): void
  /** Redraws the panel and the trace. */
  render(d: HudData): void
}

const fmt = (t: number) => (Number.isFinite(t) ? `${Math.floor(t / 60)}:${(t % 60).toFixed(2).padStart(5, '0')}` : '–')

/** Binds the HUD to the page's #hud panel and #trace canvas. */
export function createHud(panel: HTMLElement, trace: HTMLCanvasElement): Hud {
  const ctx = trace.getContext('2d')!
  let current: number[] = [], last: number[] = [], lap = -1, lastT = -Infinity
  return {
    sample(l, t, speed) {
      if (!Number.isFinite(t)) return
      if (l !== lap || t < lastT) { if (lap >= 0 && current.length) last = current; current = []; lap = l }
      lastT = t
      // one point per 0.1 s is plenty for a 280 px plot
      if (current.length === 0 || t - current[current.length - 2] >= 0.1) current.push(t, speed * 3.6)
    },
    render(d) {
      const times = d.lapTimes.slice(-3).map(fmt).join('  ')
      panel.textContent =
        `fps ${d.fps.toFixed(0).padStart(3)}   sim ${d.simMs.toFixed(2)} ms/step   steps ${d.steps}\n` +
        `cars  full ${d.levels[0]}  single-track ${d.levels[1]}  frozen ${d.levels[2]}\n` +
        `speed ${(d.speed * 3.6).toFixed(0).padStart(3)} km/h   gear ${d.gear < 0 ? 'R' : d.gear === 0 ? 'N' : d.gear}   ${d.rpm.toFixed(0).padStart(4)} rpm\n` +
        `lap ${d.lap + 1}  ${fmt(d.currentLap)}   last ${fmt(d.lastLap)}   best ${fmt(d.bestLap)}\n` +
        `laps  ${times || '–'}\n` +
        `lidar ${d.lidarPoints} points   camera: ${d.following}`
      const w = trace.width, h = trace.height
      ctx.clearRect(0, 0, w, h)
      ctx.strokeStyle = 'rgba(255,255,255,0.15)'
      ctx.beginPath()
      for (let v = 50; v < 250; v += 50) { const y = h - (v / 250) * h; ctx.moveTo(0, y); ctx.lineTo(w, y) }
      ctx.stroke()
      const span = Math.max(30, last.length ? last[last.length - 2] : 0, current.length ? current[current.length - 2] : 0)
      const plot = (pts: number[], color: string) => {
        ctx.strokeStyle = color
        ctx.lineWidth = 1.5
        ctx.beginPath()
        for (let i = 0; i < pts.length; i += 2) {
          const x = (pts[i] / span) * w, y = h - (Math.min(250, pts[i + 1]) / 250) * h
          if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y)
        }
        ctx.stroke()
      }
      plot(last, '#9aa4b2')
      plot(current, '#facc15')
    },
  }
}
