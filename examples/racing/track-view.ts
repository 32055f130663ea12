/**
 * The circuit drawn once, in world metres: gravel traps, tarmac, kerbs, edge lines, the
 * start line and grid boxes, then the barriers (red and white blocks with a shadow) and trees.
 * The surfaces and barriers are flat-coloured meshes (flat-mesh.ts): no texture to sample per pixel.
 */
import { Container, Particle, ParticleContainer, Rectangle, type Texture } from 'pixi.js'
import { BARRIER_GAP, projectOnTrack, trackPoint, type Track } from '../track'
import { FlatShapes } from './flat-mesh'

/** Grass: also the page's background colour, so it reaches every edge of the view. */
export const GRASS = 0x3d7a36
/** The circuit's other colours. */
const PAINT = { gravel: 0xcdb68a, tarmac: 0x4a4d52, line: 0xe8e8e8 } as const
/** Kerbs and barriers alternate red and white blocks. */
const KERB = [0xf2f2f2, 0xd23b33] as const
const BARRIER = [0xeeeeee, 0xc9302c] as const

/** Segments per drawn chunk: each chunk is culled on its own, so only the part on screen is drawn. */
const CHUNK = 32

/** The track's surfaces with `slots` grid boxes ({ s, lateral } behind the line), as culled flat-coloured chunks; the world container flips y. */
export function drawTrack(track: Track, slots: readonly { s: number; lateral: number }[]): Container {
  const root = new Container({ label: 'track' })
  const { centre, count, tangent, halfWidth: hw, kerbWidth: kw, curvature, kerb } = track
  // edge(i, d): the point d m to the left of centreline point i.
  const ex = (i: number, d: number) => centre[2 * (i % count)]! - tangent[2 * (i % count) + 1]! * d
  const ey = (i: number, d: number) => centre[2 * (i % count) + 1]! + tangent[2 * (i % count)]! * d
  for (let s = 0; s < count; s += CHUNK) {
    const g = new FlatShapes()
    const end = Math.min(count, s + CHUNK)
    const quad = (i: number, d0: number, d1: number, color: number) => {
      g.poly([ex(i, d0), ey(i, d0), ex(i + 1, d0), ey(i + 1, d0), ex(i + 1, d1), ey(i + 1, d1), ex(i, d1), ey(i, d1)], color)
    }
    // Gravel on the outside of corners (the same rule as the surface raster).
    for (let i = s; i < end; i++) {
      if (Math.abs(curvature[i]!) <= 1 / 150) continue
      const side = curvature[i]! > 0 ? -1 : 1
      quad(i, side * (hw + kw * 0.5), side * (hw + 12), PAINT.gravel)
    }
    // Tarmac as one strip between the edges.
    const left: number[] = [], right: number[] = []
    for (let i = s; i <= end; i++) { left.push(ex(i, hw), ey(i, hw)); right.push(ex(i, -hw), ey(i, -hw)) }
    g.strip(left, right, PAINT.tarmac)
    // Kerbs: red and white blocks of two segments at corners; a thin white line elsewhere.
    for (let i = s; i < end; i++) {
      if (kerb[i]) {
        const color = KERB[(i >> 1) & 1]!
        quad(i, hw, hw + kw, color)
        quad(i, -hw, -hw - kw, color)
      } else {
        quad(i, hw - 0.5, hw - 0.2, PAINT.line)
        quad(i, -hw + 0.5, -hw + 0.2, PAINT.line)
      }
    }
    root.addChild(g.mesh('track chunk'))
  }
  const marks = new FlatShapes()
  // Grid boxes: a white bar ahead of each slot and short marks down its sides.
  for (const slot of slots) {
    const f = trackPoint(track, slot.s + 2.8, slot.lateral)
    const fx = Math.cos(f.heading), fy = Math.sin(f.heading)
    const bar = (ax: number, ay: number, bx: number, by: number) => marks.line(ax, ay, bx, by, 0.2, PAINT.line)
    const lx = -fy * 1.3, ly = fx * 1.3
    bar(f.x - lx, f.y - ly, f.x + lx, f.y + ly)
    bar(f.x + lx, f.y + ly, f.x + lx - fx * 1.2, f.y + ly - fy * 1.2)
    bar(f.x - lx, f.y - ly, f.x - lx - fx * 1.2, f.y - ly - fy * 1.2)
  }
  // Chequered start/finish line across the track at s = 0.
  const cells = 14, cw = (2 * hw) / cells, tx = tangent[0]!, ty = tangent[1]!
  for (let r = 0; r < 2; r++) {
    for (let c = 0; c < cells; c++) {
      const d0 = -hw + c * cw, d1 = d0 + cw, a0 = r * cw, a1 = a0 + cw
      const px = (a: number, d: number) => centre[0]! + tx * a - ty * d
      const py = (a: number, d: number) => centre[1]! + ty * a + tx * d
      marks.poly([px(a0, d0), py(a0, d0), px(a1, d0), py(a1, d0), px(a1, d1), py(a1, d1), px(a0, d1), py(a0, d1)], (r + c) & 1 ? 0x111111 : 0xffffff)
    }
  }
  root.addChild(marks.mesh('grid and start line'))
  return root
}

