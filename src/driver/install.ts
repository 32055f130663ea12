/** Installs the path-following driver into a sim: the Driver component, setAi/aiStatus/clearAi and the input system. */
import type { Sim } from '../sim'

/** Driver state of a sim (internal). */
export interface DriverState {
  api: {
    setAi(car: number, path: unknown, options?: unknown): void
    aiStatus(car: number): unknown
    clearAi(car: number): void
  }
}

/** Installs drivers into `sim`. */
export function installDrivers(sim: Sim): DriverState {
  void sim
  const todo = () => { throw new Error('not implemented yet') }
  return { api: { setAi: todo, aiStatus: todo, clearAi: todo } }
}
