/**
 * The replay recorder: keyframes (whole-world snapshots) plus every change to a car's input record
 * (steer, throttle, brake, handbrake, clutch, gear, level, hz) between the end of one step and the
 * start of the next (after LOD selection), in compact typed arrays. Everything else a step does
 * (drivers, models, lidars) is deterministic, so re-running the steps from a keyframe with the
 * same changes reproduces the run bit for bit.
 */
import { query } from 'bitecs'
import type { Sim } from '../types'
import { describe, optionKeys, optionsObject } from '../validate'
import { encodeF64, encodeI32 } from './codec'
import { snapshotWorld, type WorldSnapshot } from './world-snapshot'
import { readRecord, RECORD_FIELDS, replayChecksum, type ReplayData, REPLAY_FORMAT, REPLAY_VERSION } from './format'

/** Options of createReplayRecorder. */
export interface ReplayRecorderOptions {
  /** Steps between keyframes (default 600: 10 s at 60 Hz); seeking re-runs at most this many steps. */
  keyframeEvery?: number
}

/** A running recording; see createReplayRecorder. */
export interface ReplayRecorder {
  /** Steps recorded so far. */
  readonly steps: number
  /** Null while recording; otherwise why recording stopped (stop() called, or the car set changed). */
  readonly stopped: string | null
  /** Takes a keyframe before the next step: call it after any change that is not an input or level (setAi, clearAi, setPose, sim.restore, restoreWorld, addCollider). */
  keyframe(): void
  /** Stops recording and removes the recorder's systems. */
  stop(): void
  /** The recording so far as JSON-safe plain data (see loadReplay). */
  save(): ReplayData
}

let recorderCount = 0

/** Starts recording `sim` from its current state (the first keyframe is taken now). */
export function createReplayRecorder(sim: Sim, options?: ReplayRecorderOptions): ReplayRecorder {
  if (sim === null || typeof sim !== 'object' || !sim.schedule || !sim.world) throw new TypeError(`sim must be a pitlane Sim, got ${describe(sim)}`)
  const o = optionsObject<ReplayRecorderOptions>(options, 'options', optionKeys<ReplayRecorderOptions>({ keyframeEvery: true }))
  let keyframeEvery = 600
  if (o.keyframeEvery !== undefined) {
    if (typeof o.keyframeEvery !== 'number') throw new TypeError(`options.keyframeEvery must be a number, got ${describe(o.keyframeEvery)}`)
    if (!Number.isInteger(o.keyframeEvery) || o.keyframeEvery < 1) throw new RangeError(`options.keyframeEvery must be an integer >= 1, got ${o.keyframeEvery}`)
    keyframeEvery = o.keyframeEvery
  }
  const { world, components } = sim
  const carList = Array.from(query(world, [components.Car]))
  const nCars = carList.length
  const F = RECORD_FIELDS
  const prev = new Float64Array(nCars * F)
  const cur = new Float64Array(F)
  let dt = new Float64Array(1024)
  let evStep = new Int32Array(1024)
  let evCar = new Int32Array(1024)
  let evField = new Int32Array(1024)
  let evValue = new Float64Array(1024)
  let nEvents = 0
  let steps = 0
  let stopped: string | null = null
  let forceKeyframe = false
  const keyframes: { step: number; world: WorldSnapshot }[] = [{ step: 0, world: snapshotWorld(sim) }]
  const startSteps = sim.steps
  for (let i = 0; i < nCars; i++) readRecord(components.Car, carList[i], prev, i * F)

  const id = ++recorderCount
  const names = { begin: `replay-begin-${id}`, capture: `replay-capture-${id}`, end: `replay-end-${id}` }

  function pushEvent(step: number, car: number, field: number, value: number) {
    if (nEvents === evStep.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => { const b = new (a.constructor as new (n: number) => T)(a.length * 2); b.set(a as never); return b }
      evStep = grow(evStep); evCar = grow(evCar); evField = grow(evField); evValue = grow(evValue)
    }
    evStep[nEvents] = step; evCar[nEvents] = car; evField[nEvents] = field; evValue[nEvents] = value
    nEvents++
  }

  function carSetChanged(): boolean {
    const list = query(world, [components.Car])
    if (list.length !== nCars) return true
    for (let i = 0; i < nCars; i++) if (list[i] !== carList[i]) return true
    return false
  }

  // Start of a step, before LOD selection: the world as the user left it between steps.
  const begin = (w: typeof world) => {
    if (stopped) return w
    if (carSetChanged()) { stopRecording(`the set of cars changed before step ${steps} (replays keep one set of cars)`); return w }
    if (forceKeyframe || (steps > 0 && steps % keyframeEvery === 0)) {
      const k = { step: steps, world: snapshotWorld(sim) }
      if (keyframes[keyframes.length - 1].step === steps) keyframes[keyframes.length - 1] = k
      else keyframes.push(k)
      for (let i = 0; i < nCars; i++) readRecord(components.Car, carList[i], prev, i * F)
      forceKeyframe = false
    }
    return w
  }
  // After LOD selection: every change since the end of the last step is an event of this step.
  const capture = (w: typeof world) => {
    if (stopped) return w
    if (steps === dt.length) { const b = new Float64Array(dt.length * 2); b.set(dt); dt = b }
    dt[steps] = sim.dt
    const Car = components.Car
    for (let i = 0; i < nCars; i++) {
      readRecord(Car, carList[i], cur, 0)
      const base = i * F
      for (let f = 0; f < F; f++) {
        if (!Object.is(cur[f], prev[base + f])) { pushEvent(steps, i, f, cur[f]); prev[base + f] = cur[f] }
      }
    }
    return w
  }
  // End of the step: what the step itself wrote (drivers, gearbox) is not an event.
  const end = (w: typeof world) => {
    if (stopped) return w
    for (let i = 0; i < nCars; i++) readRecord(components.Car, carList[i], prev, i * F)
    steps++
    return w
  }

  function stopRecording(reason: string) {
    if (stopped) return
    stopped = reason
    sim.schedule.remove(names.begin)
    sim.schedule.remove(names.capture)
    sim.schedule.remove(names.end)
  }

  const before = sim.schedule.has('select-lod') ? { before: 'select-lod' } : {}
  const after = sim.schedule.has('select-lod') ? { after: 'select-lod' } : {}
  sim.schedule.add(begin, { name: names.begin, phase: 'lod', ...before })
  sim.schedule.add(capture, { name: names.capture, phase: 'lod', ...after })
  sim.schedule.add(end, { name: names.end, phase: 'sensors' })

  return {
    get steps() { return steps },
    get stopped() { return stopped },
    keyframe() { forceKeyframe = true },
    stop() { stopRecording('stop() was called') },
    save(): ReplayData {
      const data: Omit<ReplayData, 'checksum'> = {
        format: REPLAY_FORMAT,
        version: REPLAY_VERSION,
        startStep: startSteps,
        steps,
        cars: carList.slice(),
        dt: encodeF64(dt.subarray(0, steps)),
        keyframes: keyframes.map((k) => ({ step: k.step, world: k.world })),
        events: {
          count: nEvents,
          step: encodeI32(evStep.subarray(0, nEvents)),
          car: encodeI32(evCar.subarray(0, nEvents)),
          field: encodeI32(evField.subarray(0, nEvents)),
          value: encodeF64(evValue.subarray(0, nEvents)),
        },
      }
      // Keyframes are shared with the recorder's list: a deep copy keeps later edits of the result apart.
      const copy = JSON.parse(JSON.stringify(data)) as Omit<ReplayData, 'checksum'>
      return { ...copy, checksum: replayChecksum(copy) }
    },
  }
}
