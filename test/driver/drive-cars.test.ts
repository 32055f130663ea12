import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, type Sim } from '../../src/sim'
import { driverRecord } from './driver-record'
import { stadiumPath } from '../../src/driver/path'
import { sampleNear } from './reference/sample-near'
import { projectAll, projectNear, PROJ_DIST, PROJ_LAT, PROJ_S } from './reference/projection'
import { profileSpeedAt } from '../../src/driver/profile'
import { lookaheadDistance, pursuitCurvature, steerForCurvature } from './reference/pursuit'
import { brakeFor, speedDemand, throttleFor } from './reference/speed-control'
import {
  CURVE_I_MAX, CURVE_KI, CURVE_KP, CURVE_MIN_SPEED, FINAL_BRAKE, FINISH_RADIUS, LOST_DISTANCE, SLIP_START, STOPPED_SPEED, WINDOW_MARGIN,
} from '../../src/driver/drive'
import { driveCars } from '../../src/driver/drive-cars'

// Here the driver's step (drive-cars.ts) is composed from the reference pieces (projection, sampleNear, profileSpeedAt, speed-control, pursuit) and
// compared with the loop's result, car by car and step by step, from the same state each step.
// The loop reorders some arithmetic (the profile's acceleration kept per segment, the course left
// unnormalised), so values agree to rounding, not bit for bit; the integers exactly.

interface Expected { seg: number; s: number; distance: number; laps: number; lat: number; target: number; finished: number; speedI: number; throttle: number; brake: number; goalSeg?: number; steer?: number; curveI?: number }

/** The driver step of `car` from the sim's current state, by the reference pieces (state untouched). */
function referenceStep(sim: Sim, car: number, dt: number): Expected {
  const C = sim.components.Car, D = driverRecord(sim, car)
  const path = sim.internal.drivers.paths[car]!
  const poly = path.poly, L = poly.length
  const px = C.x[car], py = C.y[car], speed = C.speed[car]
  const proj = new Float64Array(3)
  let seg = projectNear(poly, px, py, D.seg, WINDOW_MARGIN + 2 * Math.abs(speed) * dt, proj)
  if (proj[PROJ_DIST] > LOST_DISTANCE) seg = projectAll(poly, px, py, proj)
  const s = proj[PROJ_S]
  let ds = s - D.s
  if (poly.closed) ds = ds > L / 2 ? ds - L : ds < -L / 2 ? ds + L : ds
  const distance = D.distance + ds
  let laps = D.laps
  if (poly.closed) {
    const run = distance - D.start
    if (run >= (laps + 1) * L || (laps > 0 && run < laps * L)) laps = Math.max(0, Math.floor(run / L))
  }
  const e: Expected = { seg, s, distance, laps, lat: proj[PROJ_LAT], target: D.targetSpeed, finished: D.finished, speedI: D.speedI, throttle: C.throttle[car], brake: C.brake[car] }
  if (!poly.closed) {
    if (e.finished === 0 && L - s <= FINISH_RADIUS && Math.abs(speed) < STOPPED_SPEED &&
        (poly.x[poly.n - 1] - px) ** 2 + (poly.y[poly.n - 1] - py) ** 2 <= FINISH_RADIUS ** 2) e.finished = 1
    if (e.finished === 1 || L - s <= FINAL_BRAKE) { e.target = 0; e.throttle = 0; e.brake = 1 }
    if (e.finished === 1) return e
  }
  const vx = C.vx[car], vy = C.vy[car]
  if (poly.closed || L - s > FINAL_BRAKE) {
    const accel = new Float64Array(1)
    e.target = profileSpeedAt(poly, path.profile, seg, s, accel)
    const speedI = Float64Array.of(D.speedI)
    const demand = speedDemand(speedI, 0, e.target, accel[0], speed, dt)
    e.speedI = speedI[0]
    const slip = vx > CURVE_MIN_SPEED ? Math.abs(vy - 0.5 * C.wheelbase[car] * C.yawRate[car]) / vx : 0
    const ease = slip <= SLIP_START ? 1 : slip >= 2 * SLIP_START ? 0 : 2 - slip / SLIP_START
    e.throttle = throttleFor(demand) * ease
    e.brake = brakeFor(demand) * ease
  }
  const ahead = s + Math.min(lookaheadDistance(path.options.lookahead, speed), L)
  const goal = new Float64Array(4)
  if (!poly.closed && ahead > L) {
    goal[0] = poly.x[poly.n - 1] + poly.tx[poly.segments - 1] * (ahead - L)
    goal[1] = poly.y[poly.n - 1] + poly.ty[poly.segments - 1] * (ahead - L)
    e.goalSeg = D.goalSeg
  } else e.goalSeg = sampleNear(poly, D.goalSeg, ahead, goal)
  const abs = Math.abs(speed)
  const w = abs <= CURVE_MIN_SPEED ? 0 : abs >= 2 * CURVE_MIN_SPEED ? 1 : abs / CURVE_MIN_SPEED - 1
  const h = C.heading[car]
  let ux = Math.cos(h), uy = Math.sin(h)
  if (w > 0 && vx > CURVE_MIN_SPEED) {
    const slope = Math.max(-10, Math.min(10, (w * vy) / vx))
    const n = Math.hypot(1, slope)
    ;[ux, uy] = [(ux - slope * uy) / n, (uy + slope * ux) / n]
  }
  const kappa = pursuitCurvature(px, py, ux, uy, goal[0], goal[1])
  let corr = D.curveI
  const shortfall = w > 0 ? kappa - C.yawRate[car] / speed : 0
  e.steer = steerForCurvature(kappa + corr + w * CURVE_KP * shortfall, C.wheelbase[car], C.maxSteer[car])
  if (e.steer < 1 && e.steer > -1) corr += w * CURVE_KI * shortfall * dt
  if (w < 1) corr -= corr * (1 - w) * 0.1
  e.curveI = Math.max(-CURVE_I_MAX, Math.min(CURVE_I_MAX, corr))
  return e
}

