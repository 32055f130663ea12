/**
 * pitlane/gltf: collision meshes from a glTF scene. Reads a `@gltf-transform/core` Document (read a
 * `.glb` or `.gltf` with its NodeIO or WebIO) and returns one mesh collider per mesh node, posed in
 * pitlane's z-up world, ready for `sim.addCollider(shape, { position, rotation })`.
 * `@gltf-transform/core` is an optional peer dependency, used for its types only; the core never
 * imports this file.
 */
import type { Document, Node, Primitive } from '@gltf-transform/core'
import type { MeshShape, Surface } from '../index'
import { describe, nonNegativeNumber, optionKeys, optionsObject, positiveNumber } from '../validate'
import { nodeFrame, type NodeFrame } from './frame'

/** A triangle mesh in a collider's frame, as pitlane's `mesh(vertices, indices)` makes it. */
export interface GltfMeshShape extends MeshShape {
  /** xyz triples in the collider's frame, m. */
  vertices: Float64Array
  /** Three vertex indices a triangle. */
  indices: Uint32Array
}

/** One collider from a glTF mesh node: `sim.addCollider(c.shape, { position: c.position, rotation: c.rotation, name: c.name })`. */
export interface GltfCollider {
  /** The node's name (else its mesh's, else `node<index>` by its place in the document). */
  name: string
  /** Every TRIANGLES primitive of the node's mesh, in order, as one mesh; scale and shear baked in. */
  shape: GltfMeshShape
  /** World position of the node's origin, z-up. */
  position: [number, number, number]
  /** Row-major rotation matrix (9 numbers) of the node in the world, z-up. */
  rotation: number[]
  /** The `surface` option, when given, for `addCollider(shape, { surface })`. */
  surface?: Surface
}

/** collidersFromGltf's result: the colliders, and why anything in the scene was left out. */
export type GltfColliders = GltfCollider[] & {
  /** One line per skipped primitive or node and per ignored feature (points and lines, skins, morph targets, missing names). */
  warnings: string[]
}

/** Options of collidersFromGltf. */
export interface GltfColliderOptions {
  /** Only the nodes with these names and their descendants (default: every node of the scene). */
  nodes?: readonly string[]
  /** A surface given to every collider (see GltfCollider.surface). */
  surface?: Surface
}

/** The keys collidersFromGltf accepts. */
const OPTION_KEYS = optionKeys<GltfColliderOptions>({ nodes: true, surface: true })

// glTF primitive modes (the spec's enum) by number, for the warnings.
const MODE_NAMES = ['POINTS', 'LINES', 'LINE_LOOP', 'LINE_STRIP', 'TRIANGLES', 'TRIANGLE_STRIP', 'TRIANGLE_FAN']
const TRIANGLES = 4

/**
 * Mesh colliders from the default scene of `document` (its first scene when none is the default):
 * each node with a mesh gives one collider holding its TRIANGLES primitives (indexed or not), at
 * the node's world transform with glTF's y-up turned to pitlane's z-up (glTF (x, y, z) is pitlane
 * (x, −z, y)). Poses are rigid, so a node's scale, shear or mirror is baked into its vertices.
 * Other primitives (points, lines, strips, fans) and malformed ones are skipped with a warning.
 */
export function collidersFromGltf(document: Document, options?: GltfColliderOptions): GltfColliders {
  if (document === null || typeof document !== 'object' || typeof (document as Document).getRoot !== 'function') {
    throw new TypeError(`document must be a @gltf-transform/core Document, got ${describe(document)}`)
  }
  const o = optionsObject<GltfColliderOptions>(options, 'options', OPTION_KEYS)
  const wanted = o.nodes === undefined ? null : nodeNames(o.nodes)
  const surface = o.surface === undefined ? undefined : checkSurface(o.surface)

  const out = [] as unknown as GltfColliders
  const warnings: string[] = []
  out.warnings = warnings
  const root = document.getRoot()
  const scenes = root.listScenes()
  const scene = root.getDefaultScene() ?? scenes[0]
  if (!scene) { warnings.push('the document has no scene'); return out }
  if (scenes.length > 1) warnings.push(`${scenes.length - 1} scene(s) other than '${scene.getName()}' skipped (only the default scene is read)`)
  // a collider's name: its node's, else its mesh's, else `node<index>` by its place in the document
  const allNodes = root.listNodes()
  let place: Map<Node, number> | null = null
  const label = (node: Node) => node.getName() || node.getMesh()?.getName() || `node${(place ??= new Map(allNodes.map((n, i) => [n, i]))).get(node)}`
  const found = new Set<string>()

  const visit = (node: Node, selected: boolean): void => {
    const name = node.getName()
    if (wanted?.has(name)) { selected = true; found.add(name) }
    if (selected && node.getMesh()) {
      const collider = colliderOf(node, label(node), warnings)
      if (collider) {
        if (surface !== undefined) collider.surface = surface
        out.push(collider)
      }
    }
    for (const child of node.listChildren()) visit(child, selected)
  }
  for (const node of scene.listChildren()) visit(node, wanted === null)
  if (wanted) for (const name of wanted) if (!found.has(name)) warnings.push(`options.nodes: no node named '${name}' in the scene`)
  return out
}

