import { describe, expect, it } from 'vitest'
import { seededRandom } from '../random'
import { createPolyline, sampleAt, normalizeArc } from '../../src/driver/polyline'
import { sampleNear } from './reference/sample-near'
import { PROJ_S, PROJ_LAT, PROJ_DIST } from '../../src/driver/projection'
import { projectAll, projectNear } from './reference/projection'
import { pointCurvatures, offsetPolyline, mengerCurvature } from '../../src/driver/curvature'
import { stadiumPath, resamplePath, smoothClosedPath, pathLength, samplePath } from '../../src/driver/path'
import { pursuitCurvature, steerForCurvature, lookaheadDistance } from './reference/pursuit'

/** Brute-force distance from (px, py) to a polyline given as a point list (independent of projection.ts). */
function bruteDistance(pts: number[][], closed: boolean, px: number, py: number): number {
  let best = Infinity
  const m = closed ? pts.length : pts.length - 1
  for (let i = 0; i < m; i++) {
    const [ax, ay] = pts[i], [bx, by] = pts[(i + 1) % pts.length]
    const vx = bx - ax, vy = by - ay
    const u = Math.max(0, Math.min(1, ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)))
    best = Math.min(best, Math.hypot(px - ax - u * vx, py - ay - u * vy))
  }
  return best
}

function circle(R: number, n: number, clockwise = false): number[][] {
  const pts: number[][] = []
  for (let i = 0; i < n; i++) { const a = (2 * Math.PI * i) / n; pts.push([R * Math.cos(a), (clockwise ? -1 : 1) * R * Math.sin(a)]) }
  return pts
}

function nested(flat: ArrayLike<number>): number[][] {
  const out: number[][] = []
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]])
  return out
}

const rng = seededRandom

describe('polyline', () => {
  it('measures arc length of open and closed paths, nested, flat and typed', () => {
    const sq = [[0, 0], [10, 0], [10, 10], [0, 10]]
    expect(createPolyline(sq, false).length).toBe(30)
    expect(createPolyline(sq, true).length).toBe(40)
    expect(createPolyline([0, 0, 10, 0, 10, 10, 0, 10], true).length).toBe(40)
    expect(createPolyline(new Float32Array([0, 0, 3, 4]), false).length).toBe(5)
    // a closed path that repeats its first point, and repeated points, are the same path
    expect(createPolyline([...sq, [0, 0]], true).length).toBe(40)
    expect(createPolyline([[0, 0], [0, 0], [3, 4], [3, 4]], false).n).toBe(2)
    // regular polygon inscribed in a circle: 2 n R sin(pi / n)
    const R = 50, n = 314
    expect(createPolyline(circle(R, n), true).length).toBeCloseTo(2 * n * R * Math.sin(Math.PI / n), 9)
  })

  it('samples position and tangent by arc length, wrapping closed and clamping open paths', () => {
    const sq = createPolyline([[0, 0], [10, 0], [10, 10], [0, 10]], true)
    const out = new Float64Array(4)
    sampleAt(sq, 15, out)
    expect([...out]).toEqual([10, 5, 0, 1])
    sampleAt(sq, 40 + 35, out)
    expect(out[0]).toBeCloseTo(0, 12); expect(out[1]).toBeCloseTo(5, 12); expect(out[3]).toBeCloseTo(-1, 12)
    sampleAt(sq, -5, out)
    expect(out[0]).toBeCloseTo(0, 12); expect(out[1]).toBeCloseTo(5, 12)
    const open = createPolyline([[0, 0], [10, 0], [10, 10]], false)
    sampleAt(open, 99, out)
    expect([out[0], out[1]]).toEqual([10, 10])
    expect(normalizeArc(open, -3)).toBe(0)
    expect([...samplePath(open, 12)]).toEqual([10, 2, 0, 1])
  })

  it('sampleNear (walking from a segment) agrees with sampleAt (binary search) anywhere', () => {
    const r = rng(11)
    for (const closed of [true, false]) {
      const poly = createPolyline(stadiumPath(200, 50, 3), closed)
      const a = new Float64Array(4), b = new Float64Array(4)
      for (let k = 0; k < 300; k++) {
        const s = (r() * 1.4 - 0.2) * poly.length, from = Math.floor(r() * poly.segments)
        sampleAt(poly, s, a)
        sampleNear(poly, from, s, b)
        expect(b[0]).toBeCloseTo(a[0], 9); expect(b[1]).toBeCloseTo(a[1], 9)
      }
      for (const from of [-1, poly.segments, 1e9, NaN]) { // a stale start segment still finds the point
        sampleAt(poly, 12.5, a); sampleNear(poly, from, 12.5, b)
        expect([...b]).toEqual([...a])
      }
    }
  })

  it('refuses bad paths with errors naming the argument', () => {
    expect(() => createPolyline('abc', false)).toThrow(TypeError)
    expect(() => createPolyline(null, false)).toThrow(/path/)
    expect(() => createPolyline([[1, 2]], false)).toThrow(/at least 2 distinct points/)
    expect(() => createPolyline([[1, 2], [1, 2], [1, 2]], false)).toThrow(RangeError)
    expect(() => createPolyline([[0, 0], [1, 0]], true)).toThrow(/at least 3 distinct points when closed/)
    expect(() => createPolyline([[0, 0], [1, NaN]], false)).toThrow(/path\[1\]\[1\] must be finite/)
    expect(() => createPolyline([0, 0, Infinity, 1], false)).toThrow(/path\[2\] must be finite/)
    expect(() => createPolyline([0, 0, 1], false)).toThrow(/even length/)
    expect(() => createPolyline([0, 0, 1e300, 1], false)).toThrow(/path\[2\] must be within/)
    expect(() => createPolyline([[0, 0], [1, '2']], false)).toThrow(TypeError)
    expect(() => createPolyline([[0, 0], [1]], false)).toThrow(/path\[1\]/)
    expect(() => createPolyline([[0, 0], 5], false)).toThrow(/path\[1\]/)
  })
})

