// Vehicle benchmarks, ms per 60 Hz host step:
// `full20` = 20 hatchbacks, four-wheel model at 1 kHz; `st200` = 200 hatchbacks, single-track at
// 240 Hz; `rapierVehicle20` = Rapier's DynamicRayCastVehicleController on 20 chassis bodies with
// four wheels each at 1 kHz (≈16.7 controller updates + world steps per host step), on a ground
// collider: the engine a user would otherwise pick; `rapierVehicle20Terrain` the same on the
// rolling hills of `full20Terrain` (Rapier's heightfield of the same heights). Scripted inputs (throttle, a slow weave) are
// written straight into each car's input record, as the path-following driver does.
// Verified before timing: every car moved, forward, and all state is finite. The extra column
// gives the min-of-5 CPU time per step too (robust when other processes share the cores).
import RAPIER from '@dimforge/rapier3d-compat'
import { createWorld } from 'bitecs'
import { createSim, heightfield } from '../../dist/index.js'
import { rollingHills } from '../scenes.mjs'

const DT = 1 / 60
const STEPS = 6

/** Min-of-5 CPU time per host step (ms) of `steps(ctx, n)`: robust to other processes sharing the cores. */
function cpuPerStep(ctx, steps, n) {
  let best = Infinity
  for (let r = 0; r < 5; r++) {
    const u0 = process.cpuUsage()
    steps(ctx, n)
    const u = process.cpuUsage(u0)
    best = Math.min(best, (u.user + u.system) / 1000 / n)
  }
  return best
}

function lane(i, spacing) {
  return [(i % 10) * spacing, Math.floor(i / 10) * spacing]
}

/**
 * The full20/st200 scene: `n` hatchbacks on a 30 m grid heading +x at 10 m/s, at `level` (and
 * `hz`); `terrain`: on rollingHills() (no ground plane) instead of flat ground.
 */
export function pitlaneScene(n, level, hz, terrain = false) {
  const sim = createSim(createWorld(), terrain ? { ground: false } : undefined)
  if (terrain) {
    const h = rollingHills()
    sim.addCollider(heightfield(h.origin, h.cellSize, h.columns, h.rows, h.heights))
  }
  const cars = []
  for (let i = 0; i < n; i++) {
    const car = sim.addCar({ position: lane(i, 30), speed: 10, lod: level })
    if (hz) sim.setLod(car, level, hz)
    sim.setInput(car, { gear: 1 })
    cars.push(car)
  }
  return { sim, cars, t: 0, start: cars.map((c) => sim.carState(c).position) }
}

/** Runs `steps` host steps of full20's scripted inputs, written straight into the input record. */
export function pitlaneSteps(ctx, steps) {
  const { sim, cars } = ctx
  const Car = sim.components.Car
  for (let s = 0; s < steps; s++) {
    ctx.t += DT
    for (let i = 0; i < cars.length; i++) {
      const c = cars[i]
      Car.throttle[c] = 0.35 + 0.15 * Math.sin(0.3 * ctx.t + i)
      Car.steer[c] = 0.08 * Math.sin(0.5 * ctx.t + i)
    }
    sim.step(DT)
  }
  return steps
}

function verifyPitlane(ctx) {
  pitlaneSteps(ctx, 120)
  for (let i = 0; i < ctx.cars.length; i++) {
    const s = ctx.sim.carState(ctx.cars[i])
    const moved = Math.hypot(s.position[0] - ctx.start[i][0], s.position[1] - ctx.start[i][1])
    if (!(moved > 10) || !(s.speed > 5)) throw new Error(`car ${i} did not drive: moved ${moved} m, speed ${s.speed}`)
    for (const v of [...s.position, ...s.velocity, s.yawRate, ...s.wheelSpeeds, s.engineRpm]) if (!Number.isFinite(v)) throw new Error(`car ${i}: non-finite state`)
  }
  const speed = ctx.cars.reduce((a, c) => a + ctx.sim.carState(c).speed, 0) / ctx.cars.length
  ctx.extra = `cpu ${cpuPerStep(ctx, pitlaneSteps, 30).toFixed(3)} ms/step; ${ctx.cars.length} cars at ${ctx.sim.getLod(ctx.cars[0]).hz} Hz, mean speed ${speed.toFixed(1)} m/s`
}