/** The barriers as red and white blocks, outlined, on a soft shadow (the boxes the sim collides with), and the cones, in culled flat-coloured chunks. */
export function drawBarriers(track: Track): Container {
  const root = new Container({ label: 'barriers' })
  const box = (b: Track['barriers'][number], grow: number, dx: number, dy: number) => {
    const c = Math.cos(b.yaw), s = Math.sin(b.yaw), a = b.halfLength + grow, w = b.halfThickness + grow
    const x = b.x + dx, y = b.y + dy
    return [x + c * a - s * w, y + s * a + c * w, x - c * a - s * w, y - s * a + c * w, x - c * a + s * w, y - s * a - c * w, x + c * a + s * w, y + s * a - c * w]
  }
  // the barrier list runs along each side in order, so consecutive boxes make compact chunks
  const per = 24
  for (let k = 0; k < track.barriers.length; k += per) {
    const g = new FlatShapes()
    const list = track.barriers.slice(k, k + per)
    for (const b of list) g.poly(box(b, 0.25, 0.35, -0.45), 0x000000, 0.28)
    // the outline is a dark box a little larger under each block
    for (const b of list) g.poly(box(b, 0.06, 0, 0), 0x2a2a2a)
    list.forEach((b, i) => g.poly(box(b, -0.06, 0, 0), BARRIER[(k + i) % 2]!))
    root.addChild(g.mesh('barrier chunk'))
  }
  const cones = new FlatShapes()
  for (const c of track.cones) {
    cones.circle(c.x + 0.15, c.y - 0.2, c.radius + 0.12, 0x000000, 0.3)
    cones.circle(c.x, c.y, c.radius + 0.13, 0xffffff)
    cones.circle(c.x, c.y, c.radius + 0.07, 0xff7a1a)
  }
  if (track.cones.length) root.addChild(cones.mesh('cones'))
  return root
}

/** Trees scattered over the grass beyond the barriers (seeded: the same every run), as particles of the `crowns` frames in culled cells. */
export function createTrees(track: Track, crowns: readonly Texture[], seed = 3): Container {
  const root = new Container({ label: 'trees' })
  const CELL = 160
  const cells = new Map<string, ParticleContainer>()
  const cellOf = (x: number, y: number) => {
    const cx = Math.floor(x / CELL), cy = Math.floor(y / CELL), key = `${cx},${cy}`
    let layer = cells.get(key)
    if (!layer) {
      // a tree reaches 5 m past its cell
      layer = new ParticleContainer({ texture: crowns[0]!, dynamicProperties: { position: false }, boundsArea: new Rectangle(cx * CELL - 6, cy * CELL - 6, CELL + 12, CELL + 12) })
      layer.cullable = true
      cells.set(key, layer)
      root.addChild(layer)
    }
    return layer
  }
  let a = seed >>> 0
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const x0 = track.gridX0 - 150, y0 = track.gridY0 - 150
  const w = track.gridColumns * track.gridCell + 300, h = track.gridRows * track.gridCell + 300
  const clear = track.halfWidth + BARRIER_GAP + 7
  for (let k = 0; k < 900; k++) {
    const x = x0 + random() * w, y = y0 + random() * h
    if (Math.abs(projectOnTrack(track, x, y).lateral) < clear) continue
    // clumps: a few smaller trees around each
    const n = 1 + Math.floor(random() * 4)
    for (let j = 0; j < n; j++) {
      const size = 4 + random() * 6
      const px = x + (random() - 0.5) * 14, py = y + (random() - 0.5) * 14
      if (Math.abs(projectOnTrack(track, px, py).lateral) < clear) continue
      const tex = crowns[Math.floor(random() * crowns.length)]!
      cellOf(px, py).particleChildren.push(new Particle({ texture: tex, x: px, y: py, anchorX: 0.5, anchorY: 0.5, scaleX: size / tex.width, scaleY: size / tex.height, rotation: random() * 6.283 }))
    }
  }
  for (const layer of cells.values()) layer.update()
  return root
}
