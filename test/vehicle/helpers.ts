/** Test helpers for the vehicle tests: sims, a circle-holding driver, measurements. */
import { createWorld } from 'bitecs'
import { createSim, presets, type Sim, type SimOptions, type CarDefinition } from '../../src/index'

/** A fresh sim in a fresh world. */
export function makeSim(options?: SimOptions): Sim {
  return createSim(createWorld(), options)
}

/** Steps `sim` at 60 Hz until `until()` or `maxSeconds`; returns the simulated time taken. */
export function runUntil(sim: Sim, until: () => boolean, maxSeconds: number, dt = 1 / 60): number {
  let t = 0
  while (t < maxSeconds) {
    sim.step(dt)
    t += dt
    if (until()) return t
  }
  return Infinity
}

/** Time (s) and distance (m) to brake from `speed` to rest. */
export function brakeRun(def: CarDefinition, speed: number, steer = 0): { time: number; distance: number; heading: number } {
  const sim = makeSim()
  const car = sim.addCar({ definition: def, speed })
  sim.setInput(car, { brake: 1, steer })
  let s = sim.carState(car)
  const t = runUntil(sim, () => (s = sim.carState(car)).speed < 0.01, 30, 1 / 240)
  return { time: t, distance: Math.hypot(s.position[0], s.position[1]), heading: s.heading }
}

/**
 * Drives around a circle of radius R (centre (0, R), counter-clockwise from the origin) with a
 * speed held by a throttle/brake P-controller and steering by pure pursuit plus radius feedback.
 * `speedAt(t)` gives the target speed. Calls `sample` every host step.
 */
export function circleDrive(sim: Sim, car: number, R: number, speedAt: (t: number) => number, seconds: number, sample: (t: number) => void | boolean, dt = 1 / 60): void {
  const L = sim.components.Car.wheelbase[car]
  const maxSteer = sim.components.Car.maxSteer[car]
  let t = 0
  let integ = 0
  while (t < seconds) {
    const s = sim.carState(car)
    const dx = s.position[0]
    const dy = s.position[1] - R
    const r = Math.hypot(dx, dy)
    const ang = Math.atan2(dy, dx)
    const ld = Math.max(4, Math.abs(s.speed) * 0.6)
    const ahead = ang + ld / R
    const tx = R * Math.cos(ahead)
    const ty = R + R * Math.sin(ahead)
    const rel = Math.atan2(ty - s.position[1], tx - s.position[0]) - s.heading
    const alpha = Math.atan2(Math.sin(rel), Math.cos(rel))
    integ += (r - R) * dt
    const delta = Math.atan((2 * L * Math.sin(alpha)) / ld) + 0.05 * (r - R) + 0.02 * integ
    const target = speedAt(t)
    const ev = target - s.speed
    sim.setInput(car, {
      steer: delta / maxSteer,
      throttle: Math.max(0, Math.min(1, 0.5 * ev + 0.15)),
      brake: Math.max(0, Math.min(1, -0.3 * ev)),
      gear: gearFor(sim.carDefinition(car), s.speed),
    })
    sim.step(dt)
    t += dt
    if (sample(t) === false) return
  }
}

/** The gear to ask for at `speed` (m/s): drive for an automatic; for a manual the lowest gear below 70% of the limiter. */
export function gearFor(def: CarDefinition, speed: number): number {
  if (def.gearbox.automatic) return 1
  const rpmPerMs = (30 / Math.PI / def.wheelRadius) * def.gearbox.finalDrive * Math.abs(speed)
  const ratios = def.gearbox.ratios
  let gear = 1
  while (gear < ratios.length && rpmPerMs * ratios[gear - 1] > 0.7 * def.engine.maxRpm) gear++
  return gear
}

/** A copy of the hatchback without ABS. */
export function hatchbackWithoutAbs(): CarDefinition {
  return { ...presets.hatchback, brakes: { ...presets.hatchback.brakes, abs: false } }
}
