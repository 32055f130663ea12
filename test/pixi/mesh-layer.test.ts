// pitlane/pixi draws mesh colliders: the outlines of their triangles from above, only those over
// the visible part of the world (plus a margin), redrawn only when a mesh or the view changes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, mesh, sphere, type Sim } from '../../src/index'
import type { Container, Graphics } from 'pixi.js'

let pixi: typeof import('pixi.js')
let createDebugRenderer: typeof import('../../src/pixi/index').createDebugRenderer

beforeAll(async () => {
  // pixi.js reads navigator when it loads, which Node 20 lacks: a stand-in for these imports only
  if (typeof navigator === 'undefined') vi.stubGlobal('navigator', { userAgent: 'node' })
  pixi = await import('pixi.js')
  createDebugRenderer = (await import('../../src/pixi/index')).createDebugRenderer
}, 60_000)
afterAll(() => vi.unstubAllGlobals())

/** A flat grid of n × n unit squares (two triangles each) from (0, 0) to (n, n) in its own frame. */
function grid(n: number): { vertices: number[]; indices: number[] } {
  const vertices: number[] = [], indices: number[] = []
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) vertices.push(i, j, 0)
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i
      indices.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1)
    }
  }
  return { vertices, indices }
}

/** Triangles of a mesh (pose: position, yaw) whose world xy box overlaps [x0, x1] × [y0, y1]: brute force. */
function overlapping(g: { vertices: number[]; indices: number[] }, pos: number[], yaw: number, x0: number, y0: number, x1: number, y1: number): number {
  const c = Math.cos(yaw), s = Math.sin(yaw)
  const wx = (k: number) => c * g.vertices[3 * k] - s * g.vertices[3 * k + 1] + pos[0]
  const wy = (k: number) => s * g.vertices[3 * k] + c * g.vertices[3 * k + 1] + pos[1]
  let n = 0
  for (let t = 0; t < g.indices.length; t += 3) {
    const xs = [0, 1, 2].map((k) => wx(g.indices[t + k])), ys = [0, 1, 2].map((k) => wy(g.indices[t + k]))
    if (Math.max(...xs) >= x0 && Math.min(...xs) <= x1 && Math.max(...ys) >= y0 && Math.min(...ys) <= y1) n++
  }
  return n
}

const yawRotation = (yaw: number) => [Math.cos(yaw), -Math.sin(yaw), 0, Math.sin(yaw), Math.cos(yaw), 0, 0, 0, 1]

/** A sim with a 40 × 40 grid mesh turned 90° about z at (100, 0), drawn at 10 px/m into a 200 × 100 px screen. */
function setup(extra: Record<string, unknown> = {}) {
  const sim: Sim = createSim(createWorld(), { ground: false })
  const g = grid(40)
  const yaw = Math.PI / 2
  const m = sim.addCollider(mesh(g.vertices, g.indices), { position: [100, 0, 0], rotation: yawRotation(yaw), name: 'terrain' })
  sim.addCollider(sphere(1), { position: [0, 0, 0] })
  const camera: Container = new pixi.Container()
  camera.scale.set(10)
  const screen = { x: 0, y: 0, width: 200, height: 100 }
  const r = createDebugRenderer(sim, camera, { screen, cars: false, lidars: false, colliderColors: { terrain: 0x00ff00 }, ...extra })
  const layer = r.container.children.find((c) => c.label === 'pitlane-meshes') as Graphics
  const clear = vi.spyOn(layer, 'clear')
  /** Puts world point (x, y) at the screen's top-left corner (the root flips y). */
  const look = (x: number, y: number) => camera.position.set(-10 * x, 10 * y)
  /** The world rectangle drawn around the view with top-left (x, y) at 10 px/m: the view plus half its size each side. */
  const expected = (x: number, y: number) => overlapping(g, [100, 0], yaw, x - 10, y - 10 - 5, x + 20 + 10, y + 5)
  return { sim, m, g, yaw, r, layer, clear, look, expected, camera }
}

