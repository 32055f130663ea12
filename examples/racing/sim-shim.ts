/**
 * TEMPORARY: the sim reads the demo needs before `sim.time` and `sim.carDefinition(car)` are public
 * API. The one place that looks at `sim.internal`; deleted once they land on main.
 */
import type { CarDefinition, Sim } from '../../src/index'

/** Simulated time, s. */
export const simTime = (sim: Sim): number => sim.internal.time

/** The car's definition. */
export const carDefinition = (sim: Sim, car: number): CarDefinition => sim.internal.vehicles.defs[car]!.def
