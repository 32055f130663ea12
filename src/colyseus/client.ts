/**
 * joinRace: the player's side of a PitlaneRoom. It joins (or creates) a room through Colyseus's
 * joinOrCreate, builds the same world as the server from the welcome, and then steps its own sim at
 * 60 Hz: every step sends the car's input (a pitlane/net input message) and predicts the car at
 * once; every snapshot is decoded, acknowledged, and the prediction replays the inputs the server
 * has not applied yet; the other cars are drawn between snapshots by the interpolation.
 */
import { createWorld } from 'bitecs'
import { createSim, type CarInput } from '../index'
import { createPrediction, createInterpolation, createSnapshotDecoder } from '../net/index'
import { MSG_ACK, MSG_INPUT, MSG_RACE, MSG_SNAPSHOT, MSG_WELCOME, encodeTick } from './protocol'
import { readReport } from './report'
import { TICK_SECONDS } from './tick'
import type { RaceClient, RaceReport, RaceScene, SceneEntrant, Welcome } from './types'

/** The part of a Colyseus SDK room joinRace uses. */
interface SdkRoom {
  sessionId: string
  onMessage(type: number, cb: (payload: unknown) => void): unknown
  sendBytes(type: number, bytes: Uint8Array): void
  leave(consented?: boolean): Promise<number>
  onLeave: (cb: (code: number) => void) => unknown
  onReconnect: (cb: () => void) => unknown
}

/** The part of a Colyseus SDK client joinRace uses. */
interface SdkClient {
  joinOrCreate(roomName: string, options?: Record<string, unknown>): Promise<unknown>
}

/** Options of joinRace: `scene` and `delay` stay on the client; every other key goes to joinOrCreate (PitlaneRoomOptions). */
export interface JoinRaceOptions extends Record<string, unknown> {
  /** The scene the room races (the same one the server's room class sets). */
  scene: RaceScene
  /** Interpolation delay of the other cars, s (default 0.1: two snapshots at 20 Hz). */
  delay?: number
}

const HOLD_PHASES = new Set(['waiting', 'grid', 'lights'])
const INPUT_KEYS = new Set(['steer', 'throttle', 'brake', 'handbrake', 'clutch', 'gear'])

/** `report` with its cars (server entities) as the client's local entities. */
function localReport(report: RaceReport, local: ReadonlyMap<number, number>): RaceReport {
  const players: Record<number, string> = {}
  for (const [car, name] of Object.entries(report.players)) players[local.get(Number(car)) ?? -1] = name
  return { ...report, players, standings: report.standings.map((s) => ({ ...s, car: local.get(s.car) ?? -1 })) }
}

