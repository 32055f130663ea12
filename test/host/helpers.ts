/** Test helpers for hosted cars: a sim with a Rapier world attached, and a bare Rapier world. */
import RAPIER from '@dimforge/rapier3d-compat'
import { createWorld } from 'bitecs'
import { createSim, type SimOptions } from '../../src/index'
import { attachRapier, type HostedSim, type RapierHost, type RapierHostOptions } from '../../src/rapier/index'

let ready: Promise<void> | null = null

/** Initialises Rapier once per test file. */
export function initRapier(): Promise<void> {
  if (!ready) ready = RAPIER.init()
  return ready
}

/** A sim with a fresh Rapier world (no gravity needed: chassis bodies move in the plane) attached. */
export function hostedSim(options?: SimOptions, hostOptions?: RapierHostOptions): { sim: HostedSim; rapier: RapierHost; world: InstanceType<typeof RAPIER.World> } {
  const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 })
  const rapier = attachRapier(createSim(createWorld(), options), world, RAPIER, hostOptions)
  return { sim: rapier.sim, rapier, world }
}

/** Adds a fixed box to a Rapier world: centre (x, y, z), half extents (hx, hy, hz). */
export function addWall(world: InstanceType<typeof RAPIER.World>, x: number, y: number, z: number, hx: number, hy: number, hz: number): void {
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(x, y, z))
  world.createCollider(RAPIER.ColliderDesc.cuboid(hx, hy, hz), body)
}

/** Relative difference |a − b| / max(|b|, floor). */
export function rel(a: number, b: number, floor = 1e-9): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), floor)
}

export { RAPIER }
