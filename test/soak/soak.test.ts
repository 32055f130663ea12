import { describe, expect, it } from 'vitest'
import { runSoak } from './run-soak'

// `npm run soak` (PITLANE_SOAK=long): 500 driven cars at mixed levels, 4 lidars, 30 simulated
// minutes with random LOD switches. PITLANE_SOAK_MINUTES shortens it for a quicker look.
const long = process.env.PITLANE_SOAK === 'long'
const minutes = Number(process.env.PITLANE_SOAK_MINUTES ?? 30)

describe.skipIf(!long)('long soak', () => {
  it(`500 driven cars, 4 lidars, ${minutes} simulated minutes: finite, on their paths, flat cost`, () => {
    const r = runSoak({ cars: 500, lidars: 4, seconds: minutes * 60, window: 60, switchesPerSecond: 5 })
    const first = r.cpuWindows[0], last = r.cpuWindows[r.cpuWindows.length - 1]
    console.log(`long soak: ${r.steps} steps, ${r.switches} LOD switches, max |lateral error| ${r.maxLateral.toFixed(2)} m, least progress ${r.minProgress.toFixed(0)} m`)
    console.log(`long soak: wall ms/step per simulated minute: ${r.windows.map((w) => w.toFixed(2)).join(' ')}`)
    console.log(`long soak: CPU ms/step per simulated minute: ${r.cpuWindows.map((w) => w.toFixed(2)).join(' ')}`)
    console.log(`long soak: first minute ${first.toFixed(2)} CPU ms/step, last minute ${last.toFixed(2)} CPU ms/step (${(last / first).toFixed(2)}x)`)
    expect(r.nonFinite).toBe(0)
    expect(r.maxLateral).toBeLessThan(4)
    expect(r.minProgress).toBeGreaterThan(minutes * 60 * 5)
    // flat: no growth beyond machine noise (CPU time; a leak would grow steadily)
    expect(last).toBeLessThan(1.5 * first)
  })
})