/** Joins or creates a room `roomName` through the Colyseus client `client`; resolves once the world is built. */
export async function joinRace(client: SdkClient, roomName: string, options: JoinRaceOptions): Promise<RaceClient> {
  if (client === null || typeof client !== 'object' || typeof (client as SdkClient).joinOrCreate !== 'function') throw new TypeError('client must be a Colyseus SDK Client')
  if (typeof roomName !== 'string' || roomName.length === 0) throw new TypeError('roomName must be a non-empty string')
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object with a scene')
  const { scene, delay = 0.1, ...joinOptions } = options
  if (!scene || typeof scene.buildTrack !== 'function' || typeof scene.simOptions !== 'function') throw new TypeError('options.scene must be a RaceScene ({ simOptions, buildTrack, buildGrid })')
  if (typeof delay !== 'number' || !(delay >= 0 && delay <= 1)) throw new RangeError(`options.delay must be in [0, 1] s, got ${String(delay)}`)

  const room = (await client.joinOrCreate(roomName, joinOptions)) as SdkRoom
  // messages that come before the world is built wait in `early`
  const early: Uint8Array[] = []
  let wire: unknown = null
  let welcome: Welcome | null = null
  let ready = false
  let wake: (() => void) | null = null
  room.onMessage(MSG_WELCOME, (w) => { welcome = w as Welcome; if (ready) onWelcome(); wake?.() })
  room.onMessage(MSG_SNAPSHOT, (b) => { if (ready) onSnapshot(b as Uint8Array); else { early.push(b as Uint8Array); wake?.() } })
  room.onMessage(MSG_RACE, (w) => { wire = w })
  const until = async (done: () => boolean) => { while (!done()) await new Promise<void>((resolve) => { wake = resolve }) }
  await until(() => welcome !== null && early.length > 0)

  const sim = createSim(createWorld(), scene.simOptions())
  scene.buildTrack(sim)
  let w = welcome as unknown as Welcome
  const decoder = createSnapshotDecoder(sim, { definitions: w.definitions })
  const first = early.shift()!
  decoder.decode(first) // the full snapshot that follows the welcome: every car
  const car = decoder.ownCar
  if (car < 0) throw new RangeError('the first snapshot did not name the client\'s car')
  const prediction = createPrediction(sim, car, { dt: TICK_SECONDS })
  const interpolation = createInterpolation(sim, { delay })
  interpolation.record(decoder.time, performance.now() / 1000)
  // server entity → local entity, from the ids the welcome gives each entrant
  const local = new Map<number, number>()
  const entrants: SceneEntrant[] = w.entrants.map((e, i) => {
    const mine = decoder.localCar(w.ids[i])
    local.set(e.car, mine)
    return { ...e, car: mine }
  })
  const listeners = new Set<() => void>()
  // in first gear from the start (the grid's cars stand in gear); the user sets the rest
  const input: CarInput = { steer: 0, throttle: 0, brake: 0, handbrake: 0, clutch: 0, gear: 1 }
  let report: RaceReport | null = null
  let reportWire: unknown = null
  let snapshots = 1, snapshotBytes = first.length, inputsSent = 0

  function onSnapshot(bytes: Uint8Array): void {
    let tick: number
    try {
      tick = decoder.decode(bytes)
    } catch (e) {
      console.warn('pitlane: a snapshot was refused:', e instanceof Error ? e.message : e)
      return
    }
    snapshots++
    snapshotBytes += bytes.length
    prediction.reconcile(decoder.lastInput)
    interpolation.record(decoder.time, performance.now() / 1000)
    room.sendBytes(MSG_ACK, encodeTick(tick))
  }
  function onWelcome(): void {
    w = welcome as unknown as Welcome // a reconnect: the same car and ids; the snapshots go on
  }
  ready = true
  for (const b of early.splice(0)) onSnapshot(b)
  room.sendBytes(MSG_ACK, encodeTick(decoder.tick))

  let last = performance.now()
  let acc = 0
  let stopped = false
  const step = () => {
    if (wire !== reportWire) {
      reportWire = wire
      try { report = localReport(readReport(wire), local) } catch { /* not a report: keep the last one */ }
    }
    const hold = HOLD_PHASES.has(report?.phase ?? 'waiting')
    room.sendBytes(MSG_INPUT, prediction.input(hold ? { ...input, throttle: 0, brake: 1, handbrake: 0 } : input))
    inputsSent++
    sim.step(TICK_SECONDS)
    for (const l of listeners) l()
  }
  const timer = setInterval(() => {
    const now = performance.now()
    acc += (now - last) / 1000
    last = now
    let n = 0
    while (acc >= TICK_SECONDS && n < 6) { step(); acc -= TICK_SECONDS; n++ }
    if (n === 6) acc = 0
  }, 4)
  room.onLeave(() => { stopped = true; clearInterval(timer) })

  const rc: RaceClient = {
    sim, car, entrants, config: w.config, room,
    get race() { return report },
    get serverTick() { return decoder.tick },
    get serverTime() { return decoder.time },
    get lastInput() { return decoder.lastInput },
    get seq() { return prediction.seq },
    viewTime: (now = performance.now() / 1000) => interpolation.time(now),
    poseOf(of, out, now = performance.now() / 1000) {
      if (of !== car) {
        interpolation.update(now)
        return interpolation.poseAt(of, out)
      }
      const C = sim.components.Car
      out[0] = C.x[car]; out[1] = C.y[car]; out[2] = C.heave[car]; out[3] = C.heading[car]; out[4] = C.roll[car]; out[5] = C.pitch[car]
      return true
    },
    get inputsSent() { return inputsSent },
    get snapshots() { return snapshots },
    get snapshotBytes() { return snapshotBytes },
    setInput(next) {
      for (const k of Object.keys(next) as (keyof CarInput)[]) {
        if (!INPUT_KEYS.has(k)) throw new RangeError(`input.${String(k)} is not an input field`)
        const v = next[k]
        if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`input.${String(k)} must be a finite number, got ${String(v)}`)
        input[k] = v
      }
    },
    onStep(listener) {
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    },
    async leave() {
      if (!stopped) { stopped = true; clearInterval(timer) }
      await room.leave(true)
    },
  }
  return rc
}
