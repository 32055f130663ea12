/**
 * step-hosted-cars (phase 'vehicle', after 'step-vehicles'): hosted four-wheel cars take their
 * substeps on the host's chassis state and hand the velocity change back as impulses; then the
 * host steps (when pitlane steps it) and the cars read its result. See docs/decisions/0004.
 */
import { commitRemovals, type World } from 'bitecs'
import type { CarStore } from '../../components/car'
import type { System } from '../../systems/schedule'
import { createGroundContact, prepareGround } from './ground-contact'
import { stepOnGround } from './step-on-ground'
import { createSubstep } from './substep'
import { MAX_HOST_STEP } from '../../systems/step-vehicles'
import type { VehicleHost } from './host'
import type { HostingState } from './hosted-state'

// substeps within this fraction of a whole one are taken now (the same rule as step-vehicles)
const EPS = 1e-6
const TWO_PI = 2 * Math.PI
const step = createSubstep()
// what is under the hosted car being stepped (its wheels stand on terrain as an unhosted car's do)
const ground = createGroundContact()

/** Host chassis state (world velocity) → car `eid`'s planar fields; heading stays unwrapped. */
export function pullChassis(C: CarStore, eid: number, s: Float64Array): void {
  const old = C.heading[eid]
  let dpsi = s[2] - old
  dpsi -= TWO_PI * Math.round(dpsi / TWO_PI)
  const psi = old + dpsi
  const c = Math.cos(psi)
  const sn = Math.sin(psi)
  const vx = c * s[3] + sn * s[4]
  const vy = -sn * s[3] + c * s[4]
  C.x[eid] = s[0]
  C.y[eid] = s[1]
  C.heading[eid] = psi
  C.vx[eid] = vx
  C.vy[eid] = vy
  C.yawRate[eid] = s[5]
  const v = Math.sqrt(vx * vx + vy * vy)
  C.speed[eid] = vx < 0 ? -v : v
}

/** Car `eid`'s planar fields → a chassis state `out` (world velocity). */
export function chassisOfCar(C: CarStore, eid: number, out: Float64Array): Float64Array {
  const psi = C.heading[eid]
  const c = Math.cos(psi)
  const sn = Math.sin(psi)
  out[0] = C.x[eid]
  out[1] = C.y[eid]
  out[2] = psi
  out[3] = c * C.vx[eid] - sn * C.vy[eid]
  out[4] = sn * C.vx[eid] + c * C.vy[eid]
  out[5] = C.yawRate[eid]
  return out
}

// How many substeps car `eid` owes for host step dt; advances its accumulator and clock (as step-vehicles does).
function substepsOwed(C: CarStore, eid: number, dt: number): number {
  const hz = C.hz[eid]
  const h = 1 / hz
  let acc = C.acc[eid] + (dt < MAX_HOST_STEP ? dt : MAX_HOST_STEP) * hz
  let t = C.time[eid]
  let n = 0
  while (acc >= 1 - EPS) { acc -= 1; t += h; n++ }
  C.acc[eid] = acc
  C.time[eid] = t
  return n
}

// Takes n four-wheel substeps of car `eid` on its chassis state and applies the velocity change.
// `fresh`: the car already holds the host's current state (read back after the host's last step),
// so no read is needed; the impulse still adds to whatever else moved the body since.
function runCar(sim: HostingState, host: VehicleHost, C: CarStore, eid: number, n: number, fresh: boolean): void {
  const vs = sim.vehicles
  const d = vs.defs[eid]!
  const s = sim.chassis
  if (fresh) chassisOfCar(C, eid, s)
  else {
    host.read(eid, s)
    pullChassis(C, eid, s)
  }
  step.h = 1 / C.hz[eid]
  step.gravity = vs.gravity
  // on terrain the wheels cast for the ground each substep, as step-vehicles does for unhosted cars
  ground.groundZ = vs.groundZ
  ground.span = n * step.h
  prepareGround(vs.collision, C, d, eid, ground)
  stepOnGround(vs.collision, C, d, eid, ground, vs.surfaces, step, n)
  const psi = C.heading[eid]
  const c = Math.cos(psi)
  const sn = Math.sin(psi)
  const vxw = c * C.vx[eid] - sn * C.vy[eid]
  const vyw = sn * C.vx[eid] + c * C.vy[eid]
  host.applyImpulse(eid, d.mass * (vxw - s[3]), d.mass * (vyw - s[4]), d.iz * (C.yawRate[eid] - s[5]))
  // the speed until the host's result is read (a game stepping the host itself reads it next step)
  const v = Math.sqrt(vxw * vxw + vyw * vyw)
  C.speed[eid] = C.vx[eid] < 0 ? -v : v
}

// Every hosted car reads the host's chassis result.
function readBack(hs: HostingState, host: VehicleHost, C: CarStore, count: number): void {
  const s = hs.chassis
  for (let k = 0; k < count; k++) {
    const eid = hs.cars[k]
    host.read(eid, s)
    pullChassis(C, eid, s)
  }
}

/** The system over the hosting state `hs`. */
export function stepHostedCars(hs: HostingState): System {
  return (world) => stepHosted(world, hs, hs.clock.dt)
}

/** Steps every running hosted car on its host, and steps the hosts pitlane drives. */
function stepHosted(world: World, hs: HostingState, dt: number): World {
  const C = hs.vehicles.Car
  commitRemovals(world)
  const list = hs.running.dense
  const hosts = hs.hosts
  for (let j = 0; j < hosts.length; j++) {
    const host = hosts[j]
    // this host's running four-wheel cars, in query order, with the substeps each owes
    const count = hs.collect(list, host)
    const cars = hs.cars
    const owed = hs.owed
    let most = 0
    for (let k = 0; k < count; k++) {
      const n = substepsOwed(C, cars[k], dt)
      owed[k] = n
      if (n > most) most = n
    }
    if (host.rate === 'host') {
      // a host pitlane steps was read back at the end of the last step (or set by attach, write, thaw)
      const fresh = host.stepsWithSim
      for (let k = 0; k < count; k++) runCar(hs, host, C, cars[k], owed[k], fresh)
      if (!host.stepsWithSim) continue
      host.step(dt)
    } else {
      // one host step per substep (of the car owing the most), each car substepping in between
      if (most === 0) host.step(dt)
      for (let i = 0; i < most; i++) {
        for (let k = 0; k < count; k++) if (owed[k] > i) runCar(hs, host, C, cars[k], 1, false)
        host.step(dt / most)
      }
    }
    readBack(hs, host, C, count)
  }
  return world
}
