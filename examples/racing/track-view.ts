/** Draws the circuit's ground (grass, gravel, tarmac, kerbs, start line) once, in world metres. */
import { Graphics } from 'pixi.js'
import { type Track } from '../track'

/** Grass: also the page's background colour, so it reaches every edge of the view. */
export const GRASS = 0x3d7a36
const GRAVEL = 0xcdb68a
const TARMAC = 0x4a4d52
const KERB_RED = 0xd23b33
const KERB_WHITE = 0xf2f2f2
const LINE = 0xe8e8e8

/** A static Graphics of the track's surfaces; the world container flips y so these are world coordinates. */
export function drawTrack(track: Track): Graphics {
  const g = new Graphics()
  const { centre, count, tangent, halfWidth: hw, kerbWidth: kw, curvature, kerb } = track
  // edge(i, d): the point d m to the left of centreline point i.
  const ex = (i: number, d: number) => centre[2 * (i % count)] - tangent[2 * (i % count) + 1] * d
  const ey = (i: number, d: number) => centre[2 * (i % count) + 1] + tangent[2 * (i % count)] * d
  const quad = (i: number, d0: number, d1: number, color: number) => {
    g.poly([ex(i, d0), ey(i, d0), ex(i + 1, d0), ey(i + 1, d0), ex(i + 1, d1), ey(i + 1, d1), ex(i, d1), ey(i, d1)]).fill(color)
  }
  // Gravel on the outside of corners (the same rule as the surface raster).
  for (let i = 0; i < count; i++) {
    if (Math.abs(curvature[i]) <= 1 / 150) continue
    const side = curvature[i] > 0 ? -1 : 1
    quad(i, side * (hw + kw * 0.5), side * (hw + 12), GRAVEL)
  }
  // Tarmac in strips of 32 segments (left edge forward, right edge back): robust to the lap's winding.
  for (let s = 0; s < count; s += 32) {
    const pts: number[] = []
    const end = Math.min(count, s + 32)
    for (let i = s; i <= end; i++) pts.push(ex(i, hw), ey(i, hw))
    for (let i = end; i >= s; i--) pts.push(ex(i, -hw), ey(i, -hw))
    g.poly(pts).fill(TARMAC)
  }
  // Kerbs: red and white blocks of two segments at corners; a thin white line elsewhere.
  for (let i = 0; i < count; i++) {
    if (kerb[i]) {
      const color = (i >> 1) & 1 ? KERB_RED : KERB_WHITE
      quad(i, hw, hw + kw, color)
      quad(i, -hw, -hw - kw, color)
    } else {
      quad(i, hw - 0.5, hw - 0.2, LINE)
      quad(i, -hw + 0.5, -hw + 0.2, LINE)
    }
  }
  // Chequered start/finish line across the track at s = 0.
  const cells = 14, cw = (2 * hw) / cells, tx = tangent[0], ty = tangent[1]
  for (let r = 0; r < 2; r++) {
    for (let c = 0; c < cells; c++) {
      const d0 = -hw + c * cw, d1 = d0 + cw, a0 = r * cw, a1 = a0 + cw
      const px = (a: number, d: number) => centre[0] + tx * a - ty * d
      const py = (a: number, d: number) => centre[1] + ty * a + tx * d
      g.poly([px(a0, d0), py(a0, d0), px(a1, d0), py(a1, d0), px(a1, d1), py(a1, d1), px(a0, d1), py(a0, d1)]).fill((r + c) & 1 ? 0x111111 : 0xffffff)
    }
  }
  return g
}
