// pitlane/gltf's collidersFromGltf: geometry lands where glTF's axes and node transforms say
// (hand-derived positions, and glTF-Transform's own world matrices for random hierarchies),
// skipped primitives warn, options are validated.
import { describe, expect, it } from 'vitest'
import { Document, NodeIO, Primitive, type Node } from '@gltf-transform/core'
import { collidersFromGltf, type GltfCollider } from '../../src/gltf/index'
import { mat3RotationError } from '../../src/math/index'
import { surfaces } from '../../src/index'
import { seededRandom } from '../random'

/** A document with one buffer, and a helper to add a mesh of `positions` (glTF frame) to a new node. */
function scene() {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const sc = doc.createScene('main')
  doc.getRoot().setDefaultScene(sc)
  const primitive = (positions: number[], indices?: number[], mode: number = Primitive.Mode.TRIANGLES) => {
    const p = doc.createPrimitive().setMode(mode as never)
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(positions)).setBuffer(buffer))
    if (indices) p.setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(indices)).setBuffer(buffer))
    return p
  }
  const meshNode = (name: string, ...prims: Primitive[]) => {
    const mesh = doc.createMesh(`${name}-mesh`)
    for (const p of prims) mesh.addPrimitive(p)
    return doc.createNode(name).setMesh(mesh)
  }
  return { doc, sc, primitive, meshNode }
}

/** World position of every vertex of collider `c`: R · v + p. */
function worldPoints(c: GltfCollider): number[][] {
  const { vertices: v } = c.shape, R = c.rotation, p = c.position
  const out: number[][] = []
  for (let i = 0; i < v.length; i += 3) {
    out.push([0, 1, 2].map((r) => R[3 * r] * v[i] + R[3 * r + 1] * v[i + 1] + R[3 * r + 2] * v[i + 2] + p[r]))
  }
  return out
}

function expectClose(actual: number[][], expected: number[][], tol = 1e-12): void {
  expect(actual.length).toBe(expected.length)
  for (let i = 0; i < actual.length; i++) for (let k = 0; k < 3; k++) expect(Math.abs(actual[i][k] - expected[i][k])).toBeLessThan(tol)
}

// A unit quad in glTF's x–z plane at height y = 2: two triangles, (0,2,0) (1,2,0) (1,2,1) (0,2,1).
const QUAD = [0, 2, 0, 1, 2, 0, 1, 2, 1, 0, 2, 1]
const QUAD_INDICES = [0, 2, 1, 0, 3, 2]

describe('collidersFromGltf: axes', () => {
  it('puts a quad in glTF’s x–z plane at y = 2 at pitlane z = 2, glTF +z towards pitlane −y', () => {
    const { doc, sc, primitive, meshNode } = scene()
    sc.addChild(meshNode('quad', primitive(QUAD, QUAD_INDICES)))
    const cs = collidersFromGltf(doc)
    expect(cs.warnings).toEqual([])
    expect(cs).toHaveLength(1)
    expect(cs[0].name).toBe('quad')
    expect(cs[0].shape.kind).toBe('mesh')
    expect(Array.from(cs[0].shape.indices)).toEqual(QUAD_INDICES)
    expectClose(worldPoints(cs[0]), [[0, 0, 2], [1, 0, 2], [1, -1, 2], [0, -1, 2]])
    expect(cs[0].position).toEqual([0, 0, 0])
    expect(mat3RotationError(cs[0].rotation)).toBeLessThan(1e-15)
  })

  it('reads a non-indexed primitive as consecutive vertex triples', () => {
    const { doc, sc, primitive, meshNode } = scene()
    const flat = QUAD_INDICES.flatMap((i) => QUAD.slice(3 * i, 3 * i + 3))
    sc.addChild(meshNode('soup', primitive(flat)))
    const [c] = collidersFromGltf(doc)
    expect(Array.from(c.shape.indices)).toEqual([0, 1, 2, 3, 4, 5])
    expectClose(worldPoints(c), [[0, 0, 2], [1, -1, 2], [1, 0, 2], [0, 0, 2], [0, -1, 2], [1, -1, 2]])
  })

  it('decodes normalised integer positions (KHR_mesh_quantization style)', () => {
    const { doc, sc, meshNode } = scene()
    const acc = doc.createAccessor().setType('VEC3').setNormalized(true).setArray(new Int16Array([0, 0, 0, 32767, 0, 0, 0, 32767, 0]))
    const prim = doc.createPrimitive().setAttribute('POSITION', acc)
    sc.addChild(meshNode('q', prim).setScale([4, 4, 4]))
    const [c] = collidersFromGltf(doc)
    expectClose(worldPoints(c), [[0, 0, 0], [4, 0, 0], [0, 0, 4]])
  })
})

