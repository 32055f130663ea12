// Shared ray scenes for benches and tests: seeded random shapes, the same scene in a pitlane sim
// and in a Rapier world, and the rays of a lidar pattern. Plain JS so both node benches (against
// dist/) and vitest (against src/) can use it: nothing here imports pitlane.
import { seededRandom, randomQuat } from './random.mjs'

/**
 * `count` random shapes (sphere, box, capsule, cylinder in turn) with random rotations, centres
 * uniform in [−size/2, size/2]² × [zMin, zMax]. Returns descriptors
 * { shape, position: [x, y, z], rotation: [qx, qy, qz, qw] } (shape as sim.addCollider takes it).
 */
export function randomShapes(count, { size = 400, zMin = 0, zMax = 4, seed = 1, minSize = 0.3, maxSize = 3 } = {}) {
  const rand = seededRandom(seed)
  const dim = () => minSize + (maxSize - minSize) * rand()
  const out = []
  for (let i = 0; i < count; i++) {
    let shape
    switch (i % 4) {
      case 0: shape = { kind: 'sphere', radius: dim() / 2 }; break
      case 1: shape = { kind: 'box', halfExtents: [dim() / 2, dim() / 2, dim() / 2] }; break
      case 2: shape = { kind: 'capsule', radius: dim() / 4, halfHeight: dim() / 2 }; break
      default: shape = { kind: 'cylinder', radius: dim() / 2, halfHeight: dim() / 2 }
    }
    const position = [(rand() - 0.5) * size, (rand() - 0.5) * size, zMin + (zMax - zMin) * rand()]
    out.push({ shape, position, rotation: randomQuat(rand) })
  }
  return out
}

/** Adds the descriptors to a pitlane sim; returns their entity ids in order. */
export function addShapesToSim(sim, shapes) {
  return shapes.map((s) => sim.addCollider(s.shape, { position: s.position, rotation: s.rotation }))
}

// Rapier's capsule and cylinder axes are local y, ours local z: rotate +90° about x first.
const Y_TO_Z = [Math.SQRT1_2, 0, 0, Math.SQRT1_2]

function quatMul(a, b) {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ]
}

/**
 * Builds the same shapes (heightfields skipped) in a new Rapier world, plus the ground as a large
 * box whose top face is z = groundHeight when groundHeight is a number. Returns
 * { world, indexOf: Map(colliderHandle → shape index, −1 for the ground) }. Call RAPIER.init() first.
 */
export function buildRapierWorld(RAPIER, shapes, groundHeight = null) {
  const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 })
  const indexOf = new Map()
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.fixed())
  shapes.forEach((s, i) => {
    const sh = s.shape
    let desc, q = s.rotation
    if (sh.kind === 'sphere') desc = RAPIER.ColliderDesc.ball(sh.radius)
    else if (sh.kind === 'box') desc = RAPIER.ColliderDesc.cuboid(sh.halfExtents[0], sh.halfExtents[1], sh.halfExtents[2])
    else if (sh.kind === 'capsule') { desc = RAPIER.ColliderDesc.capsule(sh.halfHeight, sh.radius); q = quatMul(q, Y_TO_Z) }
    else if (sh.kind === 'cylinder') { desc = RAPIER.ColliderDesc.cylinder(sh.halfHeight, sh.radius); q = quatMul(q, Y_TO_Z) }
    else return
    desc.setTranslation(s.position[0], s.position[1], s.position[2]).setRotation({ x: q[0], y: q[1], z: q[2], w: q[3] })
    const c = world.createCollider(desc, body)
    indexOf.set(c.handle, i)
  })
  if (typeof groundHeight === 'number') {
    const c = world.createCollider(RAPIER.ColliderDesc.cuboid(5000, 5000, 500).setTranslation(0, 0, groundHeight - 500), body)
    indexOf.set(c.handle, -1)
  }
  world.step() // makes the colliders visible to scene queries
  return { world, indexOf }
}

/**
 * Unit direction vectors of a lidar pattern in the world (sensor axes = world axes), yaw outer,
 * pitch inner: (cos p cos y, cos p sin y, sin p). Returns a Float64Array of xyz triples.
 */
export function lidarDirections({ yawStart = 0, yawIncrement = (2 * Math.PI) / 1024, yawCount = 1024, pitchStart = (-15 * Math.PI) / 180, pitchIncrement = (2 * Math.PI) / 180, pitchCount = 16 } = {}) {
  const out = new Float64Array(yawCount * pitchCount * 3)
  let k = 0
  for (let y = 0; y < yawCount; y++) {
    const yaw = yawStart + y * yawIncrement
    for (let p = 0; p < pitchCount; p++) {
      const pitch = pitchStart + p * pitchIncrement
      out[k++] = Math.cos(pitch) * Math.cos(yaw)
      out[k++] = Math.cos(pitch) * Math.sin(yaw)
      out[k++] = Math.sin(pitch)
    }
  }
  return out
}

/** The bench's sparse scene: 1000 mixed shapes over 400 m × 400 m, sensor at 1.8 m; the lidar bench reuses it. */
export function sparseScene({ count = 1000, size = 400, seed = 7 } = {}) {
  return { shapes: randomShapes(count, { size, seed }), sensor: [0, 0, 1.8], range: 120, pattern: { yawStart: 0, yawIncrement: (2 * Math.PI) / 1024, yawCount: 1024, pitchStart: (-15 * Math.PI) / 180, pitchIncrement: (2 * Math.PI) / 180, pitchCount: 16 } }
}

/**
 * The grid slot of car `i` of `count` spread evenly round a closed flat path [x0, y0, …], `offset`
 * m left of it: { position: [x, y], heading }.
 */
export function slotOnPath(path, i, count, offset = 0) {
  const k = Math.floor((i * path.length) / 2 / count)
  const x = path[2 * k], y = path[2 * k + 1]
  const h = Math.atan2(path[(2 * k + 3) % path.length] - y, path[(2 * k + 2) % path.length] - x)
  return { position: [x - Math.sin(h) * offset, y + Math.cos(h) * offset], heading: h }
}

/**
 * The terrain benches' rolling hills: a heightfield z = amplitude·sin(2πx/λ)·cos(2πy/λ) over
 * [origin, origin + size] (covering the full20/st200 lanes and minutes of their driving +x), as
 * heightfield() / sim.addCollider take it (and Rapier's heightfield, transposed, for
 * rapierVehicle20Terrain): { origin: [x, y, 0], cellSize, columns, rows, heights (row-major, rows along y) }.
 */
export function rollingHills({ amplitude = 3, wavelength = 80, origin = [-200, -100], size = [4200, 800], cellSize = 2 } = {}) {
  const columns = Math.round(size[0] / cellSize) + 1
  const rows = Math.round(size[1] / cellSize) + 1
  const heights = new Float64Array(columns * rows)
  const k = (2 * Math.PI) / wavelength
  for (let j = 0; j < rows; j++) {
    const cy = Math.cos(k * (origin[1] + j * cellSize))
    for (let i = 0; i < columns; i++) heights[j * columns + i] = amplitude * Math.sin(k * (origin[0] + i * cellSize)) * cy
  }
  return { origin: [origin[0], origin[1], 0], cellSize, columns, rows, heights }
}