describe('projection', () => {
  it('gives arc length and signed offset, + left of the path direction', () => {
    const p = createPolyline([[0, 0], [10, 0], [10, 10]], false)
    const out = new Float64Array(3)
    projectAll(p, 5, 3, out)
    expect([out[PROJ_S], out[PROJ_LAT], out[PROJ_DIST]]).toEqual([5, 3, 3])
    projectAll(p, 5, -3, out)
    expect(out[PROJ_LAT]).toBe(-3)
    projectAll(p, 12, 4, out) // right of the northbound leg
    expect([out[PROJ_S], out[PROJ_LAT]]).toEqual([14, -2])
  })

  it('matches brute force on a stadium, and the windowed search agrees with the full one near its hint', () => {
    const flat = stadiumPath(200, 50, 1.5)
    const pts = nested(flat)
    const poly = createPolyline(flat, true)
    const r = rng(7)
    const out = new Float64Array(3), full = new Float64Array(3), tmp = new Float64Array(4)
    for (let k = 0; k < 500; k++) {
      const s = r() * poly.length, off = (r() - 0.5) * 16
      const seg = sampleAt(poly, s, tmp)
      const px = tmp[0] - tmp[3] * off, py = tmp[1] + tmp[2] * off
      const fseg = projectAll(poly, px, py, full)
      expect(full[PROJ_DIST]).toBeCloseTo(bruteDistance(pts, true, px, py), 9)
      // inside a bend a neighbouring segment may be nearer than the one the point was offset from
      expect(Math.sign(full[PROJ_LAT])).toBe(Math.sign(off))
      expect(Math.abs(full[PROJ_LAT])).toBeLessThanOrEqual(Math.abs(off) + 1e-9)
      if (Math.abs(tmp[2]) === 1) expect(full[PROJ_LAT]).toBeCloseTo(off, 9) // on a straight: exact
      const hint = (seg + Math.floor(r() * 5) - 2 + poly.segments) % poly.segments
      const nseg = projectNear(poly, px, py, hint, 6, out)
      expect(nseg).toBe(fseg)
      expect(out[PROJ_S]).toBe(full[PROJ_S])
    }
  })

  it('windowed search looks only near its hint (a hairpin leg far in arc length is not taken)', () => {
    // two parallel legs 6 m apart joined at x = 100: near x = 10 on the lower leg, hint there
    const p = createPolyline([[0, 0], [50, 0], [100, 0], [100, 6], [50, 6], [0, 6]], false)
    const out = new Float64Array(3)
    projectNear(p, 10, 3.5, 0, 5, out) // closer to the upper leg, but the window holds only the lower
    expect(out[PROJ_S]).toBe(10)
    expect(out[PROJ_LAT]).toBe(3.5)
    projectAll(p, 10, 3.5, out)
    expect(out[PROJ_S]).toBeCloseTo(206 - 10, 9)
  })
})

