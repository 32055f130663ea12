/**
 * The Gamepad API, standard mapping: left stick steers (analog), right trigger throttle, left
 * trigger brake, B handbrake; Start pauses, Y puts the car back on the track, Back toggles the
 * debug overlay. Polled once per frame (the API has no events for axes).
 */

/** One frame's reading of the first connected pad. */
export interface PadReading {
  connected: boolean
  /** [-1, 1], + = left (the stick's x is + to the right). */
  steer: number
  throttle: number
  brake: number
  handbrake: number
}

/** A polled gamepad with press handlers for its buttons. */
export interface Gamepad {
  /** Reads the first connected pad and fires handlers of buttons newly pressed. */
  poll(): PadReading
  /** Calls `fn` when standard button `index` goes down. */
  onPress(index: number, fn: () => void): void
}

/** Standard-mapping button indices. */
export const PAD = { a: 0, b: 1, x: 2, y: 3, lt: 6, rt: 7, back: 8, start: 9 } as const
const DEAD = 0.08

/** A gamepad reader over `navigator.getGamepads`. */
export function createGamepad(nav: Navigator = navigator): Gamepad {
  const reading: PadReading = { connected: false, steer: 0, throttle: 0, brake: 0, handbrake: 0 }
  const handlers = new Map<number, () => void>()
  const wasDown: boolean[] = []
  return {
    onPress: (index, fn) => { handlers.set(index, fn) },
    poll() {
      const pads = typeof nav.getGamepads === 'function' ? nav.getGamepads() : []
      let pad: globalThis.Gamepad | null = null
      for (const p of pads) if (p && p.connected) { pad = p; break }
      reading.connected = pad !== null
      if (!pad) { reading.steer = reading.throttle = reading.brake = reading.handbrake = 0; return reading }
      const x = pad.axes[0] ?? 0
      // a dead zone, then a gentle curve: fine control near the centre, full lock at the stop
      const m = Math.max(0, (Math.abs(x) - DEAD) / (1 - DEAD))
      reading.steer = -Math.sign(x) * m ** 1.4
      const value = (i: number) => pad!.buttons[i]?.value ?? 0
      reading.throttle = value(PAD.rt)
      reading.brake = value(PAD.lt)
      reading.handbrake = value(PAD.b)
      for (const [index, fn] of handlers) {
        const down = pad.buttons[index]?.pressed ?? false
        if (down && !wasDown[index]) fn()
        wasDown[index] = down
      }
      return reading
    },
  }
}
