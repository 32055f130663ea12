/** Test helpers for cars on terrain: slopes and hills built from colliders, and the physics they should show. */
import { box, heightfield, type CarDefinition, type Sim } from '../../src/index'

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

/** The definition's top speed on a grade of angle θ: where the best gear's wheel force meets m·g·sinθ + rolling + drag. */
export function powerBalanceTopSpeed(d: CarDefinition, angle: number): number {
  const RPM = Math.PI / 30
  const curve = d.engine.torqueCurve
  const torqueAt = (rpm: number) => {
    if (rpm <= curve[0][0]) return curve[0][1]
    for (let i = 1; i < curve.length; i++) if (rpm <= curve[i][0]) { const [r0, t0] = curve[i - 1], [r1, t1] = curve[i]; return t0 + ((t1 - t0) * (rpm - r0)) / (r1 - r0) }
    return curve[curve.length - 1][1]
  }
  const wheelForce = (v: number) => {
    let best = 0
    for (const r of d.gearbox.ratios) {
      const ratio = r * d.gearbox.finalDrive
      const rpm = ((v / d.wheelRadius) * ratio) / RPM
      if (rpm > d.engine.maxRpm) continue
      best = Math.max(best, (torqueAt(rpm) * ratio * d.gearbox.efficiency) / d.wheelRadius)
    }
    return best
  }
  const G = 9.81, RR = 0.012 // tarmac
  const resist = (v: number) => d.mass * G * Math.sin(angle) + RR * d.mass * G * Math.cos(angle) + 0.5 * 1.204 * d.dragCoefficient * d.frontalArea * v * v
  let lo = 1, hi = 100
  for (let i = 0; i < 60; i++) { const v = 0.5 * (lo + hi); if (wheelForce(v) > resist(v)) lo = v; else hi = v }
  return lo
}

