// World snapshots and replays with mesh colliders: they carry each mesh's counts and digest, a
// restore into a sim with another mesh is refused (changing nothing), an untrusted snapshot
// claiming a mesh over MESH_SNAPSHOT_MAX_TRIANGLES is refused, and a replay over a mesh (a moving
// mesh, a lidar with triangles) plays back bit for bit.
import { expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { checkWorldSnapshot, createReplayPlayer, createReplayRecorder, createSim, mesh, MESH_SNAPSHOT_MAX_TRIANGLES, restoreWorld, snapshotWorld } from '../../src/index'
import { terrainMesh } from '../../bench/mesh-scenes.mjs'

function world(amp = 2) {
  const sim = createSim(createWorld())
  const t = terrainMesh({ cells: 20, cellSize: 2, amp, seed: 1 })
  const ground = sim.addCollider(mesh(t.vertices, t.indices), { position: [0, 0, 0.5] })
  const block = sim.addCollider(mesh([0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2], [0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3]), { position: [5, 5, 3] })
  const car = sim.addCar({ position: [-10, 0], heading: 0, speed: 6 })
  sim.setInput(car, { gear: 1, throttle: 0.3 })
  const lidar = sim.addLidar({ pattern: { yawStart: 0, yawIncrement: (2 * Math.PI) / 90, yawCount: 90, pitchStart: -0.4, pitchIncrement: 0.1, pitchCount: 8 }, rangeMin: 0.3, rangeMax: 40, offset: [0, 0, 4], hz: 20, attributes: { hits: true } })
  return { sim, ground, block, car, lidar }
}

it('snapshots carry mesh colliders; a restore refuses another mesh and changes nothing', () => {
  const a = world()
  const snap = snapshotWorld(a.sim)
  const entry = snap.colliders.find((c) => c.id === a.ground)!
  expect(entry.mesh).toEqual({ triangles: 800, vertices: 441, digest: expect.any(Number) })
  expect(snap.colliders.find((c) => c.id === a.car)?.mesh).toBeUndefined()
  const text = JSON.stringify(snap)
  a.sim.setPose(a.block, [6, 5, 3])
  a.sim.stepMany(1 / 60, 20)
  restoreWorld(a.sim, JSON.parse(text))
  expect(JSON.stringify(snapshotWorld(a.sim))).toBe(text)
  // the same setup with other heights: refused, nothing changed
  const b = world(2.5)
  b.sim.stepMany(1 / 60, 5)
  const before = JSON.stringify(snapshotWorld(b.sim))
  expect(() => restoreWorld(b.sim, JSON.parse(text))).toThrow(/snap\.colliders\[\d+\]\.mesh: collider \d+ has another mesh/)
  expect(JSON.stringify(snapshotWorld(b.sim))).toBe(before)
  // untrusted input: counts over the limit or malformed are refused with the field named
  const big = JSON.parse(text)
  big.colliders.find((c: { id: number }) => c.id === a.ground).mesh.triangles = MESH_SNAPSHOT_MAX_TRIANGLES + 1
  expect(() => checkWorldSnapshot(big)).toThrow(/snap\.colliders\[\d+\]\.mesh\.triangles must be an integer in \[0, 16777216\]/)
  const bad = JSON.parse(text)
  bad.colliders.find((c: { id: number }) => c.id === a.ground).mesh.digest = 'x'
  expect(() => checkWorldSnapshot(bad)).toThrow(TypeError)
  // a mesh entry where the sim has none, and none where it has one
  const noMesh = JSON.parse(text)
  delete noMesh.colliders.find((c: { id: number }) => c.id === a.ground).mesh
  expect(() => restoreWorld(a.sim, noMesh)).toThrow(/has another mesh/)
})

it('replays over meshes play back bit for bit, lidar triangles included', () => {
  const a = world()
  const rec = createReplayRecorder(a.sim, { keyframeEvery: 40 })
  a.sim.setPose(a.block, [5, 4, 3])
  rec.keyframe()
  a.sim.stepMany(1 / 60, 100)
  const replay = JSON.parse(JSON.stringify(rec.save()))
  const end = JSON.stringify(snapshotWorld(a.sim))
  const scan = a.sim.lidarScan(a.lidar)
  expect(scan.triangles!.subarray(0, scan.count).some((t) => t >= 0)).toBe(true)
  const b = world()
  const player = createReplayPlayer(b.sim, replay)
  player.seek(55)
  player.advance(100)
  expect(JSON.stringify(snapshotWorld(b.sim))).toBe(end)
  const s2 = b.sim.lidarScan(b.lidar)
  expect(Array.from(s2.triangles!.subarray(0, s2.count))).toEqual(Array.from(scan.triangles!.subarray(0, scan.count)))
})
