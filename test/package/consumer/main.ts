// A consumer program using pitlane's public API as an installed package (test/package/consumer.test.ts
// packs pitlane, installs the tarball beside this file, typechecks it under nodenext, node16 and
// bundler, and runs it). Each @ts-expect-error line must be a type error, or the typecheck fails.
import { createEntityIndex, createWorld, query, withVersioning } from 'bitecs'
import {
  LodController, PHASES, box, capsule, createLidarScan, createReplayPlayer, createReplayRecorder, createSim, cylinder,
  enableHosting, getSim, heightfield, lidarPresets, loadReplay, pathLength, presets, restoreWorld, smoothClosedPath,
  snapshotWorld, sphere, stadiumPath, storeGeneration, surfaceGrid, surfaces,
  type AddCarOptions, type AiOptions, type CarDefinition, type CarInput, type CarState, type ColliderOptions,
  type LidarOptions, type LodLevel, type Shape, type Sim, type SimOptions,
} from 'pitlane'
import * as pitlaneApi from 'pitlane'
import { mat3FromEuler } from 'pitlane/internals'
import { collidersFromGltf, type GltfCollider } from 'pitlane/gltf'

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`consumer: ${what}`)
}

// A plain world: pitlane refuses a versioned entity index (bitecs 0.4.0's loses live entities).
const world = createWorld()
const track = surfaceGrid({ origin: [-200, -200], cellSize: 4, columns: 100, rows: 100, palette: [surfaces.tarmac, surfaces.grass] })
const simOptions: SimOptions = { gravity: 9.81, ground: { height: 0 }, surfaces: track }
const sim: Sim = createSim(world, simOptions)
check(getSim(world) === sim, 'getSim finds the sim')
check(PHASES.length === 5, 'five phases')

// Colliders of every shape.
const shapes: Shape[] = [sphere(1), box(1, 2, 0.5), capsule(0.5, 1), cylinder(0.4, 1),
  heightfield([-10, -10], 1, 3, 3, [0, 0.1, 0, 0.2, 0.3, 0.1, 0, 0, 0])]
const colliderOptions: ColliderOptions = { position: [30, 0, 1], rotation: [0, 0, 0, 1], group: 2, localId: 3, name: 'wall' }
const colliders = shapes.map((s, i) => sim.addCollider(s, { ...colliderOptions, position: [30 + 5 * i, 0, 1] }))
sim.setPose(colliders[0]!, [30, 0, 1])
const turned = new Float64Array(9)
mat3FromEuler(turned, 0, 0.3, 0, 0)
sim.setPose(colliders[1]!, [35, 0, 1], turned)
check(!('mat3FromEuler' in pitlaneApi) && !('DRIVER_STRIDE' in pitlaneApi) && 'createSim' in pitlaneApi, 'pitlane exports the user API, pitlane/internals the helpers')

// Cars, inputs, levels of detail, snapshots.
const van: CarDefinition = { ...presets.van, mass: 2600 }
const carOptions: AddCarOptions = { definition: presets.hatchback, position: [0, 0], heading: 0, speed: 5, lod: 'full' }
const car = sim.addCar(carOptions)
const other = sim.addCar({ definition: van, position: [0, 10], lod: 'singleTrack' })
const input: Partial<CarInput> = { gear: 1, throttle: 0.5, steer: 0.1 }
sim.setInput(car, input)
check(sim.getInput(car).throttle === 0.5, 'getInput')
const level: LodLevel = 'singleTrack'
sim.setLod(other, level, 240)
check(sim.getLod(other).level === 'singleTrack', 'getLod')
const snap = sim.snapshot(car)
sim.restore(car, JSON.parse(JSON.stringify(snap)))
check(sim.carDefinition(other).mass === 2600, 'carDefinition')
check(storeGeneration(sim.components.Car) >= 0, 'storeGeneration')

// A driver.
const line = smoothClosedPath([[0, 0], [120, 0], [120, 80], [0, 80]])
const ai: AiOptions = { maxSpeed: 20, lateralAccel: 5, closed: true, lookahead: 0.6 }
sim.setAi(other, line, ai)
check(sim.aiStatus(other)!.neutral, 'a driver in neutral is reported')
sim.setAi(other, line, { ...ai, shift: true }) // the van stands in neutral: the driver engages drive
check(pathLength(stadiumPath(50, 20)) > 100, 'stadiumPath')

