/** Installs vehicles into a sim: car stores, addCar, inputs, state, LOD switching, snapshots, the vehicle system. */
import type { Sim } from '../sim'

/** Vehicle state of a sim (internal). */
export interface VehicleState {
  api: {
    addCar(options?: unknown): number
    setInput(car: number, input: unknown): void
    getInput(car: number): unknown
    carState(car: number): unknown
    setLod(car: number, level: string, hz?: number): void
    getLod(car: number): { level: string; hz: number }
    snapshot(car: number): unknown
    restore(car: number, snap: unknown): void
  }
  /** Teleports a car. */
  teleport(eid: number, position: ArrayLike<number>, rotation?: ArrayLike<number>): void
}

/** Installs vehicles into `sim`. */
export function installVehicles(sim: Sim): VehicleState {
  void sim
  const todo = () => { throw new Error('not implemented yet') }
  return {
    api: { addCar: todo, setInput: todo, getInput: todo, carState: todo, setLod: todo, getLod: todo, snapshot: todo, restore: todo },
    teleport: todo,
  }
}
