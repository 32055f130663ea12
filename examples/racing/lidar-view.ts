/**
 * The player's lidar points in the game view: each hit point of the latest scan, placed in the
 * world from the sensor's pose, coloured by its return intensity (bright returns warm, faint ones
 * cool) when the lidar reports intensities, else by range (near warm, far cool). The points are one
 * flat-coloured point list (a vertex each, no texture: flat-mesh.ts), its buffers made once and
 * rewritten and uploaded once per new scan (a lidar scans at its own rate), not every frame; only
 * the points in the view are drawn, and of points that would overlap on screen only one.
 */
import { Container, Mesh, type Geometry, type Shader } from 'pixi.js'
import type { Sim } from '../../src/index'
import { flatGeometry, flatShader, rgba } from './flat-mesh'

/** The lidar point layer. */
export interface LidarView {
  readonly layer: Container
  /** Sets the points' size for a view of `pxPerM` screen pixels per metre. */
  scale(pxPerM: number): void
  /**
   * Draws the latest scan of `lidar` when it is a new one, where it was measured, keeping the
   * points in the view: within `halfWidth` and `halfHeight` m of (cx, cy) along the screen's axes,
   * the screen turned `rotation` rad; returns the points drawn.
   */
  update(lidar: number, cx: number, cy: number, halfWidth: number, halfHeight: number, rotation: number): number
}

/** An intensity drawn at the warm end of the palette (a bright painted barrier face on). */
const BRIGHT = 0.5

/** A palette from near (yellow-white) through orange and magenta to far (blue), 0xRRGGBB by t in [0, 1]. */
const STOPS = [0xfff3b0, 0xffb020, 0xff4a6e, 0xb44cff, 0x3d7bff]
function palette(t: number): number {
  const x = Math.max(0, Math.min(0.9999, t)) * (STOPS.length - 1)
  const i = Math.floor(x), f = x - i, a = STOPS[i]!, b = STOPS[i + 1]!
  const ch = (s: number) => Math.round(((a >> s) & 255) + (((b >> s) & 255) - ((a >> s) & 255)) * f)
  return (ch(16) << 16) | (ch(8) << 8) | ch(0)
}

/**
 * Cells per side of the grid that keeps one point per cell (a power of two): a point hides one
 * already drawn in its cell only if the two are a whole grid apart, further than the view reaches.
 */
const GRID = 1024

/** A lidar view drawing at most `max` points, `size` m square each (at least a pixel and a half). */
export function createLidarView(sim: Sim, max = 30000, size = 0.3): LidarView {
  const xy = new Float32Array(2 * max), rgbaOf = new Uint32Array(max)
  const geometry = flatGeometry(xy, rgbaOf, Uint32Array.from({ length: max }, (_, i) => i), 'point-list', true)
  const shader = flatShader()
  const points = new Mesh<Geometry, Shader>({ geometry, shader, label: 'lidar points' })
  points.visible = false
  const layer = new Container({ label: 'lidar' })
  layer.addChild(points)
  const positions = geometry.getBuffer('aPosition'), colorBuffer = geometry.getBuffer('aColor')
  const colors = new Uint32Array(256)
  for (let i = 0; i < 256; i++) colors[i] = rgba(palette(i / 255))
  let drawn = 0, pointM = size
  // the scan stamped in each cell of the point grid: a point whose cell holds this scan's stamp
  // would be drawn over one already there (the inner rings of a spinning lidar are dense)
  const stamps = new Uint32Array(GRID * GRID)
  let stamp = 0
  const { Lidar } = sim.components
  // the scan last drawn, by its count and a few of its ranges
  let drawnCount = -1, drawnFirst = NaN, drawnMid = NaN, drawnLast = NaN
  return {
    layer,
    scale(pxPerM) {
      const px = Math.max(1.5, size * pxPerM)
      shader.setPointSize(px)
      pointM = px / pxPerM
    },
    update(lidar, cx, cy, halfWidth, halfHeight, rotation) {
      const scan = sim.lidarScan(lidar)
      const c = scan.count, dist = scan.distances
      if (c === drawnCount && (c === 0 || (dist[0] === drawnFirst && dist[c >> 1] === drawnMid && dist[c - 1] === drawnLast))) return drawn
      drawnCount = c
      drawnFirst = dist[0]!; drawnMid = dist[c >> 1]!; drawnLast = dist[c - 1]!
      const P = Lidar.pose, k = lidar * 9, O = Lidar.origin, q = lidar * 3
      const range = Lidar.rangeMax[lidar] || 1
      const intensities = scan.intensities ?? null
      const n = Math.min(c, max), cos = Math.cos(rotation), sin = Math.sin(rotation)
      // points closer than about their own size merge on screen: one a cell is drawn
      const cell = 1 / (0.5 * pointM)
      stamp = stamp === 0xffffffff ? 1 : stamp + 1
      let m = 0
      for (let i = 0; i < n; i++) {
        const x = scan.points[3 * i]!, y = scan.points[3 * i + 1]!, z = scan.points[3 * i + 2]!
        const wx = P[k]! * x + P[k + 1]! * y + P[k + 2]! * z + O[q]!
        const wy = P[k + 3]! * x + P[k + 4]! * y + P[k + 5]! * z + O[q + 1]!
        const dx = wx - cx, dy = wy - cy
        if (Math.abs(cos * dx + sin * dy) > halfWidth || Math.abs(sin * dx - cos * dy) > halfHeight) continue // off screen
        const key = (Math.floor(wx * cell) & (GRID - 1)) | ((Math.floor(wy * cell) & (GRID - 1)) * GRID)
        if (stamps[key] === stamp) continue
        stamps[key] = stamp
        xy[2 * m] = wx
        xy[2 * m + 1] = wy
        // intensity (0..1) or range on a square-root scale: most points are faint or near, and that is where detail matters
        const t = intensities ? 1 - Math.min(1, intensities[i]! / BRIGHT) : dist[i]! / range
        rgbaOf[m++] = colors[Math.min(255, Math.floor(Math.sqrt(Math.max(0, t)) * 255))]!
      }
      // the mesh draws the first m indices (0 would mean all of them: hidden instead)
      geometry.indexCount = m
      points.visible = m > 0
      if (m > 0) { positions.update(8 * m); colorBuffer.update(4 * m) }
      drawn = m
      return m
    },
  }
}
