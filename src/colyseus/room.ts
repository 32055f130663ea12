/**
 * PitlaneRoom: an authoritative race on Colyseus. The room steps its own sim at a fixed 60 Hz
 * (an accumulator on the wall clock, so a late timer catches up instead of slowing the race),
 * gives each joining client the next free car of the grid, lets the AI drive the others, takes
 * only a client's own inputs for its car, and sends each client a snapshot 20 or 30 times a second,
 * delta-coded against the last one that client acknowledged. Hostile messages are refused by the
 * guard (guard.ts) and never reach the sim.
 */
import { Room, type Client } from '@colyseus/core'
import { createWorld } from 'bitecs'
import { createSim, type CarDefinition, type CarInput, type Sim } from '../index'
import { createInputReceiver, createSnapshotEncoder, type InputReceiver, type SnapshotEncoder } from '../net/index'
import { createClientGuard, type ClientGuard } from './guard'
import { resolveRoomOptions, playerName, type ResolvedRoomOptions } from './options'
import { MSG_ACK, MSG_INPUT, MSG_RACE, MSG_SNAPSHOT, MSG_WELCOME, decodeTick } from './protocol'
import { reportRace } from './report'
import { TICK_SECONDS } from './tick'
import type { RacePhase, RaceScene, RoomStats, SceneRace, SceneWorld, Welcome } from './types'

const TICK = TICK_SECONDS
/** Ticks between race reports (2 Hz), besides one on every phase change. */
const REPORT_EVERY = 30
/** Most ticks run for one timer callback (a quarter second): a longer stall is dropped rather than replayed in a burst. */
const MAX_CATCH_UP = 15
/** Tick times kept for stats(). */
const TICK_HISTORY = 600

/** A player: a client and the car it drives. */
interface Player {
  sessionId: string
  client: Client
  car: number
  name: string
  connected: boolean
  guard: ClientGuard
  /** The client's inputs, queued and applied one per tick. */
  inputs: InputReceiver
  /** The tick of the latest snapshot the client acknowledged (-1: none). */
  ack: number
  /** The client's snapshot stream (deltas against its acks). */
  encoder: SnapshotEncoder
}

const HOLD: Partial<CarInput> = { throttle: 0, brake: 1, handbrake: 0 }

/**
 * A Colyseus room racing a RaceScene: subclass it and set `scene` (examples/multiplayer does, with
 * the built-in circuit), then `server.define('race', YourRoom)`. Room options: PitlaneRoomOptions.
 */
export class PitlaneRoom extends Room {
  /** The scene raced in this room: a subclass sets it. */
  scene!: RaceScene
  /** No Colyseus state: the room sends its own binary snapshots. */
  override patchRate: number | null = null
  /** The room's sim (authoritative). */
  sim!: Sim
  /** The world the scene built. */
  world!: SceneWorld
  /** The race once started (null while waiting for players). */
  race: SceneRace | null = null
  /** The room's options as resolved. */
  settings!: ResolvedRoomOptions
  /** Logs the room's notices (refused messages, dropped players); console.warn unless replaced. */
  log: (line: string) => void = (line) => console.warn(line)

  private players = new Map<string, Player>()
  /** The players in join order, for the per-tick loops (no iterator per tick). */
  private seated: Player[] = []
  private byCar = new Map<number, Player>()
  private definitions: CarDefinition[] = []
  private ticks = 0
  private dropped = 0
  private snapshotsSent = 0
  private acc = 0
  private lastTime = 0
  private firstJoin = -1
  private lastPhase: RacePhase = 'waiting'
  private tickTimes = new Float64Array(TICK_HISTORY)
  private tickCount = 0
  private refusedGone: Record<string, number> = {}

  override async onCreate(options: unknown): Promise<void> {
    if (!this.scene) throw new TypeError('PitlaneRoom needs a scene: subclass it and set `scene`')
    await ensureWebSocketGlobal()
    this.settings = resolveRoomOptions(options)
    this.maxClients = this.settings.maxClients
    this.sim = createSim(createWorld(), this.scene.simOptions())
    this.scene.buildTrack(this.sim)
    this.world = this.scene.buildGrid(this.sim, { cars: this.settings.cars, laps: this.settings.laps, seed: this.settings.seed })
    this.definitions = uniqueDefinitions(this.sim, this.world.cars)
    this.lastTime = performance.now()
    await this.setMetadata({ cars: this.settings.cars, laps: this.settings.laps, phase: 'waiting' })
    this.onMessageBytes(MSG_INPUT, (client: Client, bytes: Uint8Array) => this.onInput(client, bytes))
    this.onMessageBytes(MSG_ACK, (client: Client, bytes: Uint8Array) => this.onAck(client, bytes))
    this.onMessage('*', (client: Client, type: string | number) => {
      const p = this.players.get(client.sessionId)
      if (!p) return
      if (!p.guard.admit(performance.now())) return p.guard.refuse('rate', 'over the message budget')
      p.guard.refuse('type', `message type ${String(type).slice(0, 40)} is not an input or an ack (as bytes)`)
    })
    // a 4 ms timer: the accumulator decides how many 60 Hz ticks are due
    this.setSimulationInterval(() => this.advance(), 4)
  }

