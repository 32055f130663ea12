/**
 * Dynamic resolution, as games do it: the scene is drawn at a lower resolution (the canvas scaled up
 * to the screen) while the frame rate stays under target, and back up a step after a spell of
 * frame rates with room to spare. A step up that drops the frame rate again is retried only after
 * twice as long as the last try, so the scale settles instead of swinging every few seconds.
 */

/** How the scale moves. */
export interface ResolutionOptions {
  /** Highest and lowest scale (canvas pixels per CSS pixel). */
  max: number
  min: number
  /** Scale change per step. */
  step: number
  /** Frame rate below which the scale steps down. */
  low: number
  /** Frame rate at or above which, held for `holdS` seconds, the scale steps up. */
  high: number
  holdS: number
  /** Seconds of frame rates ignored at the start (shaders compile and textures upload in the first frames). */
  warmupS: number
}

/** A dynamic resolution scale driven by the measured frame rate. */
export interface ResolutionScaler {
  /** The scale in force. */
  readonly scale: number
  /** Takes the frame rate over the last `seconds` s; returns the new scale when it changes, else null. */
  update(fps: number, seconds: number): number | null
}

// a step down below 57 fps: a display at 60 Hz is missing frames by then
const DEFAULTS: ResolutionOptions = { max: 1, min: 0.5, step: 0.125, low: 57, high: 59, holdS: 4, warmupS: 2 }

/** A scaler starting at `options.max`. */
export function createResolutionScaler(options: Partial<ResolutionOptions> = {}): ResolutionScaler {
  const o = { ...DEFAULTS, ...options }
  if (!(o.min > 0 && o.min <= o.max)) throw new RangeError(`resolution min must be in (0, max], got ${o.min}`)
  if (!(o.step > 0)) throw new RangeError(`resolution step must be > 0, got ${o.step}`)
  let scale = o.max
  // seconds at a good frame rate so far, and needed before the next step up
  let good = 0, wait = o.holdS
  let raisedFrom = -1 // the scale last stepped up from, while that step is on trial
  let warmup = o.warmupS
  return {
    get scale() { return scale },
    update(fps, seconds) {
      if (warmup > 0) { warmup -= seconds; return null }
      if (fps < o.low) {
        good = 0
        if (raisedFrom >= 0) { wait *= 2; raisedFrom = -1 } // the last step up cost too much: wait longer next time
        if (scale <= o.min) return null
        scale = Math.max(o.min, scale - o.step)
        return scale
      }
      if (fps < o.high) { good = 0; return null }
      good += seconds
      if (raisedFrom >= 0 && good >= o.holdS) { raisedFrom = -1; wait = o.holdS } // the step up held
      if (scale >= o.max || good < wait) return null
      good = 0
      raisedFrom = scale
      scale = Math.min(o.max, scale + o.step)
      return scale
    },
  }
}
