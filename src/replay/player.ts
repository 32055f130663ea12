/** The replay player: restores a keyframe and re-runs the recorded steps with their record changes. */
import type { Sim } from '../types'
import { describe } from '../validate'
import { restoreWorld } from './world-snapshot'
import { FIELD_HZ, FIELD_LEVEL, loadReplay, RECORD_FIELD_NAMES, type Replay, type ReplayData } from './format'
import { LEVEL_NAMES } from '../lod/bands'

/** Plays a replay into a sim; see createReplayPlayer. */
export interface ReplayPlayer {
  /** The validated replay. */
  readonly replay: Replay
  /** Steps in the replay. */
  readonly steps: number
  /** The replay step the sim is at (the next step to run). */
  readonly position: number
  /** Puts the sim at replay step `step` (0..steps): restores the nearest keyframe at or before it and re-runs the steps between. */
  seek(step: number): void
  /** Runs `n` more recorded steps (default 1; stops at the end); returns how many ran. */
  advance(n?: number): number
}

/**
 * Creates a player of `data` (a recorder's save(), possibly via JSON) for `sim`, which must hold the
 * recorded cars, colliders and lidars (e.g. set up by the same code). Validates everything first;
 * the sim is only changed by seek and advance (and the player starts at step 0 after seek(0)).
 */
export function createReplayPlayer(sim: Sim, data: ReplayData | unknown): ReplayPlayer {
  if (sim === null || typeof sim !== 'object' || !sim.components) throw new TypeError(`sim must be a pitlane Sim, got ${describe(sim)}`)
  const replay = loadReplay(data)
  const { cars, dt, evStart, evCar, evField, evValue } = replay
  let position = -1

  function runStep(k: number): void {
    const a = evStart[k], b = evStart[k + 1]
    let i = a
    while (i < b) {
      const car = evCar[i]
      const eid = cars[car]
      let level = -1, hz = NaN
      const Car = sim.components.Car as unknown as Record<string, Float64Array | Int32Array>
      for (; i < b && evCar[i] === car; i++) {
        const f = evField[i]
        if (f === FIELD_LEVEL) level = evValue[i]
        else if (f === FIELD_HZ) hz = evValue[i]
        // Input fields are written exactly as recorded (they were valid inputs then).
        else Car[RECORD_FIELD_NAMES[f]][eid] = evValue[i]
      }
      if (level >= 0 || !Number.isNaN(hz)) {
        const lvl = level >= 0 ? LEVEL_NAMES[level] : sim.getLod(eid).level
        if (lvl === 'singleTrack' && !Number.isNaN(hz)) sim.setLod(eid, lvl, hz)
        else sim.setLod(eid, lvl)
      }
    }
    sim.step(dt[k])
    position = k + 1
  }

  return {
    replay,
    get steps() { return replay.steps },
    get position() { return position },
    seek(step: number) {
      if (typeof step !== 'number') throw new TypeError(`step must be a number, got ${describe(step)}`)
      if (!Number.isInteger(step) || step < 0 || step > replay.steps) throw new RangeError(`step must be an integer in [0, ${replay.steps}], got ${step}`)
      let kf = replay.keyframes[0]
      for (const k of replay.keyframes) if (k.step <= step) kf = k
      restoreWorld(sim, kf.world)
      position = kf.step
      while (position < step) runStep(position)
    },
    advance(n = 1) {
      if (typeof n !== 'number') throw new TypeError(`n must be a number, got ${describe(n)}`)
      if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`)
      if (position < 0) throw new RangeError('the player has not been positioned yet: call seek(step) first')
      let ran = 0
      while (ran < n && position < replay.steps) { runStep(position); ran++ }
      return ran
    },
  }
}