describe('collidersFromGltf: node transforms', () => {
  it('composes a hierarchy: parent turned 90° about glTF y and moved, child moved and stretched', () => {
    const { doc, sc, primitive, meshNode } = scene()
    const s = Math.SQRT1_2
    const parent = doc.createNode('parent').setTranslation([10, 0, 0]).setRotation([0, s, 0, s])
    const child = meshNode('child', primitive([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2])).setTranslation([0, 0, -2]).setScale([2, 1, 1])
    parent.addChild(child)
    sc.addChild(parent)
    const [c] = collidersFromGltf(doc)
    // Child frame: (x, y, z) → (2x, y, z − 2); parent: 90° about +y takes (x, z) to (z, −x), then + (10, 0, 0).
    // (0,0,0) → (0,0,−2) → (−2,0,0) → (8,0,0);  (1,0,0) → (2,0,−2) → (−2,0,−2) → (8,0,−2);
    // (0,1,0) → (0,1,−2) → (−2,1,0) → (8,1,0). pitlane (x, −z, y):
    expectClose(worldPoints(c), [[8, 0, 0], [8, 2, 0], [8, 0, 1]], 1e-6)
    expectClose([c.position], [[8, 0, 0]], 1e-6)
    // The pose is rigid: the stretch is in the vertices (the child's x axis is pitlane +y, length 2).
    expect(mat3RotationError(c.rotation)).toBeLessThan(1e-12)
    const v = c.shape.vertices
    expect(Math.hypot(v[3] - v[0], v[4] - v[1], v[5] - v[2])).toBeCloseTo(2, 6)
  })

  it('agrees with glTF-Transform’s own world matrices over random TRS hierarchies (mirrors and shear included)', () => {
    const rnd = seededRandom(31)
    const r = (a: number, b: number) => a + (b - a) * rnd()
    for (let trial = 0; trial < 40; trial++) {
      const { doc, sc, primitive, meshNode } = scene()
      const pts = Array.from({ length: 9 }, () => r(-3, 3))
      let parent: Node | null = null
      const depth = 1 + Math.floor(rnd() * 4)
      let leaf!: Node
      for (let d = 0; d < depth; d++) {
        const n: Node = d === depth - 1 ? meshNode(`n${d}`, primitive(pts, [0, 1, 2])) : doc.createNode(`n${d}`)
        const q = [r(-1, 1), r(-1, 1), r(-1, 1), r(-1, 1)]
        const len = Math.hypot(...q)
        const sign = () => (rnd() < 0.2 ? -1 : 1)
        n.setTranslation([r(-50, 50), r(-50, 50), r(-50, 50)]).setRotation(q.map((x) => x / len) as [number, number, number, number])
          .setScale([sign() * r(0.3, 3), sign() * r(0.3, 3), sign() * r(0.3, 3)])
        if (parent) parent.addChild(n)
        else sc.addChild(n)
        parent = n
        leaf = n
      }
      const cs = collidersFromGltf(doc)
      expect(cs.warnings).toEqual([])
      expect(cs).toHaveLength(1)
      const m = leaf.getWorldMatrix()
      const expected: number[][] = []
      for (let i = 0; i < 9; i += 3) {
        const g = [0, 1, 2].map((k) => m[k] * pts[i] + m[4 + k] * pts[i + 1] + m[8 + k] * pts[i + 2] + m[12 + k])
        expected.push([g[0], -g[2], g[1]])
      }
      // f32 vertex data read back: compare with the values stored in the accessor
      const stored = Array.from(new Float32Array(pts))
      const exact: number[][] = []
      for (let i = 0; i < 9; i += 3) {
        const g = [0, 1, 2].map((k) => m[k] * stored[i] + m[4 + k] * stored[i + 1] + m[8 + k] * stored[i + 2] + m[12 + k])
        exact.push([g[0], -g[2], g[1]])
      }
      expectClose(worldPoints(cs[0]), exact, 1e-9)
      expectClose(worldPoints(cs[0]), expected, 1e-3)
      expect(mat3RotationError(cs[0].rotation)).toBeLessThan(1e-12)
    }
  })

  it('gives each instance of a shared mesh its own collider, in scene order, with its own pose', () => {
    const { doc, sc, primitive, meshNode } = scene()
    const a = meshNode('a', primitive(QUAD, QUAD_INDICES)).setTranslation([5, 0, 0])
    const b = doc.createNode('b').setMesh(a.getMesh()).setTranslation([0, 0, 5])
    sc.addChild(a).addChild(b)
    const cs = collidersFromGltf(doc)
    expect(cs.map((c) => c.name)).toEqual(['a', 'b'])
    expectClose([cs[0].position, cs[1].position], [[5, 0, 0], [0, -5, 0]])
  })

  it('skips a node scaled to zero, with a warning', () => {
    const { doc, sc, primitive, meshNode } = scene()
    sc.addChild(meshNode('hidden', primitive(QUAD, QUAD_INDICES)).setScale([0, 0, 0]))
    sc.addChild(meshNode('shown', primitive(QUAD, QUAD_INDICES)))
    const cs = collidersFromGltf(doc)
    expect(cs.map((c) => c.name)).toEqual(['shown'])
    expect(cs.warnings).toEqual([expect.stringMatching(/node 'hidden'.*singular/)])
  })
})

