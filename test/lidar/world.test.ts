// sim.lidarPose and the `world` attribute: each point's worldPoints equal its sensor-frame point
// turned by the sensor pose at its own time (1e-9 m): the pose of a whole scan (lidarPose), or for
// a rotating sweep the pose interpolated to scan.times between the poses lidarPose gave at the
// ends of each step; the world points of a sweep from a moving car are rayTest's hits from that
// pose (undistorted); noise, rayTestLidar and world snapshots carry the array.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createLidarScan, createSim, restoreWorld, snapshotWorld, type LidarPose, type LidarScan, type Sim } from '../../src/index'
import { matOf, quatOf, randomQuat, rng, slerp } from './oracle'

const pattern = { yawStart: 0, yawIncrement: (2 * Math.PI) / 360, yawCount: 360, pitchStart: -0.35, pitchIncrement: 0.05, pitchCount: 10 }

function scene(): Sim {
  const sim = createSim(createWorld())
  const r = rng(29)
  const shapes = [{ kind: 'sphere', radius: 1 }, { kind: 'box', halfExtents: [1, 0.5, 1.5] }, { kind: 'cylinder', radius: 0.6, halfHeight: 1 }]
  for (let i = 0; i < 60; i++) sim.addCollider(shapes[i % 3] as never, { position: [(r() - 0.5) * 60, (r() - 0.5) * 60, r() * 2], rotation: randomQuat(r) })
  return sim
}

/** Largest difference between worldPoints[i] and R·points[i] + x, over points [from, to), with the pose of each point from poseAt(i). */
function worldError(scan: LidarScan, poseAt: (i: number) => { R: ArrayLike<number>; x: ArrayLike<number> }, from = 0, to = scan.count): number {
  let err = 0
  const p = scan.points, w = scan.worldPoints!
  for (let i = from; i < to; i++) {
    const { R, x } = poseAt(i)
    for (let k = 0; k < 3; k++) {
      const want = x[k] + R[3 * k] * p[3 * i] + R[3 * k + 1] * p[3 * i + 1] + R[3 * k + 2] * p[3 * i + 2]
      err = Math.max(err, Math.abs(w[3 * i + k] - want))
    }
  }
  return err
}

const pose = (q: LidarPose) => ({ R: q.rotation, x: q.position })

