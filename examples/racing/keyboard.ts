/** Keyboard driving for the player's car: arrows/WASD, space = handbrake, smoothed into car inputs once per sim step. */
import type { Sim } from '../../src/index'

/** Pressed keys and the smoothed inputs they give. */
export interface Keyboard {
  /** Keys currently down (KeyboardEvent.code). */
  readonly down: Set<string>
  /** Writes this step's inputs for `car` (speed in m/s, dt in s). */
  apply(sim: Sim, car: number, speed: number, dt: number): void
  /** Calls `fn` when `code` is pressed (not on auto-repeat). */
  onPress(code: string, fn: () => void): void
}

const LEFT = ['ArrowLeft', 'KeyA'], RIGHT = ['ArrowRight', 'KeyD'], UP = ['ArrowUp', 'KeyW'], DOWN = ['ArrowDown', 'KeyS']

/** Listens on `target` (default window) for the driving keys. */
export function createKeyboard(target: Window = window): Keyboard {
  const down = new Set<string>()
  const handlers = new Map<string, () => void>()
  const driving = new Set([...LEFT, ...RIGHT, ...UP, ...DOWN, 'Space'])
  target.addEventListener('keydown', (e) => {
    if (driving.has(e.code)) e.preventDefault()
    if (!e.repeat) handlers.get(e.code)?.()
    down.add(e.code)
  })
  target.addEventListener('keyup', (e) => down.delete(e.code))
  target.addEventListener('blur', () => down.clear())
  const any = (codes: string[]) => codes.some((c) => down.has(c))
  let steer = 0, throttle = 0, brake = 0, gear = 1
  return {
    down,
    onPress: (code, fn) => { handlers.set(code, fn) },
    apply(sim, car, speed, dt) {
      // Steering ramps (a keyboard is all-or-nothing) and tightens with speed so full lock at 40 m/s is not a spin.
      const want = (any(LEFT) ? 1 : 0) - (any(RIGHT) ? 1 : 0)
      const limit = 1 / (1 + (speed * speed) / 500)
      const target = want * limit
      const rate = (want === 0 ? 5 : 3) * dt
      steer += Math.max(-rate, Math.min(rate, target - steer))
      const up = any(UP), back = any(DOWN)
      // Holding brake at a standstill selects reverse; throttle selects drive again.
      if (back && !up && speed < 0.5) gear = -1
      if (up && gear < 0 && speed > -0.5) gear = 1
      const accel = gear < 0 ? back : up
      const stop = gear < 0 ? up : back
      throttle += Math.max(-6 * dt, Math.min(3 * dt, (accel ? 1 : 0) - throttle))
      brake += Math.max(-8 * dt, Math.min(6 * dt, (stop ? 1 : 0) - brake))
      sim.setInput(car, { steer, throttle, brake, handbrake: down.has('Space') ? 1 : 0, gear })
    },
  }
}