function actual(sim: Sim, car: number): Expected {
  const C = sim.components.Car, D = driverRecord(sim, car)
  return { seg: D.seg, s: D.s, distance: D.distance, laps: D.laps, lat: D.lateralError, target: D.targetSpeed, finished: D.finished,
    speedI: D.speedI, throttle: C.throttle[car], brake: C.brake[car], goalSeg: D.goalSeg, steer: C.steer[car], curveI: D.curveI }
}

describe('driveCars (the loop) against the reference pieces', () => {
  it('agrees every step: oval lanes, an open S-path to its stop, a lane of long segments, a car lost far off the line, both levels', () => {
    const sim = createSim(createWorld())
    const oval = stadiumPath(200, 50, 1)
    const sPath: number[] = []
    for (let x = 0; x <= 160; x += 2) sPath.push(x, 300 + 20 * Math.sin(x / 25))
    const cars: number[] = []
    for (let k = 0; k < 3; k++) {
      const car = sim.addCar({ position: [-100 + 30 * k, -50 + 2 * (k - 1)], heading: 0, speed: 4 * k, lod: k % 2 ? 'singleTrack' : 'full' })
      sim.setInput(car, { gear: 1 })
      sim.setAi(car, oval, { closed: true, lateralOffset: 2 * (k - 1), traffic: 'ignore' }) // (the seed's step against its reference: no traffic cap)
      cars.push(car)
    }
    const sCar = sim.addCar({ position: [0, 300], heading: 0.7, lod: 'singleTrack' })
    sim.setInput(sCar, { gear: 1 }); sim.setAi(sCar, sPath, { maxSpeed: 15, traffic: 'ignore' }); cars.push(sCar)
    const lane: number[] = [] // 3 m apart: the window is often just the hint and the next segment (narrowGap)
    for (let x = 0; x <= 900; x += 3) lane.push(x, -300 + 2 * Math.sin(x / 40))
    const laneCar = sim.addCar({ position: [0, -300], heading: 0, speed: 10, lod: 'singleTrack' })
    sim.setInput(laneCar, { gear: 1 }); sim.setAi(laneCar, lane, { maxSpeed: 14, traffic: 'ignore' }); cars.push(laneCar)
    const lost = sim.addCar({ position: [0, 0], heading: 1, lod: 'singleTrack' }) // the oval's centre: lost at first
    sim.setInput(lost, { gear: 1 }); sim.setAi(lost, oval, { closed: true, maxSpeed: 12, traffic: 'ignore' }); cars.push(lost)

    const dt = 1 / 60
    let expected: Expected[] = []
    sim.schedule.add(() => { expected = cars.map((c) => referenceStep(sim, c, dt)); return sim.world }, { name: 'reference', phase: 'input', before: 'drive-paths' })
    let worst = 0, steps = 0, finishedSteps = 0
    const mismatches: string[] = []
    sim.schedule.add(() => {
      cars.forEach((c, k) => {
        const e = expected[k], a = actual(sim, c)
        if (a.seg !== e.seg || a.laps !== e.laps || a.finished !== e.finished || (e.goalSeg !== undefined && a.goalSeg !== e.goalSeg)) {
          mismatches.push(`step ${steps} car ${c}: ${JSON.stringify(a)} vs ${JSON.stringify(e)}`)
        }
        if (e.finished === 1) finishedSteps++
        for (const key of ['s', 'distance', 'lat', 'target', 'speedI', 'throttle', 'brake', 'steer', 'curveI'] as const) {
          if (e[key] === undefined) continue
          const err = Math.abs(a[key]! - e[key]!) / Math.max(1, Math.abs(e[key]!))
          if (!(err < 1e-9)) mismatches.push(`step ${steps} car ${c} ${key}: ${a[key]} vs ${e[key]}`)
          worst = Math.max(worst, err)
        }
      })
      steps++
      return sim.world
    }, { name: 'compare', phase: 'input', after: 'drive-paths' })
    sim.stepMany(dt, 60 * 40)
    expect(steps).toBe(60 * 40)
    expect(finishedSteps).toBeGreaterThan(0) // the S-path car got to its stop
    expect(Math.abs(sim.aiStatus(lost)!.lateralError)).toBeLessThan(0.5) // and the lost one back
    expect(mismatches.slice(0, 3)).toEqual([])
    expect(worst).toBeLessThan(1e-9) // (in practice a few ulps)
  })
})