describe('lidar world points and sim.lidarPose', () => {
  it('a whole scan from a moving car: worldPoints are the points turned by lidarPose, which holds between scans', () => {
    const sim = scene()
    const car = sim.addCar({ position: [-10, 0], heading: 0.2, speed: 18 })
    sim.setInput(car, { throttle: 0.4, steer: 0.3, gear: 2 })
    const lidar = sim.addLidar({ pattern, rangeMin: 0.5, rangeMax: 40, mount: car, offset: [0.5, 0, 1.2], rotation: [0, 0, Math.sin(0.3), Math.cos(0.3)], hz: 20, attributes: { world: true } })
    expect(sim.lidarScan(lidar).worldPoints).not.toBe(null)
    let scans = 0, last = sim.lidarPose(lidar)
    for (let s = 0; s < 24; s++) {
      const before = sim.lidarScan(lidar).count === 0 ? null : JSON.stringify(sim.lidarPose(lidar))
      sim.step(1 / 60)
      const now = sim.lidarPose(lidar)
      if (s % 3 === 2) {
        // a 20 Hz lidar scans every third 60 Hz step: the pose moved with the car
        scans++
        expect(Math.hypot(now.position[0] - last.position[0], now.position[1] - last.position[1])).toBeGreaterThan(0.5)
        const scan = sim.lidarScan(lidar)
        expect(scan.count).toBeGreaterThan(300)
        expect(worldError(scan, () => pose(now))).toBeLessThan(1e-9)
        // each world point is rayTest's hit along its ray from that pose
        const { R, x } = pose(now)
        for (let i = 0; i < scan.count; i += 37) {
          const y = Math.floor(scan.rays[i] / pattern.pitchCount), p = scan.rays[i] % pattern.pitchCount
          const yaw = y * pattern.yawIncrement, pitch = pattern.pitchStart + p * pattern.pitchIncrement
          const d = [Math.cos(pitch) * Math.cos(yaw), Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch)]
          const dir = [0, 1, 2].map((k) => R[3 * k] * d[0] + R[3 * k + 1] * d[1] + R[3 * k + 2] * d[2])
          const h = sim.rayTest(x.map((v, k) => v + 0.5 * dir[k]), dir, 39.5, car, 0).at(0)!
          for (let k = 0; k < 3; k++) expect(Math.abs(scan.worldPoints![3 * i + k] - h.position[k])).toBeLessThan(1e-6)
        }
        last = now
      } else if (before !== null) {
        expect(JSON.stringify(now)).toBe(before) // no scan this step: the latest scan's pose
      }
    }
    expect(scans).toBe(8)
    // a rotation matrix: orthonormal rows
    const R = last.rotation
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) {
      const dot = R[3 * a] * R[3 * b] + R[3 * a + 1] * R[3 * b + 1] + R[3 * a + 2] * R[3 * b + 2]
      expect(Math.abs(dot - (a === b ? 1 : 0))).toBeLessThan(1e-12)
    }
  })

  it('a rotating sweep from a moving car: each point turned by the pose at its time, undistorted in the world', () => {
    const sim = scene()
    const car = sim.addCar({ position: [0, -5], heading: 0.6, speed: 20 })
    sim.setInput(car, { throttle: 0.5, steer: -0.4, gear: 2 })
    sim.stepMany(1 / 60, 3)
    const dt = 1 / 60, t0 = sim.time
    const lidar = sim.addLidar({ pattern, rangeMin: 0.5, rangeMax: 40, mount: car, offset: [0.2, 0.1, 1.1], hz: 10, sweep: 'rotating', attributes: { world: true, normals: true } })
    const poses = [sim.lidarPose(lidar)]
    let streamed = 0
    for (let s = 0; s < 6; s++) {
      sim.step(dt)
      poses.push(sim.lidarPose(lidar))
      const slice = sim.lidarScan(lidar, 'slice')
      streamed += slice.count
      expect(slice.worldPoints).not.toBe(null)
    }
    const scan = sim.lidarScan(lidar)
    expect(streamed).toBe(scan.count)
    expect(scan.count).toBeGreaterThan(500)
    const at = (i: number) => {
      const t = scan.times![i] - t0, step = Math.min(5, Math.floor(t / dt + 1e-9)), f = (t - step * dt) / dt
      const p0 = poses[step]!, p1 = poses[step + 1]!
      return { R: matOf(slerp(quatOf(p0.rotation), quatOf(p1.rotation), f)), x: p0.position.map((v, k) => v + f * (p1.position[k]! - v)) }
    }
    expect(worldError(scan, at)).toBeLessThan(1e-9)
    // against one pose for the whole sweep the car's motion (2 m in 0.1 s) shows
    expect(worldError(scan, () => pose(poses[6]!))).toBeGreaterThan(0.5)
    // undistorted: each world point is rayTest's hit from the pose at its time
    for (let i = 0; i < scan.count; i += 11) {
      const { R, x } = at(i)
      const y = Math.floor(scan.rays[i]! / pattern.pitchCount), p = scan.rays[i]! % pattern.pitchCount
      const yaw = y * pattern.yawIncrement, pitch = pattern.pitchStart + p * pattern.pitchIncrement
      const d = [Math.cos(pitch) * Math.cos(yaw), Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch)]
      const dir = [0, 1, 2].map((k) => R[3 * k]! * d[0]! + R[3 * k + 1]! * d[1]! + R[3 * k + 2]! * d[2]!)
      const h = sim.rayTest(x.map((v, k) => v + 0.5 * dir[k]!), dir, 39.5, car, 0).at(0)!
      for (let k = 0; k < 3; k++) expect(Math.abs(scan.worldPoints![3 * i + k]! - h.position[k]!)).toBeLessThan(1e-6)
    }
  })

  it('noise moves world points with their points, and drops them together', () => {
    const sim = scene()
    const car = sim.addCar({ position: [0, 0], heading: 0.1, speed: 15 })
    const base = { pattern, rangeMin: 0.5, rangeMax: 40, mount: car, offset: [0, 0, 1.2], noise: { range: 0.05, dropout: 0.2, seed: 9 } }
    const whole = sim.addLidar({ ...base, attributes: { world: true } })
    const rotating = sim.addLidar({ ...base, hz: 10, sweep: 'rotating', attributes: { world: true, intensity: true } })
    const plain = sim.addLidar({ ...base }) // same noise, no world points: the same points
    sim.stepMany(1 / 60, 6)
    const w = sim.lidarScan(whole), p = sim.lidarScan(plain)
    expect(w.count).toBe(p.count)
    expect(Array.from(w.points.subarray(0, 3 * w.count))).toEqual(Array.from(p.points.subarray(0, 3 * p.count)))
    expect(worldError(w, () => pose(sim.lidarPose(whole)))).toBeLessThan(1e-9)
    const r = sim.lidarScan(rotating)
    expect(r.count).toBeGreaterThan(200)
    // ground points of the noisy sweep: their world z is the ground's, give or take the noise along the ray
    let ground = 0
    for (let i = 0; i < r.count; i++) if (Math.abs(r.worldPoints![3 * i + 2]!) < 0.3) ground++
    expect(ground).toBeGreaterThan(100)
  })

  it('rayTestLidar fills worldPoints from its pose; bad options are refused by name', () => {
    const sim = scene()
    const scan = createLidarScan({ world: true, hits: true })
    const rot = matOf([0.1, -0.2, 0.3, 0.9].map((v, _i, a) => v / Math.hypot(...a))), pos = [2, -3, 1.5]
    sim.rayTestLidar(rot, pos, 0, pattern.yawIncrement, 360, -0.3, 0.05, 10, 0.5, 40, -1, -1, -1, scan)
    expect(scan.count).toBeGreaterThan(300)
    expect(worldError(scan, () => ({ R: rot, x: pos }))).toBeLessThan(1e-9)
    expect(createLidarScan().worldPoints).toBe(null)
    expect(() => createLidarScan({ world: 1 as never })).toThrow(TypeError)
    expect(() => createLidarScan({ world: 1 as never })).toThrow(/options\.world must be a boolean/)
    expect(() => sim.addLidar({ pattern, rangeMin: 0, rangeMax: 10, attributes: { worlds: true } as never })).toThrow(/options\.attributes\.worlds is not an option/)
    expect(() => sim.lidarPose(sim.ground)).toThrow(/is not a lidar/)
    expect(() => sim.lidarPose(-1)).toThrow(RangeError)
  })

  it('world snapshots carry worldPoints, and refuse them for a lidar without the attribute', () => {
    const build = (world: boolean) => {
      const sim = scene()
      const car = sim.addCar({ position: [0, 0], heading: 0.4, speed: 12 })
      sim.setInput(car, { throttle: 0.5, steer: 0.3, gear: 1 })
      const lidar = sim.addLidar({ pattern, rangeMin: 0.5, rangeMax: 40, mount: car, offset: [0.2, 0, 1], hz: 10, sweep: 'rotating', attributes: { world } })
      return { sim, lidar }
    }
    const a = build(true)
    a.sim.stepMany(1 / 60, 9)
    const text = JSON.stringify(snapshotWorld(a.sim))
    a.sim.stepMany(1 / 60, 5)
    const want = Array.from(a.sim.lidarScan(a.lidar).worldPoints!.subarray(0, 3 * a.sim.lidarScan(a.lidar).count))
    const b = build(true)
    restoreWorld(b.sim, JSON.parse(text))
    b.sim.stepMany(1 / 60, 5)
    const got = b.sim.lidarScan(b.lidar)
    expect(Array.from(got.worldPoints!.subarray(0, 3 * got.count))).toEqual(want)
    expect(want.length).toBeGreaterThan(300)
    expect(() => restoreWorld(build(false).sim, JSON.parse(text))).toThrow(/do not carry 'worldPoints'/)
  })
})
