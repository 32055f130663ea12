/**
 * Hosting for the racing demo: the barriers go into a Rapier world, the player's car is hosted
 * on it, and so are rivals near a moving player, so the player can hit a wall or a rival and both
 * react as rigid bodies. Distant cars stay unhosted (cheaper, and free to drop to singleTrack).
 * Rapier is stepped by pitlane inside sim.step (see docs/decisions/0004-host-substeps.md).
 *
 * Two game-design rules keep blind AI drivers from turning contact into a bulldozer: rivals only
 * collide with the player and the barriers (not with each other: their lanes are closer than a car
 * is wide), and rivals ghost through a player who is (nearly) stopped, so the field does not shove
 * a parked or crashed car down the track. A rival is only hosted once it is clear of the player.
 */
import RAPIER from '@dimforge/rapier3d-compat'
import { hasComponent, query, type World } from 'bitecs'
import type { Sim } from '../../src/index'
import { attachRapier, type RapierHost } from '../../src/rapier/index'

/** Options of addHosting (m, m/s). */
export interface DemoHostingOptions {
  /** Rivals nearer the player than this are hosted (default 25). */
  near?: number
  /** Hosted rivals farther than this are unhosted (default 40). */
  far?: number
  /** Rivals ghost while the player is slower than this (default 2). */
  minPlayerSpeed?: number
}

// Rapier interaction groups: membership << 16 | filter. Rivals (bit 1) do not filter rivals.
const RIVAL_GROUPS = (0x0002 << 16) | 0xfffd
// a rival nearer than this may overlap the player: it stays a ghost until it is clear
const CLEAR = 6

/** Starts Rapier, mirrors `barriers` into it, hosts `player`, and keeps rivals near the player hosted. */
export async function addHosting(sim: Sim, player: number, barriers: readonly number[], options: DemoHostingOptions = {}): Promise<RapierHost> {
  const near = options.near ?? 25
  const far = options.far ?? 40
  const minSpeed = options.minPlayerSpeed ?? 2
  await RAPIER.init()
  const rapier = attachRapier(sim, new RAPIER.World({ x: 0, y: 0, z: -9.81 }), RAPIER)
  for (const b of barriers) rapier.addFixed(b)
  rapier.host(player)
  const hsim = rapier.sim
  const { Car, LodFrozen } = sim.components

  // After select-lod, so a rival is hosted at the level the LOD controller gave it this step.
  function hostNearPlayer(world: World): World {
    const px = Car.x[player]!
    const py = Car.y[player]!
    const moving = Math.abs(Car.speed[player]!) >= minSpeed
    const cars = query(world, [Car])
    for (let k = 0; k < cars.length; k++) {
      const car = cars[k]!
      if (car === player) continue
      const d = Math.hypot(Car.x[car]! - px, Car.y[car]! - py)
      const hosted = hsim.hostOf(car) !== null
      if (hosted && (d > far || !moving)) hsim.clearHost(car)
      // a singleTrack rival is raised to full by setHost; a frozen one is left alone
      else if (!hosted && moving && d < near && d > CLEAR && !hasComponent(world, car, LodFrozen)) {
        hsim.setHost(car, rapier)
        rapier.colliderOf(car)!.setCollisionGroups(RIVAL_GROUPS)
      }
    }
    return world
  }
  sim.schedule.add(hostNearPlayer, { name: 'host-near-player', phase: 'lod', after: 'select-lod' })
  return rapier
}