// Lidars and rays.
const lidarOptions: LidarOptions = { ...lidarPresets.spinning16, mount: car, offset: [0, 0, 1.2], rotation: [0, 0, 0, 1], collisionMask: -1 }
const lidar = sim.addLidar(lidarOptions)
const lod = new LodController(sim, { singleTrackBeyond: 60, frozenBeyond: 300, hysteresis: 10 })
lod.pin(car)
const recorder = createReplayRecorder(sim, { keyframeEvery: 60 })

// A user system in the schedule.
let seen = 0
sim.schedule.add((w) => { seen += query(w, [getSim(w).components.Car]).length; return w }, { name: 'count-cars', phase: 'vehicle', after: 'step-vehicles' })
sim.stepMany(1 / 60, 30)
lod.update((c) => (c === car ? 0 : 100))
sim.step(1 / 60)

const state: CarState = sim.carState(car)
check(state.speed > 0 && Number.isFinite(state.position[0]!), 'the car moved')
check(sim.aiStatus(other)!.distance > 0, 'the driver drove')
check(seen === 2 * 31, 'the user system ran every step')
check(sim.lidarScan(lidar).count > 0, 'the lidar saw the ground')
const hits = sim.rayTest([30, -10, 1], [0, 1, 0], 20)
check(hits.size() === 1 && hits.at(0)!.collider === colliders[0], 'rayTest hit the sphere')
const scan = createLidarScan()
const p = lidarPresets.spinning16.pattern
sim.rayTestLidar([0, 0, 0, 1], [0, 0, 1.8], p.yawStart, p.yawIncrement, p.yawCount, p.pitchStart, p.pitchIncrement, p.pitchCount, 0.5, 100, -1, -1, -1, scan)
check(scan.count > 0, 'rayTestLidar')

const replay = loadReplay(JSON.parse(JSON.stringify(recorder.save())))
const worldSnap = snapshotWorld(sim)
restoreWorld(sim, JSON.parse(JSON.stringify(worldSnap)))
sim.clearAi(other)
check(sim.aiPath(other) === null, 'clearAi')
check(typeof enableHosting === 'function' && typeof createReplayPlayer === 'function' && replay !== undefined, 'hosting and replays exported')

// Errors as documented: a removed car's id is refused until bitecs reuses it; a versioned world is refused.
sim.remove(other)
throws(() => sim.carState(other), RangeError, 'carState of a removed car')
throws(() => sim.setAi(colliders[0]!, line), RangeError, 'setAi on a collider')
throws(() => createSim(createWorld(createEntityIndex(withVersioning()))), RangeError, 'a versioned world')

// Type errors a consumer must get, each also refused at run time:
function throws(f: () => unknown, Err: ErrorConstructor, what: string): void {
  try { f() } catch (e) { check(e instanceof Err, `${what} throws a ${Err.name}, got ${String(e)}`); return }
  throw new Error(`consumer: ${what} did not throw`)
}
// @ts-expect-error a box shape needs halfExtents, not a radius
throws(() => sim.addCollider({ kind: 'box', radius: 1 }), TypeError, 'a box with a radius')
// @ts-expect-error 'medium' is not a level of detail
throws(() => sim.setLod(car, 'medium'), RangeError, 'an unknown level')
// @ts-expect-error 'throtle' is not an input
throws(() => sim.setInput(car, { throtle: 1 }), RangeError, 'a misspelled input')
// @ts-expect-error 'positon' is not an option of addCollider
throws(() => sim.addCollider(sphere(1), { positon: [5, 5] }), RangeError, 'a misspelled collider option')

// pitlane/gltf loads without @gltf-transform/core installed (it uses only its types) and checks its argument.
let gltfRefusal = ''
try { collidersFromGltf({} as never) } catch (e) { gltfRefusal = (e as Error).message }
const gltfNames: GltfCollider['name'][] = []
check(gltfRefusal.startsWith('document must be a @gltf-transform/core Document') && gltfNames.length === 0, 'pitlane/gltf refuses a non-document')

console.log(`consumer ok: ${sim.steps} steps, car at ${state.position[0]!.toFixed(2)} m`)