describe('curvature and offset', () => {
  it('is 1/R on a circle, signed by turn direction, and 0 on straights', () => {
    for (const [R, n] of [[50, 314], [10, 20], [200, 2000]]) {
      const k = pointCurvatures(createPolyline(circle(R, n), true))
      for (const v of k) expect(v).toBeCloseTo(1 / R, 12)
      const kc = pointCurvatures(createPolyline(circle(R, n, true), true))
      for (const v of kc) expect(v).toBeCloseTo(-1 / R, 12)
    }
    const st = createPolyline(stadiumPath(200, 50, 1), true)
    const k = pointCurvatures(st)
    let straight = 0
    for (let i = 0; i < st.n; i++) {
      if (Math.abs(st.y[i]) > 49.99 && Math.abs(st.x[i]) < 95) { expect(k[i]).toBe(0); straight++ }
      if (st.x[i] > 101 || st.x[i] < -101) expect(k[i]).toBeCloseTo(1 / 50, 9)
    }
    expect(straight).toBeGreaterThan(300)
    expect(mengerCurvature(0, 0, 1, 0, 2, 0)).toBe(0)
  })

  it('smooths noise on densely sampled paths by spanning at least `span` metres', () => {
    const r = rng(3), pts: number[][] = []
    for (let i = 0; i < 1000; i++) pts.push([i * 0.1, (r() - 0.5) * 0.002])
    const k = pointCurvatures(createPolyline(pts, false), 2)
    for (const v of k) expect(Math.abs(v)).toBeLessThan(0.002)
  })

  it('offsets to the left for positive d, every offset segment parallel at distance |d|', () => {
    const flat = stadiumPath(200, 50, 1)
    const pts = nested(flat)
    const base = createPolyline(flat, true)
    for (const d of [2, -2]) {
      const off = offsetPolyline(base, d)
      // anticlockwise: left is inside, so the lap is shorter by 2 pi d
      expect(off.length).toBeCloseTo(base.length - 2 * Math.PI * d, 1)
      const out = new Float64Array(3)
      for (let i = 0; i < off.n; i += 7) {
        expect(bruteDistance(pts, true, off.x[i], off.y[i])).toBeGreaterThan(Math.abs(d) - 1e-9)
        // the midpoint of each offset segment is at exactly |d| from the centreline
        const j = (i + 1) % off.n
        const mx = (off.x[i] + off.x[j]) / 2, my = (off.y[i] + off.y[j]) / 2
        projectAll(base, mx, my, out)
        expect(out[PROJ_LAT]).toBeCloseTo(d, 6)
      }
    }
  })
})

describe('path helpers', () => {
  it('stadiumPath has the analytic length and radius', () => {
    const flat = stadiumPath(200, 50, 1)
    const L = pathLength(flat, true)
    expect(Math.abs(L - (400 + 2 * Math.PI * 50)) / L).toBeLessThan(1e-4)
    for (let i = 0; i < flat.length; i += 2) {
      const x = flat[i], y = flat[i + 1]
      const r = Math.abs(x) <= 100 ? Math.abs(y) : Math.hypot(Math.abs(x) - 100, y)
      expect(r).toBeCloseTo(50, 9)
    }
  })

  it('resamplePath spaces points evenly along the arc and keeps the ends of an open path', () => {
    const out = resamplePath([[0, 0], [10, 0], [10, 7]], 1)
    expect(out.length / 2).toBe(18)
    for (let i = 2; i < out.length; i += 2) expect(Math.hypot(out[i] - out[i - 2], out[i + 1] - out[i - 1])).toBeLessThanOrEqual(1 + 1e-12)
    expect([out[out.length - 2], out[out.length - 1]]).toEqual([10, 7])
    expect(() => resamplePath([[0, 0], [1, 0]], 0)).toThrow(/spacing/)
  })

  it('smoothClosedPath passes near its control points with bounded curvature', () => {
    const ctrl = [[0, 0], [100, -20], [200, 0], [220, 100], [100, 140], [-20, 90]]
    const flat = smoothClosedPath(ctrl, 2)
    const pts = nested(flat)
    for (const [x, y] of ctrl) expect(bruteDistance(pts, true, x, y)).toBeLessThan(0.2)
    const poly = createPolyline(flat, true)
    for (let i = 1; i < poly.segments; i++) expect(poly.s[i + 1] - poly.s[i]).toBeCloseTo(poly.s[1], 1)
    for (const k of pointCurvatures(poly, 4)) expect(Math.abs(k)).toBeLessThan(1 / 15)
    expect(() => smoothClosedPath([[0, 0], [1, 1]])).toThrow(/controlPoints/)
  })
})

