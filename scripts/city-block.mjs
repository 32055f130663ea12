// `node scripts/city-block.mjs`: writes examples/assets/city-block.glb, the example glTF asset of
// pitlane/gltf (a city block: rolling ground, buildings in a turned group, a tower with a spire as
// a child node, a ramp, and lane markings as lines, which the importer skips with a warning).
// y-up as glTF is; exact arithmetic only (no trig), so every run writes the same bytes.
import { Document, NodeIO, Primitive } from '@gltf-transform/core'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Where the asset is kept in the repository. */
export const CITY_BLOCK_PATH = fileURLToPath(new URL('../examples/assets/city-block.glb', import.meta.url))

/** Ground: CELLS × CELLS squares over SIZE m, flat within FLAT m of the centre, rising to RISE m at the edge. */
const CELLS = 48, SIZE = 120, FLAT = 36, RISE = 4
/** Buildings (glTF frame, in the group's frame): name, translation of the footprint's centre, size [x, height, z]. */
const BUILDINGS = [
  ['Building.00', [-20, 0, -15], [12, 18, 10]],
  ['Building.01', [-5, 0, -15], [10, 12, 12]],
  ['Building.02', [10, 0, -15], [14, 24, 10]],
  ['Building.03', [-20, 0, 12], [12, 9, 14]],
  ['Building.04', [12, 0, 12], [10, 15, 10]],
]
// 30° about glTF +y: (0, sin 15°, 0, cos 15°), with sin 15° = (√6 − √2)/4 and cos 15° = (√6 + √2)/4.
const TURN_30 = [0, (Math.sqrt(6) - Math.sqrt(2)) / 4, 0, (Math.sqrt(6) + Math.sqrt(2)) / 4]
// −90° about glTF +y.
const TURN_MINUS_90 = [0, -Math.SQRT1_2, 0, Math.SQRT1_2]

/** The ground's height at (x, z): 0 in the middle, a smooth rise (quadratic) towards the edge. */
function groundHeight(x, z) {
  const d = Math.max(Math.abs(x), Math.abs(z))
  if (d <= FLAT) return 0
  const s = (d - FLAT) / (SIZE / 2 - FLAT)
  return RISE * s * s
}

/** The city block as a glTF-Transform Document. */
export function buildCityBlock() {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const accessor = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer)
  const primitive = (positions, indices, mode = Primitive.Mode.TRIANGLES) => {
    const p = doc.createPrimitive().setMode(mode).setAttribute('POSITION', accessor('VEC3', new Float32Array(positions)))
    if (indices) p.setIndices(accessor('SCALAR', new Uint16Array(indices)))
    return p
  }
  const mesh = (name, ...prims) => {
    const m = doc.createMesh(name)
    for (const p of prims) m.addPrimitive(p)
    return m
  }

  // Ground: a grid of (CELLS + 1)² vertices, two triangles a cell.
  const n = CELLS + 1, step = SIZE / CELLS
  const ground = [], groundIdx = []
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const x = -SIZE / 2 + i * step, z = -SIZE / 2 + j * step
      ground.push(x, groundHeight(x, z), z)
    }
  }
  for (let j = 0; j < CELLS; j++) {
    for (let i = 0; i < CELLS; i++) {
      const a = j * n + i, b = a + 1, c = a + n, d = c + 1
      groundIdx.push(a, c, b, b, c, d)
    }
  }

  // A unit building: x and z in [−0.5, 0.5], y in [0, 1]; a node's scale gives its size.
  const cube = [-0.5, 0, -0.5, 0.5, 0, -0.5, 0.5, 0, 0.5, -0.5, 0, 0.5, -0.5, 1, -0.5, 0.5, 1, -0.5, 0.5, 1, 0.5, -0.5, 1, 0.5]
  const cubeIdx = [0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1, 1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0]
  const buildingMesh = mesh('BuildingBox', primitive(cube, cubeIdx))

  // A ramp 4 m wide, rising 1 m over 8 m along its local +z.
  const ramp = [-2, 0, 0, 2, 0, 0, 2, 0, 8, -2, 0, 8, -2, 1, 8, 2, 1, 8]
  const rampIdx = [0, 2, 1, 0, 3, 2, 0, 1, 5, 0, 5, 4, 3, 4, 5, 3, 5, 2, 0, 4, 3, 1, 2, 5]

  // Lane markings: dashes 3 m long every 6 m along the road at glTF z = 28 (lines, not triangles).
  const dashes = []
  for (let x = -48; x < 48; x += 6) dashes.push(x, 0.02, 28, x + 3, 0.02, 28)

  const root = doc.createNode('CityBlock')
  root.addChild(doc.createNode('Ground').setMesh(mesh('Ground', primitive(ground, groundIdx))))
  const group = doc.createNode('Buildings').setTranslation([4, 0, -2]).setRotation(TURN_30)
  for (const [name, t, s] of BUILDINGS) group.addChild(doc.createNode(name).setMesh(buildingMesh).setTranslation(t).setScale(s))
  // The spire is the tower's child: its translation and scale are in the tower's (scaled) frame,
  // so it stands 10 m tall on the 40 m roof.
  const tower = doc.createNode('Tower').setMesh(buildingMesh).setTranslation([-4, 0, 12]).setScale([8, 40, 8])
  tower.addChild(doc.createNode('Tower.Spire').setMesh(buildingMesh).setTranslation([0, 1, 0]).setScale([0.25, 0.25, 0.25]))
  group.addChild(tower)
  root.addChild(group)
  root.addChild(doc.createNode('Ramp').setMesh(mesh('Ramp', primitive(ramp, rampIdx))).setTranslation([30, 0, 28]).setRotation(TURN_MINUS_90))
  root.addChild(doc.createNode('Markings').setMesh(mesh('Markings', primitive(dashes, undefined, Primitive.Mode.LINES))))
  const scene = doc.createScene('CityBlock').addChild(root)
  doc.getRoot().setDefaultScene(scene)
  return doc
}

/** The city block as .glb bytes. */
export async function cityBlockGlb() {
  return new NodeIO().writeBinary(buildCityBlock())
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bytes = await cityBlockGlb()
  writeFileSync(CITY_BLOCK_PATH, bytes)
  console.log(`wrote ${CITY_BLOCK_PATH} (${bytes.length} bytes)`)
}
