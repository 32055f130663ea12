/**
 * The minimap: a HUD canvas of its own (2D, over the game's WebGL canvas) with the circuit drawn
 * once into an offscreen canvas and a dot per car drawn over it each frame (the player's larger,
 * ringed). It costs the WebGL rasteriser nothing: under software GL every shaded pixel counts, and
 * the browser's 2D canvas draws a few hundred pixels of dots for less.
 */
import type { Sim } from '../../src/index'
import type { Track } from '../track'

/** The minimap's per-frame update. */
export interface Minimap {
  /** Draws every car's dot at its position. */
  update(): void
}

/** `0xRRGGBB` as a CSS colour. */
const css = (color: number) => `#${color.toString(16).padStart(6, '0')}`

/** Draws a minimap `size` px across into `canvas` for `cars` with their livery `colors`; `player` is drawn larger. */
export function createMinimap(sim: Sim, canvas: HTMLCanvasElement, track: Track, cars: readonly number[], colors: readonly number[], player: number, size = 200): Minimap {
  const c = track.centre
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity
  for (let i = 0; i < track.count; i++) {
    minX = Math.min(minX, c[2 * i]!); maxX = Math.max(maxX, c[2 * i]!)
    minY = Math.min(minY, c[2 * i + 1]!); maxY = Math.max(maxY, c[2 * i + 1]!)
  }
  const pad = 12
  const scale = (size - 2 * pad) / Math.max(maxX - minX, maxY - minY)
  const w = Math.round((maxX - minX) * scale + 2 * pad), h = Math.round((maxY - minY) * scale + 2 * pad)
  // world (x, y up) → map pixels (y down)
  const mx = (x: number) => pad + (x - minX) * scale
  const my = (y: number) => h - pad - (y - minY) * scale
  const dpr = Math.min(2, window.devicePixelRatio || 1)
  canvas.width = Math.round(w * dpr)
  canvas.height = Math.round(h * dpr)
  canvas.style.width = `${w}px`
  canvas.style.height = `${h}px`
  // the circuit, once
  const map = document.createElement('canvas')
  map.width = canvas.width
  map.height = canvas.height
  const m = map.getContext('2d')!
  m.scale(dpr, dpr)
  m.lineJoin = 'round'
  const line = () => {
    m.beginPath()
    m.moveTo(mx(c[0]!), my(c[1]!))
    for (let i = 1; i < track.count; i++) m.lineTo(mx(c[2 * i]!), my(c[2 * i + 1]!))
    m.closePath()
  }
  line(); m.lineWidth = 7; m.strokeStyle = '#1c2027'; m.stroke()
  line(); m.lineWidth = 4; m.strokeStyle = '#8b9099'; m.stroke()
  // the start line, across the track
  const tx = track.tangent[0]!, ty = track.tangent[1]!
  m.beginPath()
  m.moveTo(mx(c[0]! - ty * 12), my(c[1]! + tx * 12))
  m.lineTo(mx(c[0]! + ty * 12), my(c[1]! - tx * 12))
  m.lineWidth = 2; m.strokeStyle = '#ffffff'; m.stroke()

  const g = canvas.getContext('2d')!
  g.scale(dpr, dpr)
  const fills = colors.map(css)
  const you = cars.indexOf(player)
  const { Car } = sim.components
  const dot = (x: number, y: number, r: number, fill: string) => {
    g.beginPath()
    g.arc(x, y, r, 0, 2 * Math.PI)
    g.fillStyle = fill
    g.fill()
  }
  return {
    update() {
      g.clearRect(0, 0, w, h)
      g.drawImage(map, 0, 0, w, h)
      // the others first, then the player ringed in white on top of every dot
      for (let i = 0; i < cars.length; i++) if (i !== you) dot(mx(Car.x[cars[i]!]!), my(Car.y[cars[i]!]!), 2.5, fills[i]!)
      if (you >= 0) {
        const x = mx(Car.x[player]!), y = my(Car.y[player]!)
        dot(x, y, 6.5, '#ffffff')
        dot(x, y, 4.5, fills[you]!)
      }
    },
  }
}
