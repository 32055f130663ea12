/**
 * The multiplayer race's scene: the racing demo's circuit, grid, lap timer, slipstream and race
 * (phases and standings), put together for pitlane/colyseus. The server and every client build the
 * same track; the server alone builds the grid and runs the race, the clients receive the cars in snapshots.
 * Core-only: node (the server) and the browser (the client) both import it.
 */
import { addLapTimer, surfaceGrid, surfaces, type SimOptions } from '../../src/index'
import type { RaceScene, SceneConfig, SceneWorld } from '../../src/colyseus/client-index'
import { createTrack, SURFACE, trackPath } from '../track'
import { addCircuit, KERB } from '../race/field'
import { placeGrid } from '../racing/grid'
import { createRace } from '../racing/race'
import { addSlipstream } from '../modding/slipstream'

const track = createTrack()
const path = trackPath(track)

/** The sim options of the circuit: its surface raster (tarmac, kerb, gravel, grass). */
function simOptions(): SimOptions {
  const palette = []
  palette[SURFACE.tarmac] = surfaces.tarmac
  palette[SURFACE.kerb] = KERB
  palette[SURFACE.gravel] = surfaces.gravel
  palette[SURFACE.grass] = surfaces.grass
  return {
    surfaces: surfaceGrid({
      origin: [track.gridX0, track.gridY0], cellSize: track.gridCell, columns: track.gridColumns, rows: track.gridRows,
      palette, cells: track.grid, outside: surfaces.grass,
    }),
  }
}

/** The built-in circuit as a RaceScene: the racing demo's grid (every entrant an AI until a player takes it) and race. */
export const circuitScene: RaceScene = {
  simOptions,
  buildTrack(sim) {
    addCircuit(sim, track)
    addSlipstream(sim) // it changes how a car moves: the clients' prediction runs it too
  },
  buildGrid(sim, config: SceneConfig): SceneWorld {
    // placeGrid marks one slot as the single-player demo's player: the last slot here, and nobody is
    // "the" player in a multiplayer race (the race ends when every car is home or the window closes)
    const entrants = placeGrid(sim, track, { cars: config.cars - 1, seed: config.seed, playerSlot: config.cars - 1 })
    for (const e of entrants) e.player = false
    const timer = addLapTimer(sim, { line: track.startLine })
    const { Car } = sim.components
    const byCar = new Map(entrants.map((e) => [e.car, e]))
    const drive = (car: number) => {
      const e = byCar.get(car)
      if (!e) throw new RangeError(`car ${car} is not on this grid`)
      sim.setAi(car, path, { closed: true, maxSpeed: e.maxSpeed, lateralAccel: e.lateralAccel, lateralOffset: e.lateralOffset })
    }
    return {
      cars: entrants.map((e) => e.car),
      entrants: entrants.map((e) => ({ car: e.car, number: e.number, name: e.name, color: e.color, stripe: e.stripe })),
      drive,
      startRace: (onStart) => createRace({
        track, entrants, laps: config.laps, timer, seed: config.seed, now: () => sim.time,
        x: (car) => Car.x[car]!, y: (car) => Car.y[car]!, onStart,
      }),
    }
  },
}

/** The circuit the scene races on (the renderer draws it). */
export const circuitTrack = track
