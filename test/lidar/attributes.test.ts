// Per-point attributes: every point's collider, object, localId, normal, incidence cosine and
// distance equal a rayTest along the same ray, under every strategy; intensity follows the model;
// asking for attributes never changes the points.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, createLidarScan, lidarIntensity, type LidarScan, type Sim } from '../../src/index'
import { rng, randomQuat, toMat3 } from './oracle'

function scene(): { sim: Sim; reflectivity: Map<number, number> } {
  const sim = createSim(createWorld(), { ground: { height: -0.2, reflectivity: 0.3 } })
  const r = rng(91)
  const reflectivity = new Map<number, number>([[sim.ground, 0.3]])
  const shapes = [{ kind: 'sphere', radius: 1 }, { kind: 'box', halfExtents: [1, 0.5, 0.7] }, { kind: 'capsule', radius: 0.4, halfHeight: 1 }, { kind: 'cylinder', radius: 0.6, halfHeight: 0.8 }]
  for (let i = 0; i < 60; i++) {
    const refl = i % 5 === 0 ? undefined : r()
    const e = sim.addCollider(shapes[i % 4] as never, {
      position: [(r() - 0.5) * 50, (r() - 0.5) * 50, r() * 3], rotation: randomQuat(r), object: 500 + (i >> 2), localId: i & 3,
      ...(refl === undefined ? {} : { reflectivity: refl }),
    })
    reflectivity.set(e, refl ?? 0.5)
  }
  const heights = new Float64Array(10 * 8).map((_, i) => Math.sin(i * 0.9) * 0.6)
  const hf = sim.addCollider({ kind: 'heightfield', origin: [-5, -4], cellSize: 1, columns: 10, rows: 8, heights }, { position: [12, -9, 0], reflectivity: 0.9 })
  reflectivity.set(hf, 0.9)
  return { sim, reflectivity }
}

const pat = { ys: -Math.PI, yi: (2 * Math.PI) / 360, yc: 360, ps: -0.5, pi: 0.05, pc: 16 }

function scanWith(sim: Sim, rot: number[], pos: number[], scan: LidarScan, force: number, rangeMin = 0.3): LidarScan {
  sim.internal.lidars.shared.force = force
  return sim.rayTestLidar(rot, pos, pat.ys, pat.yi, pat.yc, pat.ps, pat.pi, pat.pc, rangeMin, 60, -1, -1, -1, scan)
}

/** Checks every point's attributes against rayTest along its ray; returns the first mismatch, or null. */
function mismatch(sim: Sim, rot: number[], pos: number[], scan: LidarScan, reflectivity: Map<number, number>, rangeMin: number): string | null {
  const R = toMat3(rot)
  const near = (a: number, b: number, tol = 1e-9) => Math.abs(a - b) <= tol
  for (let i = 0; i < scan.count; i++) {
    const ray = scan.rays[i], y = Math.floor(ray / pat.pc), p = ray % pat.pc
    const yaw = pat.ys + y * pat.yi, pitch = pat.ps + p * pat.pi
    const d = [Math.cos(pitch) * Math.cos(yaw), Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch)]
    const w = [0, 1, 2].map((k) => R[3 * k] * d[0] + R[3 * k + 1] * d[1] + R[3 * k + 2] * d[2])
    const h = sim.rayTest(pos.map((v, k) => v + rangeMin * w[k]), w, 60 - rangeMin).at(0)
    if (!h) return `ray ${ray}: rayTest misses`
    if (scan.colliders![i] !== h.collider || scan.objects![i] !== h.object || scan.localIds![i] !== h.localId) return `ray ${ray}: hit ${scan.colliders![i]}, rayTest ${h.collider}`
    if (!near(scan.distances[i], rangeMin + h.distance)) return `ray ${ray}: distance`
    // the normal in the sensor frame: Rᵀ·n
    for (let k = 0; k < 3; k++) if (!near(scan.normals![3 * i + k], R[k] * h.normal[0] + R[3 + k] * h.normal[1] + R[6 + k] * h.normal[2])) return `ray ${ray}: normal`
    const cos = Math.max(0, Math.min(1, -(h.normal[0] * w[0] + h.normal[1] * w[1] + h.normal[2] * w[2])))
    if (!near(scan.cosines![i], cos)) return `ray ${ray}: cosine`
    if (!near(scan.intensities![i], reflectivity.get(h.collider)! * cos * Math.exp(-0.004 * scan.distances[i]), 1e-12)) return `ray ${ray}: intensity`
  }
  return null
}

