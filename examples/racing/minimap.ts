/** The minimap: the circuit drawn once into a texture, small, in a screen corner, with a dot sprite per car (the player's larger, ringed). */
import { Container, Graphics, Rectangle, Sprite, type Renderer, type Texture } from 'pixi.js'
import type { Sim } from '../../src/index'
import type { Track } from '../track'

/** The minimap's container (screen pixels) and its per-frame update. */
export interface Minimap {
  readonly container: Container
  /** Moves the dots to the cars' positions and the map to the top-right corner of a `width` px screen. */
  update(width: number): void
}

/** Builds a minimap `size` px across for `cars` with their livery `colors` (`renderer` draws its map once); `player` is drawn larger. */
export function createMinimap(sim: Sim, renderer: Renderer, track: Track, cars: readonly number[], colors: readonly number[], player: number, dot: Texture, size = 200): Minimap {
  const c = track.centre
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity
  for (let i = 0; i < track.count; i++) {
    minX = Math.min(minX, c[2 * i]); maxX = Math.max(maxX, c[2 * i])
    minY = Math.min(minY, c[2 * i + 1]); maxY = Math.max(maxY, c[2 * i + 1])
  }
  const pad = 12
  const scale = (size - 2 * pad) / Math.max(maxX - minX, maxY - minY)
  const w = (maxX - minX) * scale + 2 * pad, h = (maxY - minY) * scale + 2 * pad
  // world (x, y up) → map pixels (y down)
  const mx = (x: number) => pad + (x - minX) * scale
  const my = (y: number) => h - pad - (y - minY) * scale
  const container = new Container({ label: 'minimap' })
  const g = new Graphics()
  g.roundRect(0, 0, w, h, 8).fill({ color: 0x0a0e14, alpha: 0.62 })
  const line = () => {
    g.moveTo(mx(c[0]), my(c[1]))
    for (let i = 1; i < track.count; i++) g.lineTo(mx(c[2 * i]), my(c[2 * i + 1]))
    g.closePath()
  }
  line(); g.stroke({ width: 7, color: 0x1c2027, join: 'round' })
  line(); g.stroke({ width: 4, color: 0x8b9099, join: 'round' })
  // the start line, across the track
  const tx = track.tangent[0], ty = track.tangent[1]
  g.moveTo(mx(c[0] - ty * 12), my(c[1] + tx * 12)).lineTo(mx(c[0] + ty * 12), my(c[1] - tx * 12)).stroke({ width: 2, color: 0xffffff })
  // drawn once into a texture: the stroked line is thousands of small triangles (a software
  // rasteriser's worst case, every frame); as a texture it is one quad
  const map = new Sprite(renderer.generateTexture({ target: g, frame: new Rectangle(0, 0, w, h), resolution: 1 }))
  g.destroy()
  // a render group of its own, so the dots after it start a batch of their own: with one texture
  // per batch (main.ts), pixi's batcher draws every sprite after a mid-batch texture switch alone
  const mapLayer = new Container({ label: 'minimap map', isRenderGroup: true })
  mapLayer.addChild(map)
  container.addChild(mapLayer)
  const dots: Sprite[] = []
  const disc = (px: number, tint: number) => {
    const s = new Sprite(dot)
    s.anchor.set(0.5)
    s.width = s.height = px
    s.tint = tint
    return s
  }
  cars.forEach((car, i) => dots.push(disc(car === player ? 9 : 5, colors[i])))
  const you = cars.indexOf(player)
  const ring = disc(13, 0xffffff)
  // the others first, then the player ringed in white on top of every dot
  dots.forEach((s, i) => { if (i !== you) container.addChild(s) })
  if (you >= 0) container.addChild(ring, dots[you])
  else ring.visible = false
  const { Car } = sim.components
  return {
    container,
    update(width) {
      container.position.set(width - w - 10, 10)
      for (let i = 0; i < cars.length; i++) dots[i].position.set(mx(Car.x[cars[i]]), my(Car.y[cars[i]]))
      if (you >= 0) ring.position.copyFrom(dots[you].position)
    },
  }
}
