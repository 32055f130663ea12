import { describe, expect, it } from 'vitest'
import { runSoak } from '../soak/run-soak'

describe('short soak (the long one is `npm run soak`)', () => {
  it('40 driven cars at mixed levels, 2 lidars, random LOD switches, 12 simulated seconds: finite and on their paths', () => {
    const r = runSoak({ cars: 40, lidars: 2, seconds: 12, window: 4, switchesPerSecond: 4 })
    console.log(`short soak: ${r.steps} steps, ${r.switches} LOD switches, ms/step per 4 s window ${r.windows.map((w) => w.toFixed(2)).join(' ')}, max |lateral error| ${r.maxLateral.toFixed(2)} m, least progress ${r.minProgress.toFixed(0)} m`)
    expect(r.nonFinite).toBe(0)
    expect(r.maxLateral).toBeLessThan(4)
    expect(r.minProgress).toBeGreaterThan(90) // 12 s, from 5 m/s towards 12+ m/s, never frozen
    expect(r.switches).toBe(48)
  })
})
