/**
 * The player's controls: keyboard, touch buttons and a gamepad merged into one car input per sim
 * step. Digital devices ramp steering and pedals (a key is all or nothing); the gamepad's stick and
 * triggers pass straight through. Steering lock tightens with speed on both, so full lock at
 * 40 m/s is not a spin. Holding brake at a standstill selects reverse; throttle selects drive again.
 */
import type { Sim } from '../../src/index'
import type { DigitalPad } from './keyboard'
import type { PadReading } from './gamepad'

/** Merges the devices into car inputs. */
export interface Controls {
  /** The device that drove the last step. */
  readonly device: 'keyboard' | 'touch' | 'gamepad'
  /** Writes this step's inputs for `car` (speed m/s, dt s); `hold` keeps the brakes on (the grid). */
  apply(sim: Sim, car: number, speed: number, dt: number, hold: boolean): void
  /** Forgets the ramps and the selected gear (a new race: in first, pedals up). */
  reset(): void
}

/** Controls over the keyboard's and touch pad's digital state and the last gamepad reading. */
export function createControls(keys: DigitalPad, touch: DigitalPad, gamepad: PadReading): Controls {
  let steer = 0, throttle = 0, brake = 0, gear = 1
  let device: Controls['device'] = 'keyboard'
  const input = { steer: 0, throttle: 0, brake: 0, handbrake: 0, gear: 1 }
  return {
    get device() { return device },
    reset() { steer = 0; throttle = 0; brake = 0; gear = 1 },
    apply(sim, car, speed, dt, hold) {
      const limit = 1 / (1 + (speed * speed) / 500)
      const padActive = gamepad.connected && (Math.abs(gamepad.steer) > 0 || gamepad.throttle > 0.02 || gamepad.brake > 0.02 || gamepad.handbrake > 0.02)
      const left = keys.left || touch.left, right = keys.right || touch.right
      const up = keys.up || touch.up, back = keys.down || touch.down
      const digital = left || right || up || back || keys.handbrake
      if (padActive && !digital) device = 'gamepad'
      else if (digital) device = touch.left || touch.right || touch.up || touch.down ? 'touch' : 'keyboard'
      let wantForward: number, wantBack: number, handbrake: number
      if (device === 'gamepad') {
        steer = gamepad.steer * limit
        wantForward = gamepad.throttle
        wantBack = gamepad.brake
        handbrake = gamepad.handbrake
      } else {
        const want = ((left ? 1 : 0) - (right ? 1 : 0)) * limit
        const rate = (want === 0 ? 5 : 3) * dt
        steer += Math.max(-rate, Math.min(rate, want - steer))
        wantForward = up ? 1 : 0
        wantBack = back ? 1 : 0
        handbrake = keys.handbrake ? 1 : 0
      }
      if (wantBack > 0.5 && wantForward < 0.1 && speed < 0.5) gear = -1
      if (wantForward > 0.5 && gear < 0 && speed > -0.5) gear = 1
      const accel = gear < 0 ? wantBack : wantForward
      const stop = gear < 0 ? wantForward : wantBack
      if (device === 'gamepad') { throttle = accel; brake = stop }
      else {
        throttle += Math.max(-6 * dt, Math.min(3 * dt, accel - throttle))
        brake += Math.max(-8 * dt, Math.min(6 * dt, stop - brake))
      }
      input.steer = steer
      input.throttle = hold ? 0 : throttle
      input.brake = hold ? 1 : brake
      input.handbrake = handbrake
      input.gear = gear
      sim.setInput(car, input)
    },
  }
}