/** verifyPitlane, and on terrain: the cars are over the hills (heights spread by metres) with wheels on them. */
function verifyTerrain(ctx) {
  verifyPitlane(ctx)
  let lo = Infinity, hi = -Infinity, onGround = 0
  for (const c of ctx.cars) {
    const s = ctx.sim.carState(c)
    lo = Math.min(lo, s.position[2]); hi = Math.max(hi, s.position[2])
    onGround += s.grounded.filter(Boolean).length
  }
  if (!(hi - lo > 2)) throw new Error(`the cars are not over the hills: heights ${lo}..${hi} m`)
  if (!(onGround >= 2 * ctx.cars.length)) throw new Error(`only ${onGround} wheels of ${4 * ctx.cars.length} on the ground`)
  ctx.extra += `; heights ${lo.toFixed(1)}..${hi.toFixed(1)} m, ${onGround} of ${4 * ctx.cars.length} wheels grounded`
}

/**
 * rollingHills() as a Rapier heightfield collider in `world`: Rapier's field lies in its local x–z
 * plane, heights along y, centred; turned +90° about x (its z is our −y, so its rows run in our
 * rows' reverse order, column-major), it splits each cell along our heightfield's diagonal (as
 * pitlane/rapier's addFixed mirrors one). Returns the height function z(x, y) of the hills.
 */
function rapierHills(world) {
  const h = rollingHills()
  const { columns, rows, cellSize, heights } = h
  const flipped = new Float32Array(columns * rows)
  for (let c = 0; c < columns; c++) for (let r = 0; r < rows; r++) flipped[r + c * rows] = heights[(rows - 1 - r) * columns + c]
  const sizeX = (columns - 1) * cellSize, sizeY = (rows - 1) * cellSize
  world.createCollider(RAPIER.ColliderDesc.heightfield(rows - 1, columns - 1, flipped, { x: sizeX, y: 1, z: sizeY })
    .setTranslation(h.origin[0] + sizeX / 2, h.origin[1] + sizeY / 2, 0)
    .setRotation({ x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 }))
  const k = (2 * Math.PI) / 80
  return (x, y) => 3 * Math.sin(k * x) * Math.cos(k * y)
}

async function rapierScene(n, terrain = false) {
  await RAPIER.init()
  const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 })
  world.timestep = 0.001
  let ground = () => 0
  if (terrain) ground = rapierHills(world)
  else world.createCollider(RAPIER.ColliderDesc.cuboid(2000, 2000, 0.5).setTranslation(0, 0, -0.5))
  const cars = []
  for (let i = 0; i < n; i++) {
    const [x, y] = lane(i, 30)
    // level, 0.7 m over the highest ground under its length (so no corner starts in a hill)
    const z = Math.max(ground(x - 2, y), ground(x, y), ground(x + 2, y)) + 0.7
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(x, y, z).setLinvel(10, 0, 0))
    world.createCollider(RAPIER.ColliderDesc.cuboid(2.0, 0.87, 0.35).setMass(1250), body)
    const vc = world.createVehicleController(body)
    vc.indexUpAxis = 2
    vc.setIndexForwardAxis = 0
    for (const [wx, wy] of [[1.28, 0.76], [1.28, -0.76], [-1.28, 0.75], [-1.28, -0.75]]) {
      vc.addWheel({ x: wx, y: wy, z: -0.1 }, { x: 0, y: 0, z: -1 }, { x: 0, y: -1, z: 0 }, 0.3, 0.3)
    }
    for (let w = 0; w < 4; w++) {
      vc.setWheelSuspensionStiffness(w, 30)
      vc.setWheelSuspensionCompression(w, 4)
      vc.setWheelSuspensionRelaxation(w, 5)
      vc.setWheelMaxSuspensionForce(w, 20000)
      vc.setWheelFrictionSlip(w, 1.1)
    }
    cars.push({ body, vc, x0: x, y0: y })
  }
  // on the hills the engine pulls as hard as the hatchback does in the low gears, so the cars climb 13° slopes too
  return { world, cars, t: 0, acc: 0, ground, engine: terrain ? 8000 : 2500 }
}