describe('lidar point attributes', () => {
  it('equal rayTest along the same ray (collider, object, localId, normal, distance) under every strategy', () => {
    const { sim, reflectivity } = scene()
    const r = rng(5)
    let points = 0
    const kinds = new Set<number>()
    for (let round = 0; round < 2; round++) {
      const rot = round === 0 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : Array.from(toMat3(randomQuat(r)))
      const pos = [(r() - 0.5) * 20, (r() - 0.5) * 20, 1 + r()]
      for (const force of [1, 2, 3, 4]) {
        const rangeMin = force === 3 ? 0 : 0.3
        const scan = scanWith(sim, rot, pos, createLidarScan({ hits: true, normals: true, intensity: true }), force, rangeMin)
        expect(mismatch(sim, rot, pos, scan, reflectivity, rangeMin)).toBe(null)
        points += scan.count
        for (let i = 0; i < scan.count; i++) kinds.add(sim.components.Collider.kind[scan.colliders![i]])
        // the points themselves are those of a scan without attributes, bit for bit
        const plain = scanWith(sim, rot, pos, createLidarScan(), force, rangeMin)
        expect(plain.colliders).toBe(null)
        expect(Array.from(plain.points.subarray(0, 3 * plain.count))).toEqual(Array.from(scan.points.subarray(0, 3 * scan.count)))
        expect(Array.from(plain.rays.subarray(0, plain.count))).toEqual(Array.from(scan.rays.subarray(0, scan.count)))
      }
    }
    expect(points).toBeGreaterThan(10000)
    expect([...kinds].sort()).toEqual([1, 2, 3, 4, 5, 6]) // plane, sphere, box, capsule, cylinder, heightfield
  })

  it('carry only what was asked for, and a lidar entity takes the same choice', () => {
    const { sim } = scene()
    const hitsOnly = scanWith(sim, [1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 1], createLidarScan({ hits: true }), 0)
    expect(hitsOnly.objects).not.toBe(null)
    expect(hitsOnly.normals).toBe(null)
    expect(hitsOnly.intensities).toBe(null)
    const lidar = sim.addLidar({ pattern: { yawStart: 0, yawIncrement: 0.05, yawCount: 120, pitchStart: -0.3, pitchIncrement: 0.04, pitchCount: 8 }, rangeMin: 0.3, rangeMax: 60, attributes: { intensity: true } })
    sim.step(1 / 60)
    const s = sim.lidarScan(lidar)
    expect(s.count).toBeGreaterThan(100)
    expect(s.intensities).not.toBe(null)
    expect(s.normals).toBe(null)
    for (let i = 0; i < s.count; i++) {
      expect(s.intensities![i]).toBeGreaterThanOrEqual(0)
      expect(s.intensities![i]).toBeLessThanOrEqual(1)
    }
  })

  it('intensity follows ρ·cos θ·exp(−0.004·r): brighter for a more reflective, nearer, more head-on surface', () => {
    expect(lidarIntensity(1, 1, 0)).toBe(1)
    expect(lidarIntensity(0.5, 0.5, 100)).toBeCloseTo(0.25 * Math.exp(-0.4), 15)
    expect(lidarIntensity(0.8, 1, 10)).toBeGreaterThan(lidarIntensity(0.4, 1, 10))
    expect(lidarIntensity(0.8, 1, 10)).toBeGreaterThan(lidarIntensity(0.8, 1, 50))
    expect(lidarIntensity(0.8, 1, 10)).toBeGreaterThan(lidarIntensity(0.8, 0.3, 10))
  })

  it('refuses bad options naming them', () => {
    const { sim } = scene()
    expect(() => createLidarScan({ hits: 1 } as never)).toThrow(/options\.hits/)
    expect(() => createLidarScan({ colour: true } as never)).toThrow(/colour.*expected one of hits, normals, intensity/)
    expect(() => sim.addCollider({ kind: 'sphere', radius: 1 }, { reflectivity: 1.5 })).toThrow(RangeError)
    expect(() => sim.addCollider({ kind: 'sphere', radius: 1 }, { reflectivity: 1.5 })).toThrow(/options\.reflectivity/)
    expect(() => createSim(createWorld(), { ground: { reflectivity: -1 } })).toThrow(/options\.ground\.reflectivity/)
    const ok = { pattern: { yawStart: 0, yawIncrement: 0.1, yawCount: 10, pitchStart: 0, pitchIncrement: 0, pitchCount: 1 }, rangeMin: 0, rangeMax: 10 }
    expect(() => sim.addLidar({ ...ok, attributes: { hit: true } } as never)).toThrow(/options\.attributes.*hit/)
    expect(() => sim.addLidar({ ...ok, colour: 1 } as never)).toThrow(/colour/)
  })
})
