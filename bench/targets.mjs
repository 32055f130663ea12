// The benchmark targets (the README's Benchmarks table), checked against one run's results: each
// reads the run's values or a case's own interleaved measurement (its metrics) and says whether it
// holds. A target whose cases did not run (`--only`) is left out.

/** [what, the cases it needs, its figure from the results, the bound, 'max' or 'below'] */
const TARGETS = [
  ['full20 ≤ 1 ms/step', ['full20'], (r) => r.full20.value, 1],
  ['full20 ≤ ¼ rapierVehicle20 (wall clock)', ['full20', 'rapierVehicle20'], (r) => r.full20.value / r.rapierVehicle20.value, 0.25],
  ['st200 ≤ 1 ms/step', ['st200'], (r) => r.st200.value, 1],
  ['full20Driven: the driver adds ≤ 5% (paired)', ['full20Driven'], (r) => r.full20Driven.metrics.driverShare, 0.05],
  ['st200DrivenMany: the driver adds ≤ 20% (paired)', ['st200DrivenMany'], (r) => r.st200DrivenMany.metrics.driverShare, 0.2],
  ['mixed100 ≤ 0.8 × full20 (CPU, interleaved)', ['mixed100'], (r) => r.mixed100.metrics.overFull20Cpu, 0.8],
  ['rayTest ≤ 0.1 × rapierRay (CPU, interleaved)', ['rayTest'], (r) => r.rayTest.metrics.overRapierCpu, 0.1],
  ['lidar ≤ ⅓ rayTest (CPU, interleaved)', ['lidar'], (r) => r.lidar.metrics.overRayTestCpu, 1 / 3],
  ['lidarDense ≤ rayTestDense (CPU, interleaved)', ['lidarDense'], (r) => r.lidarDense.metrics.overRayTestCpu, 1],
  ['lidarAttributes ≤ 1.5 × lidar (CPU, interleaved)', ['lidarAttributes'], (r) => r.lidarAttributes.metrics.overLidarCpu, 1.5],
  ['lidarTraffic: worst step ≤ 2 × median (CPU)', ['lidarTraffic'], (r) => r.lidarTraffic.metrics.worstOverMedian, 2],
  ['lidarTraffic: per ray ≤ 0.1 × Rapier castRay (CPU)', ['lidarTraffic'], (r) => r.lidarTraffic.metrics.overRapierCpu, 0.1],
  ['broadphase1000 < 0.3 ms/step', ['broadphase1000'], (r) => r.broadphase1000.value, 0.3, 'below'],
  ['hosted20 ≤ 2 × full20 (wall clock)', ['hosted20', 'full20'], (r) => r.hosted20.value / r.full20.value, 2],
  ['path1000: a path car ≤ 0.05 µs per 60 Hz step (own time: lesser of CPU and wall)', ['path1000'], (r) => r.path1000.metrics.perCarUs, 0.05],
  ['path1000: a path car ≤ 1/10 of a single-track car (own time, interleaved)', ['path1000'], (r) => r.path1000.metrics.overSingleTrack, 0.1],
  ['race10k mean ≤ 3 ms/step', ['race10k'], (r) => r.race10k.metrics.meanMs, 3],
  ['race10k worst step ≤ 4 × median', ['race10k'], (r) => r.race10k.metrics.worstOverMedian, 4],
  ['driver200Traffic ≤ 2 × driver200 (CPU, interleaved)', ['driver200Traffic'], (r) => r.driver200Traffic.metrics.overDriver200, 2],
  ['race10kTraffic mean ≤ 1.25 × race10k mean', ['race10k', 'race10kTraffic'], (r) => r.race10kTraffic.metrics.meanMs / r.race10k.metrics.meanMs, 1.25],
]

/** The targets the results allow checking: [{ target, value, bound, met }]. */
export function checkTargets(results) {
  const out = []
  for (const [target, needs, figure, bound, kind = 'max'] of TARGETS) {
    if (!needs.every((id) => results[id])) continue
    const value = figure(results)
    if (typeof value !== 'number' || Number.isNaN(value)) continue
    out.push({ target, value, bound, met: kind === 'below' ? value < bound : value <= bound })
  }
  return out
}