/** The collider of mesh node `node`, or null (with a warning) when nothing of it can be used. */
function colliderOf(node: Node, label: string, warnings: string[]): GltfCollider | null {
  const mesh = node.getMesh()!
  const frame = nodeFrame(node.getWorldMatrix())
  if (typeof frame === 'string') { warnings.push(`node '${label}': skipped, ${frame}`); return null }
  if (node.getSkin()) warnings.push(`node '${label}': its skin is ignored (the mesh is taken as bound, at the node's transform)`)
  const parts: { vertices: Float64Array; indices: Uint32Array }[] = []
  const primitives = mesh.listPrimitives()
  for (let i = 0; i < primitives.length; i++) {
    const where = `node '${label}', mesh '${mesh.getName()}', primitive ${i}`
    const part = trianglesOf(primitives[i], frame, where, warnings)
    if (part) parts.push(part)
  }
  if (parts.length === 0) return null
  return { name: label, shape: { kind: 'mesh', ...concat(parts) }, position: frame.position, rotation: frame.rotation }
}

/** Primitive `p`'s triangles with its vertices mapped by `frame.bake`, or null (with a warning). */
function trianglesOf(p: Primitive, frame: NodeFrame, where: string, warnings: string[]): { vertices: Float64Array; indices: Uint32Array } | null {
  const mode = p.getMode()
  if (mode !== TRIANGLES) { warnings.push(`${where}: skipped, mode ${MODE_NAMES[mode] ?? mode} is not TRIANGLES`); return null }
  const position = p.getAttribute('POSITION')
  if (!position || position.getElementSize() !== 3) { warnings.push(`${where}: skipped, no VEC3 POSITION attribute`); return null }
  if (p.listTargets().length > 0) warnings.push(`${where}: morph targets ignored (the base shape is used)`)
  const count = position.getCount()
  const accessor = p.getIndices()
  const indices = accessor ? Uint32Array.from(accessor.getArray() ?? []) : identityIndices(count)
  if (indices.length % 3 !== 0) { warnings.push(`${where}: skipped, ${indices.length} indices is not a multiple of three`); return null }
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= count) { warnings.push(`${where}: skipped, index ${indices[i]} at ${i} is out of range (${count} vertices)`); return null }
  }
  if (indices.length === 0) { warnings.push(`${where}: skipped, no triangles`); return null }
  const b = frame.bake, v = [0, 0, 0]
  const vertices = new Float64Array(3 * count)
  for (let i = 0; i < count; i++) {
    position.getElement(i, v) // decodes normalised integer positions (KHR_mesh_quantization)
    const x = v[0], y = v[1], z = v[2]
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) { warnings.push(`${where}: skipped, vertex ${i} is not finite`); return null }
    vertices[3 * i] = b[0] * x + b[1] * y + b[2] * z
    vertices[3 * i + 1] = b[3] * x + b[4] * y + b[5] * z
    vertices[3 * i + 2] = b[6] * x + b[7] * y + b[8] * z
  }
  return { vertices, indices }
}

/** The indices 0 … n−1 of a non-indexed primitive (consecutive vertex triples are its triangles). */
function identityIndices(n: number): Uint32Array {
  const out = new Uint32Array(n)
  for (let i = 0; i < n; i++) out[i] = i
  return out
}

/** The parts as one vertex list and one index list (each part's indices offset by the vertices before it). */
function concat(parts: { vertices: Float64Array; indices: Uint32Array }[]): { vertices: Float64Array; indices: Uint32Array } {
  if (parts.length === 1) return parts[0]
  let nv = 0, ni = 0
  for (const p of parts) { nv += p.vertices.length; ni += p.indices.length }
  const vertices = new Float64Array(nv), indices = new Uint32Array(ni)
  let ov = 0, oi = 0
  for (const p of parts) {
    vertices.set(p.vertices, ov)
    const base = ov / 3
    for (let i = 0; i < p.indices.length; i++) indices[oi + i] = p.indices[i] + base
    ov += p.vertices.length; oi += p.indices.length
  }
  return { vertices, indices }
}

/** Validates options.nodes: an array of strings. */
function nodeNames(v: unknown): Set<string> {
  if (!Array.isArray(v)) throw new TypeError(`options.nodes must be an array of node names, got ${describe(v)}`)
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== 'string') throw new TypeError(`options.nodes[${i}] must be a string, got ${describe(v[i])}`)
  }
  return new Set(v as string[])
}

/** Validates options.surface: a Surface ({ name, grip > 0, rollingResistance ≥ 0 }). */
function checkSurface(v: unknown): Surface {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`options.surface must be a Surface { name, grip, rollingResistance }, got ${describe(v)}`)
  const s = v as Record<string, unknown>
  if (typeof s.name !== 'string') throw new TypeError(`options.surface.name must be a string, got ${describe(s.name)}`)
  positiveNumber(s.grip, 'options.surface.grip')
  nonNegativeNumber(s.rollingResistance, 'options.surface.rollingResistance')
  return v as Surface
}
