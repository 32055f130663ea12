/**
 * Unchecked collider updates for a game that moves many colliders every frame: sim.setPose checks
 * and parses its arguments, these take plain numbers and check nothing.
 */
import type { Sim } from '../types'
import { markColliderChanged as markChanged, setColliderPoseFast as setPose } from './state'

/**
 * Moves collider `collider` of `sim` to (x, y, z) with rotation Rz(yaw)·Ry(pitch)·Rx(roll), rad.
 * Unchecked: `collider` must be a live collider of `sim` (not a car's chassis) and the numbers finite.
 */
export function setColliderPoseFast(sim: Sim, collider: number, x: number, y: number, z: number, yaw: number, pitch: number, roll: number): void {
  setPose(sim.internal.collision, collider, x, y, z, yaw, pitch, roll)
}

/**
 * Tells `sim` that collider `collider`'s fields (shape, pose, group…) were written directly in
 * `sim.components.Collider`: queries and the next broadphase update see the change. Unchecked.
 */
export function markColliderChanged(sim: Sim, collider: number): void {
  markChanged(sim.internal.collision, collider)
}
