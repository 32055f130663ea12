// The lidar tests planes (the ground, half of all rays) with planeHitT on plain numbers instead of
// rayPlane's arrays, and the raster works a shared start's height over the plane out once. Both
// must give rayPlane's and the BVH path's very bits: every edge value of the rule, and sensors at
// ±0 coordinates with rangeMin ±0 (p + 0·w is p except for a −0 coordinate) over a tilted ground.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, createLidarScan, type Sim } from '../../src/index'
import { LidarStrategy } from '../../src/lidar/caster'
import { planeHitT } from '../../src/lidar/candidate-test'
import { rayPlane } from '../../src/collision/narrowphase'
import { markColliderChanged } from '../../src/collision/state'
import { mat3FromQuat } from '../../src/math/mat3'
import { addShapesToSim, randomShapes } from '../../bench/scenes.mjs'
import { exactScan } from './oracle'

const I = [1, 0, 0, 0, 1, 0, 0, 0, 1]

/** rayPlane's answer in planeHitT's form: −1 miss, 0 inside or on, else t. */
function viaRayPlane(oz: number, dz: number, tMax: number): number {
  const L = new Float64Array(7), out = new Float64Array(4)
  L[2] = oz; L[5] = dz; L[6] = tMax
  const res = rayPlane(L, out)
  return res === 0 ? -1 : res === 2 ? 0 : out[0]
}

/** The scan of a fixed 256×12 pattern as one exact string. */
function scanBits(sim: Sim, pos: number[], rangeMin: number): string {
  const scan = createLidarScan()
  sim.rayTestLidar(I, pos, 0.01, (2 * Math.PI) / 256, 256, -0.6, 0.07, 12, rangeMin, 80, -1, -1, -1, scan)
  return exactScan(scan)
}

describe('the lidar plane rule', () => {
  it('planeHitT gives rayPlane\'s result bit for bit on every edge value', () => {
    const oz = [1, 2.5, 1e-300, 5e-324, 0, -0, -1e-300, -3, NaN, Infinity]
    const dz = [-1, -0.25, -1e-300, -5e-324, -0, 0, 1e-300, 1, NaN, -Infinity]
    const tMax = [0, 1e-300, 1, 2.5, 10, Infinity, NaN]
    let n = 0
    for (const a of oz) for (const b of dz) for (const t of tMax) {
      expect(Object.is(planeHitT(a, b, t), viaRayPlane(a, b, t)), `oz ${a} dz ${b} tMax ${t}`).toBe(true)
      n++
    }
    expect(n).toBe(700)
  })

  it('the raster equals the BVH bit for bit with the sensor at ±0 coordinates, rangeMin ±0, over a tilted ground', () => {
    const sim = createSim(createWorld(), { ground: { height: -1.2 } })
    addShapesToSim(sim, randomShapes(400, { size: 120, seed: 5, zMin: -2, zMax: 3 }))
    const g = sim.ground
    mat3FromQuat(sim.components.Collider.rotation, 9 * g, 0.05, -0.03, 0, Math.sqrt(1 - 0.05 * 0.05 - 0.03 * 0.03))
    markColliderChanged(sim.internal.collision, g)
    const caster = sim.internal.lidars.shared
    let compared = 0
    for (const pos of [[0, 0, 1.5], [-0, -0, 1.5], [-0, 0, -0], [0.25, -0, 0.8]]) {
      for (const rangeMin of [0, -0, 0.3]) {
        caster.force = LidarStrategy.bvh
        const want = scanBits(sim, pos, rangeMin)
        caster.force = LidarStrategy.raster
        const got = scanBits(sim, pos, rangeMin)
        expect(caster.strategy).toBe(LidarStrategy.raster)
        expect(got, `pos ${pos.map((v) => (Object.is(v, -0) ? '-0' : v))}, rangeMin ${Object.is(rangeMin, -0) ? '-0' : rangeMin}`).toBe(want)
        compared += Number(want.split('|')[0])
      }
    }
    expect(compared).toBeGreaterThan(10000)
  })
})
