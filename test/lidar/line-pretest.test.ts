// The raster skips a capsule or cylinder on rays whose line passes farther than its radius from
// its axis line. That pre-test must never skip a ray that can hit: rays tangent to the shapes'
// sides (distance r up to rounding), rays along their axes (w × a ≈ 0), far from the origin,
// starting at the sensor or at rangeMin — the raster equals the BVH bit for bit on all of them.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, createLidarScan, type Sim } from '../../src/index'
import { LidarStrategy } from '../../src/lidar/caster'
import { exactScan, rng } from './oracle'

const I = [1, 0, 0, 0, 1, 0, 0, 0, 1]
const YC = 64, PC = 8, YI = (2 * Math.PI) / YC, PS = -0.35, PI_ = 0.1

/** Quaternion [x, y, z, w] turning local z onto the unit vector a. */
function zTo(a: number[]): number[] {
  if (a[2] < -0.999999) return [1, 0, 0, 0]
  const q = [-a[1], a[0], 0, 1 + a[2]]
  const l = Math.hypot(q[0], q[1], q[2], q[3])
  return q.map((v) => v / l)
}

const cross = (u: number[], v: number[]) => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
const unit = (u: number[]) => { const l = Math.hypot(u[0], u[1], u[2]); return u.map((x) => x / l) }

/** Capsules and cylinders placed on the pattern's rays: tangent to a ray (side at distance r) or along it. */
function tangentScene(pos: number[], seed: number): Sim {
  const sim = createSim(createWorld(), { ground: false })
  const r = rng(seed)
  for (let n = 0; n < 160; n++) {
    const y = Math.floor(r() * YC), p = Math.floor(r() * PC)
    const yaw = y * YI, pitch = PS + p * PI_
    const w = [Math.cos(pitch) * Math.cos(yaw), Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch)]
    const t = 3 + r() * 40, rad = 0.05 + r() * 0.6, hh = 0.1 + r() * 2
    const kind = n % 2 === 0 ? 'capsule' : 'cylinder'
    let axis: number[], centre: number[]
    if (n % 5 === 4) {
      // along the ray: w × a ≈ 0 (placed past the start so the ray enters through an end)
      axis = w; centre = [pos[0] + t * w[0], pos[1] + t * w[1], pos[2] + t * w[2]]
    } else {
      // tangent: axis ⊥ w, centre offset by r (a hair more or less) along w × axis
      axis = unit(cross(w, unit([r() - 0.5, r() - 0.5, r() - 0.5])))
      const side = unit(cross(w, axis)), off = rad * (1 + (r() - 0.5) * 1e-12)
      centre = [pos[0] + t * w[0] + off * side[0], pos[1] + t * w[1] + off * side[1], pos[2] + t * w[2] + off * side[2]]
    }
    sim.addCollider({ kind, radius: rad, halfHeight: hh } as never, { position: centre, rotation: zTo(axis) })
  }
  return sim
}

describe('the raster\'s axis-line pre-test for capsules and cylinders', () => {
  it('skips no ray that can hit: tangent and axial rays, far from the origin, rangeMin 0 and > 0', () => {
    let hits = 0
    for (const [seed, pos] of [[1, [0, 0, 1]], [2, [1.5e4, -2.5e4, 3]], [3, [-0.25, 7, -2]]] as [number, number[]][]) {
      const sim = tangentScene(pos, seed)
      const caster = sim.internal.lidars.shared
      for (const rangeMin of [0, 0.5]) {
        const run = (force: number) => {
          caster.force = force
          const scan = createLidarScan()
          sim.rayTestLidar(I, pos, 0, YI, YC, PS, PI_, PC, rangeMin, 60, -1, -1, -1, scan)
          return scan
        }
        const want = run(LidarStrategy.bvh)
        const got = run(LidarStrategy.raster)
        expect(caster.strategy).toBe(LidarStrategy.raster)
        expect(exactScan(got)).toBe(exactScan(want))
        hits += want.count
      }
    }
    expect(hits).toBeGreaterThan(300)
  })
})