function rapierSteps(ctx, steps) {
  const { world, cars } = ctx
  for (let s = 0; s < steps; s++) {
    ctx.t += DT
    for (let i = 0; i < cars.length; i++) {
      const vc = cars[i].vc
      const throttle = 0.35 + 0.15 * Math.sin(0.3 * ctx.t + i)
      const steer = 0.08 * 0.55 * Math.sin(0.5 * ctx.t + i)
      vc.setWheelEngineForce(0, ctx.engine * throttle)
      vc.setWheelEngineForce(1, ctx.engine * throttle)
      vc.setWheelSteering(0, steer)
      vc.setWheelSteering(1, steer)
    }
    // 1 kHz substeps with a carried accumulator, as pitlane does
    ctx.acc += DT * 1000
    while (ctx.acc >= 1 - 1e-6) {
      for (let i = 0; i < cars.length; i++) cars[i].vc.updateVehicle(0.001)
      world.step()
      ctx.acc -= 1
    }
  }
  return steps
}

function verifyRapier(ctx) {
  rapierSteps(ctx, 120)
  for (let i = 0; i < ctx.cars.length; i++) {
    const c = ctx.cars[i]
    const p = c.body.translation()
    const moved = p.x - c.x0
    const above = p.z - ctx.ground(p.x, p.y) // on its wheels over the ground under it
    if (!(moved > 10) || !Number.isFinite(p.y) || !(above > 0.1 && above < 1.5)) throw new Error(`rapier car ${i} did not drive: moved ${moved} m, ${above} m over the ground`)
    let contact = 0
    for (let w = 0; w < 4; w++) if (c.vc.wheelIsInContact(w)) contact++
    if (contact < 4) throw new Error(`rapier car ${i}: ${contact} wheels on the ground`)
  }
  const speed = ctx.cars.reduce((a, c) => a + c.vc.currentVehicleSpeed(), 0) / ctx.cars.length
  ctx.extra = `cpu ${cpuPerStep(ctx, rapierSteps, 3).toFixed(3)} ms/step; ${ctx.cars.length} cars, mean speed ${speed.toFixed(1)} m/s`
}

/** verifyRapier, and on the hills: the cars' heights spread by metres. */
function verifyRapierTerrain(ctx) {
  verifyRapier(ctx)
  let lo = Infinity, hi = -Infinity
  for (const c of ctx.cars) { const z = c.body.translation().z; lo = Math.min(lo, z); hi = Math.max(hi, z) }
  if (!(hi - lo > 2)) throw new Error(`the Rapier cars are not over the hills: heights ${lo}..${hi} m`)
  ctx.extra += `; heights ${lo.toFixed(1)}..${hi.toFixed(1)} m`
}

export const cases = [
  {
    id: 'full20',
    unit: 'ms/step',
    what: '20 hatchbacks, four-wheel at 1 kHz, scripted inputs, 60 Hz host step',
    setup: () => pitlaneScene(20, 'full'),
    verify: verifyPitlane,
    run: (ctx) => pitlaneSteps(ctx, STEPS),
  },
  {
    id: 'st200',
    unit: 'ms/step',
    what: '200 hatchbacks, single-track at 240 Hz, scripted inputs, 60 Hz host step',
    setup: () => pitlaneScene(200, 'singleTrack', 240),
    verify: verifyPitlane,
    run: (ctx) => pitlaneSteps(ctx, STEPS),
  },
  {
    id: 'full20Terrain',
    unit: 'ms/step',
    what: 'full20 on rolling hills (a heightfield, amplitude 3 m, wavelength 80 m, no ground plane)',
    setup: () => pitlaneScene(20, 'full', undefined, true),
    verify: verifyTerrain,
    run: (ctx) => pitlaneSteps(ctx, STEPS),
  },
  {
    id: 'st200Terrain',
    unit: 'ms/step',
    what: 'st200 on rolling hills (a heightfield, amplitude 3 m, wavelength 80 m, no ground plane)',
    setup: () => pitlaneScene(200, 'singleTrack', 240, true),
    verify: verifyTerrain,
    run: (ctx) => pitlaneSteps(ctx, STEPS),
  },
  {
    id: 'rapierVehicle20',
    unit: 'ms/step',
    what: "Rapier DynamicRayCastVehicleController, 20 cars × 4 wheels at 1 kHz, 60 Hz host step",
    setup: () => rapierScene(20),
    verify: verifyRapier,
    run: (ctx) => rapierSteps(ctx, 1),
  },
  {
    id: 'rapierVehicle20Terrain',
    unit: 'ms/step',
    what: 'rapierVehicle20 on the rolling hills of full20Terrain (a Rapier heightfield, amplitude 3 m, wavelength 80 m)',
    setup: () => rapierScene(20, true),
    verify: verifyRapierTerrain,
    run: (ctx) => rapierSteps(ctx, 1),
  },
]
