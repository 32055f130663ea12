/** Test helpers for cars on terrain: slopes and hills built from colliders, and the physics they should show. */
import { box, heightfield, type Sim } from '../../src/index'

/** Rotation (row-major Mat3) about +y by `angle` (rad): a box's top face then rises toward +x for angle < 0. */
export function aboutY(angle: number): number[] {
  const c = Math.cos(angle), s = Math.sin(angle)
  return [c, 0, s, 0, 1, 0, -s, 0, c]
}

/** Rotation (row-major Mat3) about +x by `angle` (rad): the top face rises toward +y for angle > 0. */
export function aboutX(angle: number): number[] {
  const c = Math.cos(angle), s = Math.sin(angle)
  return [1, 0, 0, 0, c, -s, 0, s, c]
}

/**
 * A long slab whose top face is a plane through (0, 0, 0) rising toward +x at `grade` (rise per
 * horizontal run, e.g. 0.1 for 10%), 2·half m long and 40 m wide. Returns its angle, rad.
 */
export function addSlope(sim: Sim, grade: number, half = 400): number {
  const angle = Math.atan(grade)
  const thick = 1
  // the slab's top face passes through the origin: its centre is `thick` below along the face's normal
  const nx = -Math.sin(angle), nz = Math.cos(angle)
  sim.addCollider(box(half, 20, thick), { position: [-thick * nx, 0, -thick * nz], rotation: aboutY(-angle) })
  return angle
}

/** Rolling hills z = amplitude·sin(2πx/wavelength)·cos(2πy/wavelength) on a heightfield of `cell` m cells over [-size/2, size/2]². */
export function addHills(sim: Sim, amplitude: number, wavelength: number, size = 800, cell = 1): (x: number, y: number) => number {
  const n = Math.round(size / cell) + 1
  const x0 = -size / 2
  const z = (x: number, y: number) => amplitude * Math.sin((2 * Math.PI * x) / wavelength) * Math.cos((2 * Math.PI * y) / wavelength)
  const heights = new Float64Array(n * n)
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) heights[j * n + i] = z(x0 + i * cell, x0 + j * cell)
  sim.addCollider(heightfield([x0, x0, 0], cell, n, n, heights))
  return z
}