describe('pure pursuit', () => {
  it('the arc through a goal on a circle tangent to the heading has curvature 1/R', () => {
    for (const [R, th, h] of [[50, 0.3, 0], [20, 0.8, 1.1], [-30, 0.2, -2]]) {
      // car at (3, 4) heading h; circle of signed radius R to its left
      const cx = 3 - Math.sin(h) * R, cy = 4 + Math.cos(h) * R
      const a = R > 0 ? h - Math.PI / 2 + th : h + Math.PI / 2 - th
      const gx = cx + Math.abs(R) * Math.cos(a), gy = cy + Math.abs(R) * Math.sin(a)
      expect(pursuitCurvature(3, 4, Math.cos(h), Math.sin(h), gx, gy)).toBeCloseTo(1 / R, 9)
    }
    expect(pursuitCurvature(0, 0, 1, 0, -5, 0.1)).toBeCloseTo(2 / Math.hypot(5, 0.1), 12)
    expect(pursuitCurvature(0, 0, 1, 0, -5, -0.1)).toBeLessThan(0)
  })

  it('maps curvature to a steer input through wheelbase and lock, clamped', () => {
    expect(steerForCurvature(1 / 50, 2.6, 0.6)).toBeCloseTo(Math.atan(2.6 / 50) / 0.6, 12)
    expect(steerForCurvature(1, 2.6, 0.6)).toBe(1)
    expect(steerForCurvature(-1, 2.6, 0.6)).toBe(-1)
    expect(lookaheadDistance(0.5, 30)).toBe(15)
    expect(lookaheadDistance(0.5, 1)).toBe(4)
  })
})

describe('sinCos', () => {
  it('matches Math.sin and Math.cos to 1e-15 over headings a car can accumulate, and beyond', async () => {
    const { sinCos } = await import('../../src/driver/sin-cos')
    const out = new Float64Array(2), r = rng(5)
    let worst = 0
    const check = (a: number) => {
      sinCos(a, out)
      worst = Math.max(worst, Math.abs(out[0] - Math.sin(a)), Math.abs(out[1] - Math.cos(a)))
    }
    for (let k = 0; k < 20000; k++) check((r() - 0.5) * 2e5)
    for (let k = -8; k <= 8; k++) { check(k * Math.PI / 4); check(k * Math.PI / 4 + 1e-12); check(k * Math.PI / 2 - 1e-9) }
    for (const a of [0, -0, 1e-300, 1e6 + 0.3, -1e6 - 0.7, 9.9e8, 2e9, -1e15]) check(a)
    expect(worst).toBeLessThan(1e-15)
    sinCos(NaN, out)
    expect(Number.isNaN(out[0]) && Number.isNaN(out[1])).toBe(true)
  })
})

describe('offset inside tight bends', () => {
  it('cuts across instead of looping, and refuses an offset that leaves no path', () => {
    // a 90° corner sampled every 1 m; 3 m to the inside (left) would loop back at the corner
    const pts: number[][] = []
    for (let i = 0; i <= 20; i++) pts.push([i, 0])
    for (let j = 1; j <= 20; j++) pts.push([20, j])
    const base = createPolyline(pts, false)
    const off = offsetPolyline(base, 3)
    for (let i = 0; i + 1 < off.n; i++) {
      // every offset segment still runs forward (no reversal), and lies 3 m inside the corner's legs or across it
      const j = i + 1
      expect((off.x[j] - off.x[i]) + (off.y[j] - off.y[i])).toBeGreaterThan(0)
    }
    expect(off.x[off.n - 1]).toBeCloseTo(17, 9)
    expect(off.y[0]).toBeCloseTo(3, 9)
    // a circle of radius 10 offset 15 m to its inside has no lane left
    expect(() => offsetPolyline(createPolyline(nested(stadiumPath(1, 10, 1)), true), 15)).toThrow(/options.lateralOffset/)
  })
})
