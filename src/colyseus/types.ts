import type { CarDefinition, CarInput, Sim, SimOptions } from '../index'

/** What the server and every client agree on to build the same world (sent to each client as it joins). */
export interface SceneConfig {
  /** Cars on the grid, players and AI together. */
  cars: number
  /** Race laps. */
  laps: number
  /** Seed of the grid (order, cars, liveries, AI settings) and of the start. */
  seed: number
}

/** The race phases: 'waiting' for players, then the racing demo's grid → lights → racing → finished. */
export type RacePhase = 'waiting' | 'grid' | 'lights' | 'racing' | 'finished'

/** One row of the standings (JSON-safe: sent to the clients). */
export interface RaceStanding {
  car: number
  position: number
  laps: number
  /** Best lap, s (null before one is done). */
  bestLap: number | null
  /** Last lap, s (null before one is done). */
  lastLap: number | null
  /** Time behind the leader, s (null before the start or when not yet comparable). */
  gap: number | null
  /** Whole laps behind the leader. */
  lapsDown: number
  /** True once the car has taken the flag. */
  finished: boolean
  /** Race time at the flag, s (null before). */
  finishTime: number | null
  /** Distance raced, m (negative on the grid, behind the line). */
  distance: number
}

/** A race a scene runs (the racing demo's createRace fits it): call update() after every sim step. */
export interface SceneRace {
  readonly phase: 'grid' | 'lights' | 'racing' | 'finished'
  /** Red lights lit (0..5). */
  readonly lights: number
  /** Seconds since the lights went out (0 before). */
  raceTime(): number
  update(): void
  /** The standings, leader first. */
  standings(): RaceStanding[]
}

/** One entrant as clients draw it (JSON-safe). */
export interface SceneEntrant {
  car: number
  /** Race number. */
  number: number
  /** Three-letter name (a player's own name replaces it in the standings). */
  name: string
  /** Livery, 0xRRGGBB. */
  color: number
  stripe: number
}

/** The grid and race a scene built into the server's sim. */
export interface SceneWorld {
  /** The cars in grid order, pole first: players take them in this order, the AI drives the rest. */
  readonly cars: readonly number[]
  /** The entrants as clients draw them, in grid order. */
  readonly entrants: readonly SceneEntrant[]
  /** Hands `car` to the AI driver (its racing line and settings). */
  drive(car: number): void
  /** Starts the race now (grid, lights, racing, finished); `onStart` runs once when the lights go out. */
  startRace(onStart: () => void): SceneRace
}

/**
 * A race scene. The server builds the track and the grid; a client builds the same track (and
 * whatever else changes how a car moves, so its prediction agrees) and receives the cars in snapshots.
 */
export interface RaceScene {
  /** The options of the sim the scene is built in (its surfaces). */
  simOptions(): SimOptions
  /** Builds the track (colliders, and systems that change how cars move) into an empty sim: server and clients. */
  buildTrack(sim: Sim): void
  /** Builds the grid of `config.cars` standing cars and its race after buildTrack: the server only. */
  buildGrid(sim: Sim, config: SceneConfig): SceneWorld
}

/** Options of a PitlaneRoom (the options of Colyseus's joinOrCreate / create that make the room). */
export interface PitlaneRoomOptions {
  /** Players in the room, 1..cars (default 4). */
  maxClients?: number
  /** Cars on the grid, players and AI together, maxClients..40 (default 20). */
  cars?: number
  /** Race laps, 1..50 (default 3). */
  laps?: number
  /** Seed of the grid and the start, an integer (default: random). */
  seed?: number
  /** Seconds to wait for more players after the first joins, 0..120 (default 10); a full room starts at once. */
  wait?: number
  /** Seconds a dropped player's car is held for a reconnect, 0..300 (default 20). */
  reconnect?: number
  /** Snapshots per second, 20 or 30 (default 20). */
  snapshotRate?: number
  /** The joining player's name, up to 12 characters (a join option, not the room's). */
  name?: string
}

/** The welcome a client receives on joining (and on reconnecting), before its first snapshot. */
export interface Welcome {
  config: SceneConfig
  /** The client's car (a server entity). */
  car: number
  /** The entrants in grid order (server entities). */
  entrants: SceneEntrant[]
  /** Each entrant's car id in the client's snapshots, in grid order. */
  ids: number[]
  /** The car definitions snapshots index into (the decoder needs the same list). */
  definitions: CarDefinition[]
  /** Snapshots per second. */
  snapshotRate: number
}

/** The race as the room reports it to its clients a few times a second. */
export interface RaceReport {
  phase: RacePhase
  /** Red lights lit (0..5). */
  lights: number
  /** Seconds since the lights went out (0 before). */
  raceTime: number
  laps: number
  standings: RaceStanding[]
  /** Players' names by car. */
  players: Record<number, string>
}

/** What the room counts (for tests, dashboards and logs). */
export interface RoomStats {
  /** Sim steps taken. */
  ticks: number
  /** Snapshots sent, all clients together. */
  snapshots: number
  /** Messages refused, by session id. */
  refused: Record<string, number>
  /** Wall time of the last 600 ticks' sim step and snapshot work, ms (oldest first). */
  tickMs: number[]
  /** Seconds of backlog dropped (the process stalled for over a quarter second; the race lost that time). */
  dropped: number
}

/** A player's side of a race joined with joinRace. */
export interface RaceClient {
  /** The client's sim: its own car predicted, the others interpolated between snapshots. */
  readonly sim: Sim
  /** The client's car. */
  readonly car: number
  /** The entrants in grid order. */
  readonly entrants: readonly SceneEntrant[]
  /** The config the world was built from. */
  readonly config: SceneConfig
  /** The latest race report (phase, lights, standings), or null before the first. */
  readonly race: RaceReport | null
  /** Server tick of the latest snapshot applied (-1 before one). */
  readonly serverTick: number
  /** Server sim time of the latest snapshot applied, s. */
  readonly serverTime: number
  /** The sequence number of the latest input the server applied to the car (per the latest snapshot), -1 before one. */
  readonly lastInput: number
  /** The sequence number of the latest input sent (and predicted). */
  readonly seq: number
  /** The server time the other cars are drawn at, at local time `now` (s, default performance.now() / 1000). */
  viewTime(now?: number): number
  /**
   * Writes a car's pose to draw into out[0..6) (x, y, z, heading, roll, pitch: pitlane/net's
   * POSE_STRIDE layout): the own car predicted, the others interpolated at viewTime(now); false when unknown.
   */
  poseOf(car: number, out: Float64Array, now?: number): boolean
  /** Input messages sent. */
  readonly inputsSent: number
  /** Snapshots received. */
  readonly snapshots: number
  /** Bytes received in snapshots (payloads, before the transport's framing). */
  readonly snapshotBytes: number
  /** The Colyseus room (for its events, e.g. onLeave). */
  readonly room: unknown
  /** Sets some of the car's inputs (steer, throttle, brake, handbrake, gear): sent with every step from now on. */
  setInput(input: Partial<CarInput>): void
  /** Calls `listener` after every client step (the place to read the sim or draw). */
  onStep(listener: () => void): () => void
  /** Leaves the room and stops stepping. */
  leave(): Promise<void>
}
