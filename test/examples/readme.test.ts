// The README's first program ("A first program"), run with the engine's sources and checked: the
// car drives its loop, the user's system runs among pitlane's and sees it go over 20 m/s, the lidar
// scans. (test/package/snippets.test.ts compiles and runs every README snippet against the package.)
import { expect, it, vi } from 'vitest'
import { addComponent, createWorld, query, type World } from 'bitecs'
import { createSim, getSim, lidarPresets, presets, smoothClosedPath } from '../../src/index'

it('runs the README example: a user component and system scheduled among pitlane’s', () => {
  const warn = vi.spyOn(console, 'warn')
  const world = createWorld()
  const sim = createSim(world)
  const Health = { hp: [] as number[] }
  const car = sim.addCar({ definition: presets.hatchback, position: [0, 0], heading: 0 })
  addComponent(world, car, Health)
  Health.hp[car] = 100
  sim.setInput(car, { gear: 1 })
  sim.setAi(car, smoothClosedPath([[0, 0], [200, 0], [200, 120], [0, 120]]), { closed: true, maxSpeed: 25 })
  const lidar = sim.addLidar({ ...lidarPresets.spinning16, mount: car, offset: [0, 0, 1.6] })
  let runs = 0
  sim.schedule.add((w: World) => {
    runs++
    const { Car } = getSim(w).components
    for (const eid of query(w, [Health, Car])) {
      if (Car.speed[eid]! > 20) Health.hp[eid] = Health.hp[eid]! - 1
    }
    return w
  }, { name: 'overspeed-damage', phase: 'vehicle', after: 'step-vehicles' })
  for (let frame = 0; frame < 600; frame++) sim.step(1 / 60)
  expect(runs).toBe(600)
  expect(sim.schedule.names()).toContain('overspeed-damage')
  expect(sim.aiStatus(car)!.distance).toBeGreaterThan(100) // 10 s of driving round the loop
  expect(Health.hp[car]).toBeLessThan(100) // it went over 20 m/s at some point
  expect(sim.lidarScan(lidar).count).toBeGreaterThan(1000) // the ground rings, at least
  expect(warn).not.toHaveBeenCalled() // in gear: no neutral warning
  warn.mockRestore()
})
