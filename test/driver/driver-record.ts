import type { Sim } from '../../src/sim'
import { DRIVER_FIELDS, DRIVER_STRIDE } from '../../components/driver'

/** Car `car`'s Driver record as named fields (reads and writes go to Driver.state), for tests. */
export function driverRecord(sim: Sim, car: number): Record<string, number> {
  const view: Record<string, number> = {}
  DRIVER_FIELDS.forEach(({ name }, i) => {
    Object.defineProperty(view, name, {
      get: () => sim.components.Driver.state[car * DRIVER_STRIDE + i],
      set: (v: number) => { sim.components.Driver.state[car * DRIVER_STRIDE + i] = v },
    })
  })
  return view
}