  override onJoin(client: Client, options?: unknown): void {
    resolveRoomOptions(options) // a joining player's options are checked as the creator's (unknown keys refused)
    const free = this.world.cars.find((car) => !this.byCar.has(car))
    if (free === undefined) throw new RangeError('the grid is full')
    const entrant = this.world.entrants[this.world.cars.indexOf(free)]
    const name = playerName(options, entrant.name)
    const p: Player = {
      sessionId: client.sessionId, client, car: free, name, connected: true,
      guard: createClientGuard(client.sessionId, (line) => this.log(line)),
      inputs: createInputReceiver(this.sim, free), ack: -1,
      encoder: createSnapshotEncoder(this.sim, { definitions: this.definitions }),
    }
    this.players.set(client.sessionId, p)
    this.seated.push(p)
    this.byCar.set(free, p)
    if (this.firstJoin < 0) this.firstJoin = this.ticks
    this.welcome(p)
    this.report()
  }

  override async onDrop(client: Client): Promise<void> {
    const p = this.players.get(client.sessionId)
    if (!p) return
    p.connected = false
    // the AI keeps the car in the race while its player is away (on the grid it simply stays put)
    if (this.race && this.race.phase !== 'grid' && this.race.phase !== 'lights') this.world.drive(p.car)
    this.log(`pitlane room: client ${client.sessionId} dropped; car ${p.car} held for ${this.settings.reconnect} s, driven by the AI meanwhile`)
    await this.allowReconnection(client, this.settings.reconnect)
  }

  override onReconnect(client: Client): void {
    const p = this.players.get(client.sessionId)
    if (!p) return
    p.client = client
    p.connected = true
    p.inputs.reset() // inputs sent while away were dropped: take the next one whatever its number
    if (this.sim.aiStatus(p.car)) this.sim.clearAi(p.car)
    // the same stream goes on: a delta against the client's last ack, or a full one if the encoder no longer holds it
    this.welcome(p, false)
  }

  override onLeave(client: Client): void {
    const p = this.players.get(client.sessionId)
    if (!p) return
    this.players.delete(client.sessionId)
    this.seated.splice(this.seated.indexOf(p), 1)
    this.byCar.delete(p.car)
    if (p.guard.refused > 0) this.refusedGone[client.sessionId] = p.guard.refused
    p.encoder.dispose()
    // a car that has raced stays in the race with the AI; one still on the grid is free for the next player
    if (this.race && this.race.phase !== 'grid' && this.race.phase !== 'lights' && !this.sim.aiStatus(p.car)) this.world.drive(p.car)
  }

  /** The room's counters: ticks, snapshots, refusals per client and the latest tick times. */
  stats(): RoomStats {
    const refused: Record<string, number> = { ...this.refusedGone }
    for (const p of this.players.values()) refused[p.sessionId] = p.guard.refused
    const n = Math.min(this.tickCount, TICK_HISTORY)
    const tickMs: number[] = []
    for (let i = this.tickCount - n; i < this.tickCount; i++) tickMs.push(this.tickTimes[i % TICK_HISTORY])
    return { ticks: this.ticks, snapshots: this.snapshotsSent, refused, tickMs, dropped: this.dropped }
  }

  /** The race phase ('waiting' before the start). */
  get phase(): RacePhase {
    return this.race ? this.race.phase : 'waiting'
  }

  /** The sequence number of the latest input applied to a session's car (-1: none; undefined: no such player). */
  lastInputOf(sessionId: string): number | undefined {
    return this.players.get(sessionId)?.inputs.lastInput
  }

  /** The car of a session (undefined when it has none). */
  carOf(sessionId: string): number | undefined {
    return this.players.get(sessionId)?.car
  }

  /** Sends the welcome and (on joining) a full snapshot, which gives every car its id in this client's stream. */
  private welcome(p: Player, join = true): void {
    const snapshot = join ? p.encoder.encode(undefined, { car: p.car, lastInput: p.inputs.lastInput }) : null
    const w: Welcome = {
      config: { cars: this.settings.cars, laps: this.settings.laps, seed: this.settings.seed },
      car: p.car, entrants: this.world.entrants.slice(), ids: this.world.cars.map((car) => p.encoder.carId(car)),
      definitions: this.definitions, snapshotRate: this.settings.snapshotRate,
    }
    p.client.send(MSG_WELCOME, w)
    if (snapshot) p.client.sendBytes(MSG_SNAPSHOT, snapshot)
  }

