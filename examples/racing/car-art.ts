/**
 * The demo's art, drawn once at start-up into one texture (so every car, wheel, light and skid mark
 * batches into few draw calls): a top-down body per entrant, sized from its car's
 * definition and painted in its livery with its number on the roof, plus shared frames for front
 * wheels, shadows, brake-light glows and trees. Nothing is downloaded.
 */
import { Container, Graphics, Rectangle, Text, Texture, type Renderer } from 'pixi.js'
import type { CarDefinition } from '../../src/index'

/** Texture pixels per metre of the car art. */
export const ART_PX_PER_M = 16

/** What a body is drawn from. */
export interface BodySpec {
  definition: CarDefinition
  color: number
  stripe: number
  number: number
}

/** The frames of the atlas (all share one texture source). */
export interface CarArt {
  /** Body frames, in the order of the specs; the frame's centre is the car's centre of mass. */
  bodies: Texture[]
  /** A front wheel, 1 m long and 0.25 m wide (scale it to the tyre). */
  wheel: Texture
  /** A soft shadow blob for a 1 m × 1 m footprint. */
  shadow: Texture
  /** A soft red glow, 1 m across. */
  glow: Texture
  /** A white square, 1 m across (skid marks). */
  square: Texture
  /** Tree crowns seen from above, 1 m across. */
  trees: Texture[]
}

/** Shades `color` towards black (k < 1) or white (k > 1). */
export function shade(color: number, k: number): number {
  const ch = (v: number) => Math.max(0, Math.min(255, Math.round(k <= 1 ? v * k : v + (255 - v) * (k - 1))))
  return (ch(color >> 16) << 16) | (ch((color >> 8) & 255) << 8) | ch(color & 255)
}

/** Draws a car from above in metres, nose towards +x, centre of mass at the origin. */
function drawBody(g: Graphics, d: CarDefinition, color: number, stripe: number): void {
  const L = d.length, W = d.width
  const rearAxle = -(d.wheelbase - d.cgToFront)
  // The body box is centred on the centre of mass (the chassis collider is).
  const x0 = -L / 2, x1 = L / 2
  const tyre = 2 * d.wheelRadius, tyreW = 0.26
  // rear tyres peek out of the body's sides
  for (const side of [-1, 1]) g.roundRect(rearAxle - tyre / 2, side * (W / 2 - 0.05) - tyreW / 2, tyre, tyreW, 0.06).fill(0x16181c)
  const van = d.height > 1.7
  const r = van ? 0.22 : 0.42
  g.roundRect(x0, -W / 2, L, W, r).fill(color).stroke({ width: 0.07, color: shade(color, 0.45) })
  // bonnet crease and a lighter roof: reads as a shape, not a slab
  g.roundRect(x0 + 0.25, -W * 0.3, L - 0.5, W * 0.6, r * 0.8).fill({ color: shade(color, 1.18), alpha: 0.55 })
  // racing stripes, nose to tail
  for (const side of [-1, 1]) g.rect(x0 + 0.05, side * 0.2 - 0.08, L - 0.1, 0.16).fill(stripe)
  // glass: windscreen, rear window, side windows
  const glass = 0x1f2b3a
  const wsFront = van ? x1 - 0.75 : x1 - L * 0.3, wsBack = wsFront - (van ? 0.35 : 0.55)
  const rwFront = van ? x0 + 0.35 : x0 + L * 0.24, rwBack = rwFront - (van ? 0.12 : 0.38)
  g.poly([wsFront, -W * 0.42, wsFront, W * 0.42, wsBack, W * 0.38, wsBack, -W * 0.38]).fill(glass)
  g.poly([rwFront, -W * 0.36, rwFront, W * 0.36, rwBack, W * 0.33, rwBack, -W * 0.33]).fill(glass)
  for (const side of [-1, 1]) g.rect(rwFront + 0.1, side * W * 0.44 - 0.05, wsBack - rwFront - 0.2, 0.1).fill(glass)
  // roof (a van's spans most of its length)
  g.roundRect(rwFront + 0.05, -W * 0.36, wsBack - rwFront - 0.1, W * 0.72, 0.12).fill(shade(color, 1.05))
  // lamps: headlights at the nose, tail lights (off) at the back
  for (const side of [-1, 1]) {
    g.roundRect(x1 - 0.14, side * (W / 2 - 0.3) - 0.16, 0.12, 0.32, 0.04).fill(0xfff4c8)
    g.roundRect(x0 + 0.02, side * (W / 2 - 0.28) - 0.16, 0.1, 0.32, 0.03).fill(0x6e1010)
  }
}