describe('collidersFromGltf: primitives, names, options', () => {
  it('joins a node’s TRIANGLES primitives into one mesh and skips the others with a warning naming them', () => {
    const { doc, sc, primitive, meshNode } = scene()
    const lines = primitive([0, 0, 0, 1, 0, 0], undefined, Primitive.Mode.LINES)
    const points = primitive([0, 0, 0], undefined, Primitive.Mode.POINTS)
    const strip = primitive([0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1], undefined, Primitive.Mode.TRIANGLE_STRIP)
    const second = primitive([5, 0, 0, 6, 0, 0, 5, 0, 1], [0, 1, 2])
    sc.addChild(meshNode('road', primitive(QUAD, QUAD_INDICES), lines, second, points, strip))
    const cs = collidersFromGltf(doc)
    expect(cs).toHaveLength(1)
    expect(Array.from(cs[0].shape.indices)).toEqual([...QUAD_INDICES, 4, 5, 6])
    expect(cs[0].shape.vertices.length).toBe(21)
    expect(cs.warnings).toEqual([
      "node 'road', mesh 'road-mesh', primitive 1: skipped, mode LINES is not TRIANGLES",
      "node 'road', mesh 'road-mesh', primitive 3: skipped, mode POINTS is not TRIANGLES",
      "node 'road', mesh 'road-mesh', primitive 4: skipped, mode TRIANGLE_STRIP is not TRIANGLES",
    ])
  })

  it('gives no collider for a node with only lines, and skips malformed triangles with a warning', () => {
    const { doc, sc, primitive, meshNode } = scene()
    sc.addChild(meshNode('markings', primitive([0, 0, 0, 1, 0, 0], undefined, Primitive.Mode.LINES)))
    sc.addChild(meshNode('bad-index', primitive(QUAD, [0, 1, 9])))
    sc.addChild(meshNode('bad-count', primitive(QUAD, [0, 1, 2, 3])))
    sc.addChild(meshNode('bad-vertex', primitive([0, 0, 0, NaN, 0, 0, 0, 0, 1])))
    const cs = collidersFromGltf(doc)
    expect(cs).toHaveLength(0)
    expect(cs.warnings).toHaveLength(4)
    expect(cs.warnings[1]).toMatch(/bad-index.*index 9 at 2 is out of range \(4 vertices\)/)
    expect(cs.warnings[2]).toMatch(/bad-count.*4 indices is not a multiple of three/)
    expect(cs.warnings[3]).toMatch(/bad-vertex.*vertex 1 is not finite/)
  })

  it('names a collider by its node, else its mesh, else its place among the nodes', () => {
    const { doc, sc, primitive } = scene()
    doc.createNode('empty')
    sc.addChild(doc.createNode('').setMesh(doc.createMesh('kerb').addPrimitive(primitive(QUAD, QUAD_INDICES))))
    sc.addChild(doc.createNode('').setMesh(doc.createMesh('').addPrimitive(primitive(QUAD, QUAD_INDICES))))
    expect(collidersFromGltf(doc).map((c) => c.name)).toEqual(['kerb', 'node2'])
  })

  it('keeps only the named nodes and their descendants, and warns of a name not found', () => {
    const { doc, sc, primitive, meshNode } = scene()
    const group = doc.createNode('Buildings')
    group.addChild(meshNode('b1', primitive(QUAD, QUAD_INDICES))).addChild(meshNode('b2', primitive(QUAD, QUAD_INDICES)))
    sc.addChild(group).addChild(meshNode('ground', primitive(QUAD, QUAD_INDICES))).addChild(meshNode('tree', primitive(QUAD, QUAD_INDICES)))
    expect(collidersFromGltf(doc).map((c) => c.name)).toEqual(['b1', 'b2', 'ground', 'tree'])
    const some = collidersFromGltf(doc, { nodes: ['Buildings', 'ground', 'Trees'] })
    expect(some.map((c) => c.name)).toEqual(['b1', 'b2', 'ground'])
    expect(some.warnings).toEqual(["options.nodes: no node named 'Trees' in the scene"])
    expect(collidersFromGltf(doc, { nodes: [] })).toHaveLength(0)
  })

  it('reads the default scene only, saying so when there are others', () => {
    const { doc, sc, primitive, meshNode } = scene()
    sc.addChild(meshNode('in-main', primitive(QUAD, QUAD_INDICES)))
    doc.createScene('other').addChild(meshNode('in-other', primitive(QUAD, QUAD_INDICES)))
    const cs = collidersFromGltf(doc)
    expect(cs.map((c) => c.name)).toEqual(['in-main'])
    expect(cs.warnings).toEqual(["1 scene(s) other than 'main' skipped (only the default scene is read)"])
    const empty = collidersFromGltf(new Document())
    expect(empty).toHaveLength(0)
    expect(empty.warnings).toEqual(['the document has no scene'])
  })

  it('passes `surface` to every collider', () => {
    const { doc, sc, primitive, meshNode } = scene()
    sc.addChild(meshNode('a', primitive(QUAD, QUAD_INDICES))).addChild(meshNode('b', primitive(QUAD, QUAD_INDICES)))
    const cs = collidersFromGltf(doc, { surface: surfaces.gravel })
    expect(cs.map((c) => c.surface)).toEqual([surfaces.gravel, surfaces.gravel])
    expect('surface' in collidersFromGltf(doc)[0]).toBe(false)
  })

  it('refuses bad arguments with an error naming them, leaving the document as it was', async () => {
    const { doc, sc, primitive, meshNode } = scene()
    sc.addChild(meshNode('a', primitive(QUAD, QUAD_INDICES)))
    const before = await new NodeIO().writeBinary(doc)
    const bad: [unknown, unknown, ErrorConstructor, RegExp][] = [
      [null, undefined, TypeError, /^document must be a @gltf-transform\/core Document/],
      [{}, undefined, TypeError, /^document must be/],
      [doc, 5, TypeError, /^options must be an object/],
      [doc, { node: ['a'] }, RangeError, /^options\.node is not an option \(expected one of nodes, surface\)/],
      [doc, { nodes: 'a' }, TypeError, /^options\.nodes must be an array/],
      [doc, { nodes: ['a', 3] }, TypeError, /^options\.nodes\[1\] must be a string/],
      [doc, { surface: 'gravel' }, TypeError, /^options\.surface must be a Surface/],
      [doc, { surface: { name: 'x', grip: 0, rollingResistance: 0 } }, RangeError, /^options\.surface\.grip must be > 0/],
      [doc, { surface: { name: 'x', grip: 1, rollingResistance: NaN } }, RangeError, /^options\.surface\.rollingResistance must be finite/],
    ]
    for (const [d, o, type, message] of bad) {
      expect(() => collidersFromGltf(d as Document, o as never)).toThrow(type)
      expect(() => collidersFromGltf(d as Document, o as never)).toThrow(message)
    }
    expect(await new NodeIO().writeBinary(doc)).toEqual(before)
  })
})
