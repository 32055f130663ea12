import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { runDriverWarmUp, SITUATIONS } from '../../src/driver/warm-up'
import { DRIVER_DISTANCE, DRIVER_LAPS, DRIVER_LATERAL, DRIVER_SEG, DRIVER_STRIDE } from '../../components/driver'
import { createSim, stadiumPath } from '../../src/index'

// The warm-up runs driveCars through a lap's end before V8 optimises it (src/driver/warm-up.ts), so
// that the first lap of a race does not deoptimise it. Checked here: each situation does what
// its name says (else the warm-up would warm nothing), and the warm-up touches no sim.
describe('the driver warm-up', () => {
  const { Car, state } = runDriverWarmUp()
  const car = (name: string) => {
    const i = SITUATIONS.findIndex((s) => s.name === name)
    if (i < 0) throw new Error(`no situation ${name}`)
    return i
  }
  const field = (name: string, f: number) => state[car(name) * DRIVER_STRIDE + f]

  it('takes each branch of a lap\'s end it names', () => {
    expect(field('lap', DRIVER_LAPS)).toBe(1)
    expect(field('cruising', DRIVER_LAPS)).toBe(0)
    expect(field('left', DRIVER_LATERAL)).toBeGreaterThan(1)
    expect(field('right', DRIVER_LATERAL)).toBeLessThan(-1)
    // over the start: the distance moves by the step's travel, not by a lap
    const startS = (name: string) => SITUATIONS[car(name)].sFrom!
    expect(startS('crossForward')).toBeGreaterThan(0.99)
    expect(field('crossForward', DRIVER_DISTANCE)).toBeGreaterThan(0)
    expect(field('crossForward', DRIVER_DISTANCE)).toBeLessThan(1)
    // (crossBackward's distance started at its projection, ≈ the loop's length, and went back by its last arc length's wrap)
    expect(field('crossBackward', DRIVER_DISTANCE)).toBeLessThan(field('lap', DRIVER_DISTANCE))
    // from the last segment, the window runs on over the start to the first
    for (const name of ['wideAtStart', 'wideFromLast', 'secondAcross']) expect(field(name, DRIVER_SEG)).toBe(0)
  })

  it('leaves every sim alone: a driven car runs the same after it as before', () => {
    const run = () => {
      const sim = createSim(createWorld())
      const c = sim.addCar({ position: [-30, -20], speed: 8 })
      sim.setAi(c, stadiumPath(60, 20, 2), { closed: true })
      sim.stepMany(1 / 60, 240)
      return JSON.stringify([sim.carState(c), sim.aiStatus(c)])
    }
    const before = run()
    runDriverWarmUp()
    expect(run()).toBe(before)
  })
})