describe('pitlane/pixi: mesh colliders', () => {
  it('outlines only the triangles over the view and its margin, the count matching a brute-force overlap test', () => {
    const { r, look, expected } = setup()
    look(70, 20) // view x ∈ [70, 90], y ∈ [10, 20]: the grid covers x ∈ [60, 100], y ∈ [0, 40]
    r.update()
    const want = expected(70, 20)
    expect(want).toBeGreaterThan(100)
    expect(want).toBeLessThan(2 * 40 * 40)
    expect(r.meshTriangles).toBe(want)
  })

  it('does not redraw while the view stays inside the region drawn, and redraws when it leaves it, zooms or the mesh moves', () => {
    const { sim, m, r, clear, look, expected, camera, g } = setup()
    look(70, 20)
    r.update()
    const first = clear.mock.calls.length
    for (let i = 0; i < 10; i++) r.update()
    look(74, 22) // a small pan, still inside the margin
    r.update()
    expect(clear.mock.calls.length).toBe(first)
    look(90, 35) // out of it
    r.update()
    expect(clear.mock.calls.length).toBe(first + 1)
    expect(r.meshTriangles).toBe(expected(90, 35))
    camera.scale.set(40) // 4× closer: thinner lines, a smaller region
    r.update()
    expect(clear.mock.calls.length).toBe(first + 2)
    sim.setPose(m, [90, 5, 0], yawRotation(Math.PI / 2))
    camera.scale.set(10)
    look(70, 20)
    r.update()
    expect(r.meshTriangles).toBe(overlapping(g, [90, 5], Math.PI / 2, 60, 5, 100, 25))
  })

  it('draws the outline where the triangle is: the layer’s bounds are its world box, a pixel of line around', () => {
    const sim = createSim(createWorld(), { ground: false })
    sim.addCollider(mesh([0, 0, 0, 4, 0, 0, 0, 2, 3], [0, 1, 2]), { position: [10, 20, 5], rotation: yawRotation(Math.PI / 2) })
    const camera = new pixi.Container()
    camera.scale.set(10)
    const r = createDebugRenderer(sim, camera, {})
    r.update()
    expect(r.meshTriangles).toBe(1)
    const layer = r.container.children.find((c) => c.label === 'pitlane-meshes') as Graphics
    const b = layer.getLocalBounds()
    // turned 90°: local (4, 0) → world (10, 24), local (0, 2) → world (8, 20); line 0.1 m wide
    const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(0.05 + 1e-9)
    near(b.minX, 8); near(b.maxX, 10); near(b.minY, 20); near(b.maxY, 24)
  })

  it('forgets a removed mesh (ids are recycled at once: a new mesh at that id is drawn afresh), and caps the outlines per redraw', () => {
    const sim = createSim(createWorld(), { ground: false })
    const g = grid(10)
    const a = sim.addCollider(mesh(g.vertices, g.indices))
    const r = createDebugRenderer(sim, new pixi.Container(), { maxMeshTriangles: 150 })
    r.update()
    expect(r.meshTriangles).toBe(150)
    sim.remove(a)
    r.update()
    expect(r.meshTriangles).toBe(0)
    const b = sim.addCollider(mesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]))
    expect(b).toBe(a)
    r.update()
    expect(r.meshTriangles).toBe(1)
    r.destroy()
  })

  it('refuses bad options naming them', () => {
    const sim = createSim(createWorld())
    const parent = new pixi.Container()
    expect(() => createDebugRenderer(sim, parent, { screen: { x: 0, y: 0, width: 'wide' } as never })).toThrow(/options\.screen\.width must be a number/)
    expect(() => createDebugRenderer(sim, parent, { screen: 5 as never })).toThrow(TypeError)
    expect(() => createDebugRenderer(sim, parent, { maxMeshTriangles: -1 })).toThrow(RangeError)
    expect(() => createDebugRenderer(sim, parent, { maxMeshTriangles: -1 })).toThrow(/options\.maxMeshTriangles/)
  })
})