describe('driveCars narrow window (the next segment skipped when the hint is provably the closer)', () => {
  it('projects as the reference search next to the vertices of a zigzag with turns up to 80°', () => {
    const sim = createSim(createWorld())
    let seed = 7
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296)
    const pts: number[] = [0, 0]
    let heading = 0, x = 0, y = 0
    for (let i = 0; i < 60; i++) {
      heading += (rnd() * 2 - 1) * (80 * Math.PI / 180) * (i % 3 === 0 ? 1 : 0.05)
      const len = 2 + rnd()
      x += len * Math.cos(heading); y += len * Math.sin(heading)
      pts.push(x, y)
    }
    const car = sim.addCar({ position: [0, 0], speed: 0, lod: 'singleTrack' })
    sim.setAi(car, pts)
    const path = sim.internal.drivers.paths[car]!, poly = path.poly
    expect(path.poly.turnTan2).toBeGreaterThan(5) // (tan 80°² ≈ 32: the sharpest turn is steep)
    const C = sim.components.Car, D = driverRecord(sim, car)
    const proj = new Float64Array(3)
    let differ = 0, trials = 0
    for (let h = 0; h + 1 < poly.segments; h++) {
      for (let k = 0; k < 40; k++) {
        // near the hint's end: the foot from 1 m before it to 1 mm past it, on either side
        const back = k < 20 ? Math.pow(10, -6 * rnd()) : -1e-3 * rnd(), side = (rnd() * 2 - 1) * 2
        const len = poly.s[h + 1] - poly.s[h], t = len - back
        const px = poly.x[h] + poly.tx[h] * t - poly.ty[h] * side, py = poly.y[h] + poly.ty[h] * t + poly.tx[h] * side
        C.x[car] = px; C.y[car] = py; C.speed[car] = 0; C.vx[car] = 0
        D.seg = h; D.s = poly.s[h]; D.distance = 0
        const seg = projectNear(poly, px, py, h, WINDOW_MARGIN, proj)
        driveCars(sim.internal.drivers.arrays, sim.internal.drivers.paths, sim.internal.drivers.shiftTables, [car], 1 / 60)
        trials++
        if (D.seg !== seg || Math.abs(D.s - proj[PROJ_S]) > 1e-12 || Math.abs(D.lateralError - proj[PROJ_LAT]) > 1e-12) differ++
      }
    }
    expect(trials).toBeGreaterThan(2000)
    expect(differ).toBe(0)
  })
})

describe('the Driver record read by its exported offsets', () => {
  it('gives what aiStatus reports', async () => {
    const api = await import('../../src/internals')
    const sim = createSim(createWorld())
    const car = sim.addCar({ position: [0, -52], speed: 8, lod: 'singleTrack' })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, stadiumPath(200, 50, 1), { closed: true })
    sim.stepMany(1 / 60, 300)
    const R = sim.components.Driver.state, o = car * api.DRIVER_STRIDE, st = sim.aiStatus(car)!
    expect(R[o + api.DRIVER_DISTANCE]).toBe(st.distance)
    expect(R[o + api.DRIVER_LAPS]).toBe(st.laps)
    expect(R[o + api.DRIVER_LATERAL]).toBe(st.lateralError)
    expect(R[o + api.DRIVER_TARGET]).toBe(st.targetSpeed)
    expect(api.DRIVER_FIELDS.map((f) => f.name)[api.DRIVER_CURVE_I]).toBe('curveI')
    expect(api.DRIVER_FIELDS.length).toBe(api.DRIVER_STRIDE)
  })
})
