/**
 * The terrain example's world: a hilly heightfield (rolling hills, a 15° banked turn at the east end
 * of the circuit, a flat plaza in the infield), a 12° ramp, red and white kerbs (boxes) on the
 * inside of both turns, and the city block of examples/assets/city-block.glb (through pitlane/gltf)
 * on the plaza. Heights come from one function, so the driver's line, the kerbs and the ramp sit
 * on the same surface the cars drive on. Public API only.
 */
import type { Document } from '@gltf-transform/core'
import { box, heightfield, stadiumPath, type Sim } from '../../src/index'
import { collidersFromGltf } from '../../src/gltf/index'

/** The circuit: a stadium of two 240 m straights and 70 m half circles round the origin. */
export const STRAIGHT = 240
export const RADIUS = 70
/** The heightfield: 4 m cells over x ∈ [−220, 220], y ∈ [−124, 124]. */
const CELL = 4, X0 = -220, Y0 = -124, COLUMNS = 111, ROWS = 63
/** The banked turn: the east half circle, 15° across the track (±8 m of the line). */
const BANK = Math.tan((15 * Math.PI) / 180), BANK_HALF_WIDTH = 8
/** The plaza: flat within 45 m of the origin, blending into the hills by 60 m. */
const PLAZA_FLAT = 45, PLAZA_EDGE = 60

const smooth = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t))

/** Rolling hills: up to 3 m either way, slopes under 10° (the straights at y = ±70 m run along crests and troughs). */
function hills(x: number, y: number): number {
  return 2 * Math.sin((2 * Math.PI * x) / 100) * Math.cos((2 * Math.PI * y) / 140) + Math.sin((2 * Math.PI * (x + y)) / 120)
}

/** The ground height at (x, y). */
export function groundHeight(x: number, y: number): number {
  let h = hills(x, y)
  // the plaza: flat in the middle
  const r0 = Math.hypot(x, y)
  h *= smooth((r0 - PLAZA_FLAT) / (PLAZA_EDGE - PLAZA_FLAT))
  // the east turn: banked 15° across the track (the outside higher), blended in over 10 m either side
  const cx = STRAIGHT / 2
  if (x > cx - 30) {
    const r = Math.hypot(x - cx, y)
    const across = r - RADIUS
    const onTurn = smooth((x - (cx - 30)) / 30) * (1 - smooth((Math.abs(across) - BANK_HALF_WIDTH) / 10))
    const bank = 1.5 + BANK * Math.max(-BANK_HALF_WIDTH - 4, Math.min(BANK_HALF_WIDTH + 4, across))
    h = h * (1 - onTurn) + bank * onTurn
  }
  return h
}

/** The circuit's centreline, points about 2 m apart. */
export function circuit(): Float64Array {
  return stadiumPath(STRAIGHT, RADIUS, 2)
}

/** Collider names the view colours. */
export const COLOURS: Record<string, number> = { 'kerb-red': 0xd23b33, 'kerb-white': 0xf1f1f1, ramp: 0x8a8f98, building: 0xb8bec8 }

/** The ramp: a 12° box on the plaza, its lip 2.1 m up, heading +x from (−38, −20). */
export const RAMP = { x: -38, y: -20, angle: (12 * Math.PI) / 180, length: 10 }

/** Adds the terrain, the ramp and the kerbs; returns the heightfield's entity. */
export function addTerrain(sim: Sim): number {
  const heights = new Float64Array(COLUMNS * ROWS)
  for (let j = 0; j < ROWS; j++) for (let i = 0; i < COLUMNS; i++) heights[j * COLUMNS + i] = groundHeight(X0 + i * CELL, Y0 + j * CELL)
  const terrain = sim.addCollider(heightfield([X0, Y0], CELL, COLUMNS, ROWS, heights), { name: 'terrain' })
  // the ramp: a slab tilted 12° about y, its low edge on the plaza
  const { x, y, angle, length } = RAMP
  const half = length / 2, thick = 0.4
  const s = Math.sin(angle / 2), c = Math.cos(angle / 2)
  // pitch up toward +x is a rotation of −angle about y; centre so the slab's top low edge meets the ground
  sim.addCollider(box(half, 2.2, thick / 2), {
    position: [x + half * Math.cos(angle), y, half * Math.sin(angle) - (thick / 2) * Math.cos(angle)],
    rotation: [0, -s, 0, c], name: 'ramp', reflectivity: 0.5,
  })
  // kerbs: 2 m blocks, 5 cm proud, alternating red and white, just inside each turn's apex
  const cx = STRAIGHT / 2
  for (const side of [-1, 1]) {
    for (let k = -6; k <= 6; k++) {
      const a = (k * 2.05) / (RADIUS - 5.5)
      const px = side * (cx + (RADIUS - 5.5) * Math.cos(a)), py = (RADIUS - 5.5) * Math.sin(a) * side
      const yaw = Math.atan2(py, px - side * cx) + Math.PI / 2
      sim.addCollider(box(1, 0.45, 0.05), {
        position: [px, py, groundHeight(px, py) + 0.0], rotation: [0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)],
        name: k & 1 ? 'kerb-red' : 'kerb-white', reflectivity: 0.9,
      })
    }
  }
  return terrain
}

/** The city block's buildings, tower and ramp (not its own ground or markings) on the plaza; returns how many colliders. */
export function addCityBlock(sim: Sim, document: Document): number {
  const nodes = ['Building.00', 'Building.01', 'Building.02', 'Building.03', 'Building.04', 'Tower', 'Tower.Spire', 'Ramp']
  const found = collidersFromGltf(document, { nodes })
  for (const c of found) sim.addCollider(c.shape, { position: c.position, rotation: c.rotation, name: 'building', reflectivity: 0.6 })
  return found.length
}
