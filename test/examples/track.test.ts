import { describe, expect, it } from 'vitest'
import { createTrack, projectOnTrack, surfaceCodeAt, SURFACE, trackPoint, BARRIER_GAP } from '../../examples/track'

const track = createTrack()

describe('the built-in circuit', () => {
  it('is a closed, evenly spaced lap of sensible length', () => {
    expect(track.length).toBeGreaterThan(2000)
    expect(track.length).toBeLessThan(3500)
    const c = track.centre
    let minGap = Infinity, maxGap = 0
    for (let i = 0; i < track.count; i++) {
      const j = (i + 1) % track.count
      const d = Math.hypot(c[2 * j] - c[2 * i], c[2 * j + 1] - c[2 * i + 1])
      minGap = Math.min(minGap, d); maxGap = Math.max(maxGap, d)
    }
    // equal arc-length spacing, including the closing segment (chords shorten only a little on curves)
    expect(maxGap).toBeLessThan(track.spacing * 1.001)
    expect(minGap).toBeGreaterThan(track.spacing * 0.99)
  })

  it('has no corner tighter than a 30 m radius and never comes near itself', () => {
    let maxK = 0
    for (const k of track.curvature) maxK = Math.max(maxK, Math.abs(k))
    expect(1 / maxK).toBeGreaterThan(30)
    // Any two points more than 200 m apart along the lap are far enough apart that neither's run-off reaches the other.
    const c = track.centre, n = track.count
    let minSep = Infinity
    for (let i = 0; i < n; i += 3) {
      for (let j = i + 1; j < n; j += 3) {
        const along = Math.min(j - i, n - (j - i)) * track.spacing
        if (along < 200) continue
        minSep = Math.min(minSep, Math.hypot(c[2 * i] - c[2 * j], c[2 * i + 1] - c[2 * j + 1]))
      }
    }
    expect(minSep).toBeGreaterThan(2 * (track.halfWidth + BARRIER_GAP))
  })

  it('rasters tarmac on the track, kerbs at its edge in corners, gravel outside corners and grass far away', () => {
    for (let s = 0; s < track.length; s += 37) {
      const p = trackPoint(track, s, 0.8 * track.halfWidth)
      expect(surfaceCodeAt(track, p.x, p.y)).toBe(SURFACE.tarmac)
      const q = trackPoint(track, s, -0.8 * track.halfWidth)
      expect(surfaceCodeAt(track, q.x, q.y)).toBe(SURFACE.tarmac)
    }
    let kerbs = 0, gravel = 0
    for (let i = 0; i < track.count; i++) {
      const k = track.curvature[i]
      if (!track.kerb[i] || Math.abs(k) < 1 / 100) continue
      const out = -Math.sign(k)
      const p = trackPoint(track, i * track.spacing, out * (track.halfWidth + track.kerbWidth / 2))
      if (surfaceCodeAt(track, p.x, p.y) === SURFACE.kerb) kerbs++
      const g = trackPoint(track, i * track.spacing, out * (track.halfWidth + 8))
      if (surfaceCodeAt(track, g.x, g.y) === SURFACE.gravel) gravel++
    }
    expect(kerbs).toBeGreaterThan(20)
    expect(gravel).toBeGreaterThan(20)
    expect(surfaceCodeAt(track, 1e5, 1e5)).toBe(SURFACE.grass)
  })

  it('keeps barriers off the tarmac by about the barrier gap, and cones just off the edge', () => {
    expect(track.barriers.length).toBeGreaterThan(300)
    for (const b of track.barriers) expect(Math.abs(projectOnTrack(track, b.x, b.y).lateral)).toBeGreaterThan(track.halfWidth + BARRIER_GAP - 2.5)
    expect(track.cones.length).toBeGreaterThan(0)
    for (const c of track.cones) {
      const d = Math.abs(projectOnTrack(track, c.x, c.y).lateral)
      expect(d).toBeGreaterThan(track.halfWidth + track.kerbWidth)
      expect(d).toBeLessThan(track.halfWidth + track.kerbWidth + 2)
    }
  })

  it('puts the start line across the track at s = 0, left end first', () => {
    const [a, b] = track.startLine
    const pa = projectOnTrack(track, a[0], a[1]), pb = projectOnTrack(track, b[0], b[1])
    // the centreline is a polyline, so a point 23 m off a gentle curve projects within millimetres
    expect(pa.lateral).toBeCloseTo(track.halfWidth + BARRIER_GAP, 2)
    expect(pb.lateral).toBeCloseTo(-(track.halfWidth + BARRIER_GAP), 2)
    for (const p of [pa, pb]) expect(Math.min(p.s, track.length - p.s)).toBeLessThan(0.1)
  })
})
