// toPcd: PCD v0.7 files, ASCII and binary, read back by three.js's PCDLoader with the same points,
// normals, intensities and labels; the header lists exactly the requested fields.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { PCDLoader } from 'three/examples/jsm/loaders/PCDLoader.js'
import { createSim, createLidarScan, toPcd, type LidarScan } from '../../src/index'

function scanned(): LidarScan {
  const sim = createSim(createWorld(), { ground: { reflectivity: 0.2 } })
  sim.addCollider({ kind: 'box', halfExtents: [1, 3, 1] }, { position: [6, 0, 1], object: 7, reflectivity: 0.8 })
  sim.addCollider({ kind: 'sphere', radius: 1.5 }, { position: [-5, 4, 1], object: 9, localId: 2 })
  const scan = createLidarScan({ hits: true, normals: true, intensity: true })
  sim.rayTestLidar([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 1.5], -Math.PI, (2 * Math.PI) / 180, 180, -0.4, 0.05, 10, 0.2, 40, -1, -1, -1, scan)
  return scan
}

function header(bytes: Uint8Array): Record<string, string> {
  const text = new TextDecoder().decode(bytes.subarray(0, 600))
  const out: Record<string, string> = {}
  for (const line of text.split('\n')) {
    const m = /^([A-Z]+) (.*)$/.exec(line)
    if (m) out[m[1]] = m[2]
    if (line.startsWith('DATA')) break
  }
  return out
}

function load(bytes: Uint8Array) {
  const copy = bytes.slice().buffer
  return new PCDLoader().parse(copy).geometry
}

describe('toPcd', () => {
  for (const binary of [false, true]) {
    it(`writes ${binary ? 'binary' : 'ASCII'} PCD v0.7 that three.js's PCDLoader reads back with the same points and fields`, () => {
      const scan = scanned()
      expect(scan.count).toBeGreaterThan(500)
      const bytes = toPcd(scan, { binary, fields: ['intensity', 'normal', 'label', 'localId', 'range'] })
      const h = header(bytes)
      expect(h.VERSION).toBe('0.7')
      expect(h.FIELDS).toBe('x y z intensity normal_x normal_y normal_z label local_id range')
      expect(h.POINTS).toBe(String(scan.count))
      expect(h.DATA).toBe(binary ? 'binary' : 'ascii')
      const g = load(bytes)
      expect(Object.keys(g.attributes).sort()).toEqual(['intensity', 'label', 'normal', 'position'])
      const f32 = (a: ArrayLike<number>, n: number) => Array.from(new Float32Array(Array.from(a).slice(0, n)))
      expect(Array.from(g.attributes.position.array)).toEqual(f32(scan.points, 3 * scan.count))
      expect(Array.from(g.attributes.normal.array)).toEqual(f32(scan.normals!, 3 * scan.count))
      expect(Array.from(g.attributes.intensity.array)).toEqual(f32(scan.intensities!, scan.count))
      expect(Array.from(g.attributes.label.array)).toEqual(Array.from(scan.objects!.subarray(0, scan.count)))
      const labels = new Set(Array.from(g.attributes.label.array))
      expect(labels.has(7) && labels.has(9) && labels.size === 3).toBe(true) // the box, the sphere and the ground
    })
  }

  it('writes every attribute the scan carries by default, and refuses fields it lacks', () => {
    const scan = scanned()
    expect(header(toPcd(scan)).FIELDS).toBe('x y z intensity normal_x normal_y normal_z object local_id collider')
    expect(header(toPcd(createLidarScan())).FIELDS).toBe('x y z')
    expect(header(toPcd(createLidarScan())).POINTS).toBe('0')
    expect(() => toPcd(createLidarScan(), { fields: ['intensity'] })).toThrow(/no 'intensity'/)
    expect(() => toPcd(scan, { fields: ['rgb' as never] })).toThrow(/unknown field/)
    expect(() => toPcd(scan, { ascii: true } as never)).toThrow(/ascii.*expected one of binary, fields/)
    expect(() => toPcd({} as never)).toThrow(TypeError)
  })
})
