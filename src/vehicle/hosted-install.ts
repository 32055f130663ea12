/**
 * enableHosting: gives a sim `setHost` / `clearHost` / `hostOf`, the step-hosted-cars and
 * mark-hosted-external systems, and keeps hosts in step with what else can move a car: setLod
 * (a hosted car may be frozen, never reduced to singleTrack), setPose, restore and removal.
 */
import { addComponent, hasComponent, observe, onRemove, removeComponent } from 'bitecs'
import type { Sim } from '../types'
import { assertEntity } from '../entity'
import { describe } from '../validate'
import { decodeSnapshot } from './snapshot'
import { Hosted, type HostingApi, type VehicleHost } from './host'
import { createHostingState, hostingState, markExternalFor, type HostingState } from './hosted-state'
import { chassisOfCar, pullChassis, stepHostedCars } from './hosted-step'
import { markHostedExternal } from './hosted-lod'

/** A sim with hosting enabled. */
export type HostedSim = Sim & HostingApi

const HOST_METHODS = ['attach', 'detach', 'read', 'write', 'applyImpulse', 'setFrozen', 'step'] as const

/** Throws unless `host` looks like a VehicleHost. */
export function assertHost(host: unknown, name = 'host'): VehicleHost {
  if (host === null || typeof host !== 'object') throw new TypeError(`${name} must be a VehicleHost (e.g. from attachRapier), got ${describe(host)}`)
  const h = host as Record<string, unknown>
  for (const m of HOST_METHODS) if (typeof h[m] !== 'function') throw new TypeError(`${name}.${m} must be a function (a VehicleHost), got ${describe(h[m])}`)
  if (h.rate !== 'host' && h.rate !== 'substep') throw new RangeError(`${name}.rate must be 'host' or 'substep', got ${describe(h.rate)}`)
  if (typeof h.stepsWithSim !== 'boolean') throw new TypeError(`${name}.stepsWithSim must be a boolean, got ${describe(h.stepsWithSim)}`)
  if (h.rate === 'substep' && !h.stepsWithSim) throw new RangeError(`${name}.rate 'substep' needs ${name}.stepsWithSim true (pitlane steps the host between substeps)`)
  return host as VehicleHost
}

/** Enables hosting on `sim` (once; later calls return the same sim) and registers `host`, if given. */
export function enableHosting(sim: Sim, host?: VehicleHost): HostedSim {
  const hsim = sim as HostedSim
  // validated before anything is installed
  const h = host === undefined ? undefined : assertHost(host)
  let hs = hostingState(sim)
  if (hs === undefined) {
    hs = createHostingState(sim)
    install(hsim, hs)
  }
  if (h !== undefined) registerHost(hs, h)
  return hsim
}

function registerHost(hs: HostingState, host: VehicleHost): void {
  if (hs.hosts.indexOf(host) < 0) hs.hosts.push(host)
}

function install(sim: HostedSim, hs: HostingState): void {
  const world = sim.world
  const C = sim.components.Car
  const vs = hs.vehicles
  const scratch = new Float64Array(6)

  function carOf(car: unknown, name = 'car'): number {
    const eid = assertEntity(sim, car, name)
    if (!hasComponent(world, eid, C) || !vs.defs[eid]) throw new RangeError(`${name} ${eid} is not a car of this sim`)
    return eid
  }
  const hostOfCar = (car: unknown): VehicleHost | null => (typeof car === 'number' ? hs.hostOf[car] ?? null : null)

  // The host's frozen state follows the car's level.
  function syncFrozen(eid: number): void {
    const host = hs.hostOf[eid]
    if (!host) return
    const frozen = C.level[eid] === 2 ? 1 : 0
    if ((hs.frozen[eid] ?? 0) === frozen) return
    hs.frozen[eid] = frozen
    host.setFrozen(eid, frozen === 1, chassisOfCar(C, eid, scratch))
  }

  function setHost(car: number, host: VehicleHost): void {
    const eid = carOf(car)
    const h = assertHost(host)
    const d = vs.defs[eid]!
    if (!d.fourWheel) throw new RangeError(`car ${eid} runs the single-track model at full (definition.model '${d.def.model}'): only four-wheel cars can be hosted`)
    const current = hs.hostOf[eid]
    if (current === h) return
    if (current) clearHost(eid)
    // a singleTrack car goes up first: the hosted step needs the four-wheel model
    if (C.level[eid] === 1 || C.level[eid] === 3) setLod(eid, 'full')
    registerHost(hs, h)
    const frozen = C.level[eid] === 2
    h.attach(eid, chassisOfCar(C, eid, scratch), { mass: d.mass, ixx: d.ixx, iyy: d.iyy, izz: d.iz }, frozen)
    hs.hostOf[eid] = h
    hs.frozen[eid] = frozen ? 1 : 0
    addComponent(world, eid, Hosted)
    const controller = hs.lod.controller
    if (controller) markExternalFor(hs, controller, eid)
  }

  function clearHost(car: number): void {
    const eid = carOf(car)
    const host = hs.hostOf[eid]
    if (!host) return
    // the host may have moved the body since the last step (a game stepping it itself)
    if (C.level[eid] !== 2) {
      host.read(eid, scratch)
      pullChassis(C, eid, scratch)
    }
    host.detach(eid)
    hs.hostOf[eid] = null
    hs.frozen[eid] = 0
    removeComponent(world, eid, Hosted)
    // the external mark hosting gave goes with it (a mark the user gave stays)
    const marked = hs.markedBy[eid]
    hs.markedBy[eid] = null
    if (marked) marked.unmarkExternal(eid)
  }

  const setLod = sim.setLod
  sim.setLod = (car, level, hz) => {
    if ((level === 'singleTrack' || level === 'path') && hostOfCar(car)) {
      throw new RangeError(`car ${car} is hosted (sim.setHost): it may be frozen but not reduced to ${level}; call sim.clearHost(car) first`)
    }
    setLod(car, level, hz)
    syncFrozen(car)
  }
  const setPose = sim.setPose
  sim.setPose = (eid, position, rotation) => {
    setPose(eid, position, rotation)
    const host = hostOfCar(eid)
    if (host) host.write(eid, chassisOfCar(C, eid, scratch))
  }
  const restore = sim.restore
  sim.restore = (car, snap) => {
    const host = hostOfCar(car)
    if (host) {
      const eid = carOf(car)
      const level = decodeSnapshot(vs.defs[eid]!, snap).level
      if (level === 1 || level === 3) {
        throw new RangeError(`car ${eid} is hosted (sim.setHost): a ${level === 1 ? 'singleTrack' : 'path'} snapshot cannot be restored on it; call sim.clearHost(car) first`)
      }
    }
    restore(car, snap)
    if (host) {
      host.write(car, chassisOfCar(C, car, scratch))
      syncFrozen(car)
    }
  }
  // Removal (sim.remove or a raw removeEntity) takes the chassis body off its host.
  observe(world, onRemove(C), (eid: number) => {
    const host = hs.hostOf[eid]
    if (!host) return
    hs.hostOf[eid] = null
    hs.frozen[eid] = 0
    hs.markedBy[eid] = null
    host.detach(eid)
  })

  sim.setHost = setHost
  sim.clearHost = clearHost
  sim.hostOf = (car) => hs.hostOf[carOf(car)] ?? null
  sim.schedule.add(markHostedExternal(hs), { name: 'mark-hosted-external', phase: 'lod', before: 'select-lod' })
  sim.schedule.add(stepHostedCars(hs), { name: 'step-hosted-cars', phase: 'vehicle', after: 'step-vehicles' })
}
