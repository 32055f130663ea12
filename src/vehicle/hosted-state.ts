/** Per-sim hosting state: the hosts in the order they joined, the host of each car, scratch for the hosted step. */
import { Not, registerQuery, type Query } from 'bitecs'
import type { Sim } from '../types'
import type { VehicleState } from './install'
import type { InstalledLodController, LodState } from '../lod/install'
import type { SimClock } from '../clock'
import { Hosted, type VehicleHost } from './host'

/** Hosting state of one sim (internal). */
export interface HostingState {
  /** The vehicle domain's state. */
  vehicles: VehicleState
  /** The lod domain's state (hosted cars are external on its installed controller). */
  lod: LodState
  /** The sim clock (the host step's dt). */
  clock: SimClock
  /** Every host registered with this sim, in registration order (the order they step in). */
  hosts: VehicleHost[]
  /** The host of each car by entity id, or null. */
  hostOf: (VehicleHost | null)[]
  /** Per car: 1 while its host holds it frozen. */
  frozen: number[]
  /** The LodController hosted cars were last marked external on. */
  marked: InstalledLodController | null
  /** Per car: the controller hosting marked it external on (null: not marked by hosting). */
  markedBy: (InstalledLodController | null)[]
  /** Scratch: the cars of one host this step, and the substeps each owes. */
  cars: Int32Array
  /** Scratch: substeps owed, parallel to cars. */
  owed: Int32Array
  /** Scratch chassis state. */
  chassis: Float64Array
  /** Registered query: running hosted cars (not frozen). Call commitRemovals first. */
  running: Query
  /** Fills `cars` with the entries of `list` carried by `host`; returns how many. */
  collect(list: ArrayLike<number>, host: VehicleHost): number
}

const states = new WeakMap<Sim, HostingState>()

/** The hosting state of `sim`, or undefined before enableHosting. */
export function hostingState(sim: Sim): HostingState | undefined {
  return states.get(sim)
}

/** Creates (once) the hosting state of `sim`. */
export function createHostingState(sim: Sim): HostingState {
  const hs: HostingState = {
    vehicles: sim.internal.vehicles,
    lod: sim.internal.lod,
    clock: sim.internal.clock,
    hosts: [],
    hostOf: [],
    frozen: [],
    marked: null,
    markedBy: [],
    cars: new Int32Array(64),
    owed: new Int32Array(64),
    chassis: new Float64Array(6),
    running: registerQuery(sim.world, [sim.components.Car, Hosted, Not(sim.components.LodFrozen)]),
    collect(list, host) {
      if (hs.cars.length < list.length) {
        let cap = hs.cars.length
        while (cap < list.length) cap *= 2
        hs.cars = new Int32Array(cap)
        hs.owed = new Int32Array(cap)
      }
      const hostOf = hs.hostOf
      const model = sim.components.Car.model
      let n = 0
      for (let k = 0; k < list.length; k++) {
        const eid = list[k]
        // a hosted car is four-wheel whenever it runs (setHost and setLod keep it so)
        if (hostOf[eid] === host && model[eid] === 0) hs.cars[n++] = eid
      }
      return n
    },
  }
  states.set(sim, hs)
  return hs
}

/** Marks hosted car `eid` external on `controller`, remembering the mark unless the car already had one. */
export function markExternalFor(hs: HostingState, controller: InstalledLodController, eid: number): void {
  if (controller.isExternal(eid)) return
  controller.markExternal(eid)
  hs.markedBy[eid] = controller
}