/** Renders every frame into one texture with `renderer` and cuts it into frames. */
export function createCarArt(renderer: Renderer, specs: readonly BodySpec[]): CarArt {
  const R = ART_PX_PER_M
  const pad = 0.4 // m around each body (tyres, stroke)
  const root = new Container()
  const frames: Rectangle[] = []
  let x = 0, y = 0, rowH = 0
  const W = 1024
  const place = (w: number, h: number) => {
    w = Math.ceil(w) + 2
    h = Math.ceil(h) + 2
    if (x + w > W) { x = 0; y += rowH; rowH = 0 }
    const f = new Rectangle(x + 1, y + 1, w - 2, h - 2)
    x += w
    rowH = Math.max(rowH, h)
    frames.push(f)
    return f
  }
  for (const spec of specs) {
    const d = spec.definition
    const f = place((d.length + 2 * pad) * R, (d.width + 2 * pad) * R)
    const car = new Container()
    car.position.set(f.x + f.width / 2, f.y + f.height / 2)
    const g = new Graphics()
    g.scale.set(R)
    drawBody(g, d, spec.color, spec.stripe)
    // the race number in a white roundel on the roof
    const roofX = d.height > 1.7 ? 0.3 : -d.length * 0.08
    g.circle(roofX, 0, 0.5).fill(0xffffff).stroke({ width: 0.05, color: 0x111111 })
    const label = new Text({ text: String(spec.number), style: { fontFamily: 'Arial, Helvetica, sans-serif', fontWeight: 'bold', fontSize: 12, fill: 0x111111 } })
    label.anchor.set(0.5)
    label.position.set(roofX * R, 0)
    label.rotation = Math.PI / 2 // reads from the car's left, like a roof number seen from the side of the track
    car.addChild(g, label)
    root.addChild(car)
  }
  const shapes = new Graphics()
  root.addChild(shapes)
  const unit = 32 // px per metre of the shared unit frames
  const wheelF = place(unit, unit * 0.25)
  shapes.roundRect(wheelF.x, wheelF.y, wheelF.width, wheelF.height, 2).fill(0x16181c)
  shapes.rect(wheelF.x + 4, wheelF.y + wheelF.height / 2 - 1, wheelF.width - 8, 2).fill(0x3a3f46)
  const shadowF = place(unit, unit)
  for (let k = 0; k < 6; k++) {
    const inset = k * 2.2
    shapes.roundRect(shadowF.x + inset, shadowF.y + inset, shadowF.width - 2 * inset, shadowF.height - 2 * inset, 10 - k).fill({ color: 0x000000, alpha: 0.09 })
  }
  const glowF = place(unit, unit)
  for (let k = 0; k < 8; k++) shapes.circle(glowF.x + unit / 2, glowF.y + unit / 2, unit / 2 - k * 1.8).fill({ color: k < 5 ? 0xff2a1a : 0xffd0c0, alpha: 0.14 + k * 0.05 })
  const squareF = place(8, 8)
  shapes.rect(squareF.x, squareF.y, squareF.width, squareF.height).fill(0xffffff)
  const treeFrames: Rectangle[] = []
  const tones = [[0x1f5a28, 0x2f7a36, 0x3f8f42], [0x244f22, 0x356b2c, 0x4d8a3a], [0x2b5e35, 0x3c7d45, 0x5a9a55]]
  for (const [dark, mid, light] of tones) {
    const tf = place(64, 64)
    const cxp = tf.x + 32, cyp = tf.y + 32
    shapes.circle(cxp + 3, cyp + 4, 29).fill({ color: 0x000000, alpha: 0.25 })
    shapes.circle(cxp, cyp, 28).fill(dark)
    for (let k = 0; k < 6; k++) {
      const a = (k / 6) * Math.PI * 2
      shapes.circle(cxp + Math.cos(a) * 12, cyp + Math.sin(a) * 12, 14).fill(mid)
    }
    shapes.circle(cxp - 6, cyp - 7, 12).fill(light)
    treeFrames.push(tf)
  }
  const height = y + rowH
  const rt = renderer.generateTexture({ target: root, frame: new Rectangle(0, 0, W, height), resolution: 1, antialias: true })
  root.destroy({ children: true })
  const cut = (f: Rectangle) => new Texture({ source: rt.source, frame: f })
  return {
    bodies: specs.map((_, i) => cut(frames[i]!)),
    wheel: cut(wheelF), shadow: cut(shadowF), glow: cut(glowF), square: cut(squareF),
    trees: treeFrames.map(cut),
  }
}
