/**
 * Skid marks: where a tyre slides (its slip angle past the grip peak, or a rear wheel locked by the
 * handbrake), a dark strip is laid from where the wheel was last frame to where it is now; on grass
 * and gravel the strip is dirt. Marks live in a ring of particles in one ParticleContainer: the
 * oldest mark is reused when the ring is full, and the GPU buffer is refreshed only in frames that
 * laid a mark.
 */
import { Particle, ParticleContainer, Rectangle, type Texture } from 'pixi.js'
import type { CarDefinition, Sim } from '../../src/index'
import { SURFACE, surfaceCodeAt, type Track } from '../track'

/** Skid marks of a set of cars. */
export interface Skids {
  /** The layer of marks (world metres), drawn on the ground under the cars. */
  readonly layer: ParticleContainer
  /** Lays marks for the sliding cars inside the circle (cx, cy, radius). */
  update(cx: number, cy: number, radius: number): void
  /** Marks laid so far (the ring keeps the newest). */
  readonly laid: number
  /** Removes every mark (a new race). */
  clear(): void
}

/** Slip angle (rad) past which a tyre leaves a mark: a little beyond the presets' force peak. */
const SLIP = 0.16
/** Marks kept (every one is drawn each frame, so the ring is no longer than the view needs). */
const RING = 2000
const TYRE_WIDTH = 0.24

/** Skid marks for `cars` (their definitions in the same order), drawn with the white `square` frame. */
export function createSkids(sim: Sim, track: Track, cars: readonly number[], definitions: readonly CarDefinition[], square: Texture): Skids {
  const layer = new ParticleContainer({
    texture: square,
    dynamicProperties: { position: false, rotation: false, color: false, vertex: false, uvs: false },
    boundsArea: new Rectangle(-1e5, -1e5, 2e5, 2e5),
  })
  const ring = layer.particleChildren
  // every particle ever made, reused in ring order (a clear empties the ring, not the pool)
  const pool: Particle[] = []
  // last frame's wheel positions, 4 per car (FL, FR, RL, RR), NaN when that wheel was not sliding
  const last = new Float64Array(cars.length * 8).fill(NaN)
  const { Car } = sim.components
  let next = 0, laid = 0

  function mark(x0: number, y0: number, x1: number, y1: number, alpha: number): void {
    const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy)
    if (len < 0.05 || len > 4) return
    let p = pool[next] as Particle | undefined
    if (!p) { p = new Particle({ texture: square, anchorX: 0.5, anchorY: 0.5 }); pool.push(p) }
    if (ring.length === next) ring.push(p) // filling the ring (again, after a clear)
    const code = surfaceCodeAt(track, x1, y1)
    const dirt = code === SURFACE.grass || code === SURFACE.gravel
    p.x = (x0 + x1) / 2
    p.y = (y0 + y1) / 2
    p.rotation = Math.atan2(dy, dx)
    p.scaleX = (len + 0.08) / square.width
    p.scaleY = TYRE_WIDTH / square.height
    p.tint = dirt ? (code === SURFACE.gravel ? 0x8a6f45 : 0x2f4a22) : 0x141414
    p.alpha = alpha
    next = (next + 1) % RING
    laid++
  }

  return {
    layer,
    get laid() { return laid },
    clear() {
      ring.length = 0
      next = 0
      laid = 0
      last.fill(NaN)
      layer.update()
    },
    update(cx, cy, radius) {
      const before = laid
      for (let i = 0; i < cars.length; i++) {
        const car = cars[i]!, d = definitions[i]!
        const x = Car.x[car]!, y = Car.y[car]!, k = i * 8
        const dxc = x - cx, dyc = y - cy
        if (dxc * dxc + dyc * dyc > radius * radius) { last.fill(NaN, k, k + 8); continue }
        const vx = Car.vx[car]!, vy = Car.vy[car]!, r = Car.yawRate[car]!
        const a = d.cgToFront, b = d.wheelbase - a
        const fwd = Math.max(Math.abs(vx), 1)
        const moving = Math.abs(Car.speed[car]!) > 3
        const slipFront = Math.abs(vy + r * a) / fwd
        const slipRear = Math.abs(vy - r * b) / fwd
        const locked = Car.handbrake[car]! > 0.5
        const c = Math.cos(Car.heading[car]!), s = Math.sin(Car.heading[car]!)
        for (let w = 0; w < 4; w++) {
          const front = w < 2
          const slip = front ? slipFront : slipRear
          const sliding = moving && (slip > SLIP || (!front && locked))
          const j = k + 2 * w
          if (!sliding) { last[j] = NaN; continue }
          const ax = front ? a : -b
          const ay = (w % 2 === 0 ? 0.5 : -0.5) * (front ? d.trackFront : d.trackRear)
          const wx = x + c * ax - s * ay, wy = y + s * ax + c * ay
          if (last[j] === last[j]) mark(last[j]!, last[j + 1]!, wx, wy, Math.min(0.55, 0.2 + (slip - SLIP) * 2 + (locked && !front ? 0.2 : 0)))
          last[j] = wx
          last[j + 1] = wy
        }
      }
      if (laid !== before) layer.update()
    },
  }
}