  private onInput(client: Client, bytes: Uint8Array): void {
    const p = this.players.get(client.sessionId)
    if (!p) return
    if (!p.guard.admit(performance.now())) return p.guard.refuse('rate', 'over the message budget')
    let fresh: boolean
    try {
      fresh = p.inputs.receive(bytes)
    } catch (e) {
      return p.guard.refuse('malformed', e instanceof Error ? e.message : String(e))
    }
    if (!fresh) p.guard.refuse('order', 'an input not newer than the last one')
  }

  private onAck(client: Client, bytes: Uint8Array): void {
    const p = this.players.get(client.sessionId)
    if (!p) return
    if (!p.guard.admit(performance.now())) return p.guard.refuse('rate', 'over the message budget')
    const tick = decodeTick(bytes)
    if (tick < 0) return p.guard.refuse('size', 'an ack is 4 bytes')
    if (tick > this.ticks) return p.guard.refuse('order', `ack of tick ${tick}, a tick not sent yet (now ${this.ticks})`)
    if (tick > p.ack) p.ack = tick // an older one (a late packet) changes nothing
  }

  /** Runs the 60 Hz ticks that are due. */
  private advance(): void {
    const now = performance.now()
    this.acc += (now - this.lastTime) / 1000
    this.lastTime = now
    let n = 0
    while (this.acc >= TICK && n < MAX_CATCH_UP) {
      this.tick()
      this.acc -= TICK
      n++
    }
    if (n === MAX_CATCH_UP) { this.dropped += this.acc; this.acc = 0 }
  }

  /** Runs one 60 Hz tick now: inputs, the sim step, the race, and the snapshots when due (the room's timer calls it; a bench may). */
  tick(): void {
    const t0 = performance.now()
    this.maybeStart()
    const hold = !this.race || this.race.phase === 'grid' || this.race.phase === 'lights'
    for (let i = 0; i < this.seated.length; i++) {
      const p = this.seated[i]
      if (!p.connected) continue
      p.inputs.apply()
      if (hold) this.sim.setInput(p.car, HOLD)
    }
    this.sim.step(TICK)
    this.race?.update()
    this.ticks++
    if (this.ticks % (60 / this.settings.snapshotRate) === 0) this.sendSnapshots()
    if (this.phase !== this.lastPhase || this.ticks % REPORT_EVERY === 0) {
      if (this.phase !== this.lastPhase) void this.setMetadata({ phase: this.phase })
      this.lastPhase = this.phase
      this.report()
    }
    this.tickTimes[this.tickCount++ % TICK_HISTORY] = performance.now() - t0
  }

  private maybeStart(): void {
    if (this.race || this.firstJoin < 0) return
    const full = this.players.size >= this.maxClients
    if (!full && (this.ticks - this.firstJoin) * TICK < this.settings.wait) return
    // no more joins once the grid forms: matchmaking opens a new room for latecomers
    void this.lock()
    this.race = this.world.startRace(() => {
      for (const car of this.world.cars) {
        const p = this.byCar.get(car)
        if (!p || !p.connected) this.world.drive(car)
      }
    })
  }

  private sendSnapshots(): void {
    for (let i = 0; i < this.seated.length; i++) {
      const p = this.seated[i]
      if (!p.connected) continue
      p.client.sendBytes(MSG_SNAPSHOT, p.encoder.encode(p.ack >= 0 ? p.ack : undefined, { car: p.car, lastInput: p.inputs.lastInput }))
      this.snapshotsSent++
    }
  }

  private report(): void {
    const players: Record<number, string> = {}
    for (const p of this.players.values()) players[p.car] = p.name
    this.broadcast(MSG_RACE, reportRace(this.race, this.settings.laps, players))
  }
}

/**
 * @colyseus/core 0.18 reads the global WebSocket.OPEN when a client reconnects; Node 20 has no
 * global WebSocket, so the room sets it from `ws` (which the WebSocket transport brings) once.
 */
async function ensureWebSocketGlobal(): Promise<void> {
  const g = globalThis as { WebSocket?: unknown }
  if (g.WebSocket !== undefined) return
  const spec = 'ws'
  try {
    const ws = (await import(/* @vite-ignore */ spec)) as { WebSocket?: unknown; default?: unknown }
    g.WebSocket ??= ws.WebSocket ?? ws.default
  } catch {
    g.WebSocket ??= { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 }
  }
}

/** The distinct definitions of `cars`, in grid order (the snapshots' definition list; clients get it in the welcome). */
function uniqueDefinitions(sim: Sim, cars: readonly number[]): CarDefinition[] {
  const out: CarDefinition[] = []
  const seen = new Set<string>()
  for (const car of cars) {
    const d = sim.carDefinition(car)
    const json = JSON.stringify(d)
    if (!seen.has(json)) { seen.add(json); out.push(JSON.parse(json) as CarDefinition) }
  }
  return out
}
