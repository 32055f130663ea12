// Rotating sweeps: a static scene's rotating sweep equals the whole-sweep scan point for point; a
// moving sensor's sweep equals rayTests per column from the sensor pose interpolated to the
// column's time; slices stream the sweep; stepMany ≡ step; a world restored mid-sweep continues
// with the same points.
import { describe, expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim, lidarPresets, restoreWorld, snapshotWorld, type LidarScan, type Sim } from '../../src/index'
import { matOf, quatOf, rng, randomQuat, slerp } from './oracle'

const pattern = { yawStart: 0, yawIncrement: (2 * Math.PI) / 240, yawCount: 240, pitchStart: -0.3, pitchIncrement: 0.04, pitchCount: 12 }

function scene(): Sim {
  const sim = createSim(createWorld())
  const r = rng(17)
  const shapes = [{ kind: 'sphere', radius: 1 }, { kind: 'box', halfExtents: [1, 0.5, 1.5] }, { kind: 'capsule', radius: 0.4, halfHeight: 1 }, { kind: 'cylinder', radius: 0.6, halfHeight: 1 }]
  for (let i = 0; i < 80; i++) sim.addCollider(shapes[i % 4] as never, { position: [(r() - 0.5) * 60, (r() - 0.5) * 60, r() * 2], rotation: randomQuat(r) })
  return sim
}

function plain(scan: LidarScan) {
  return { points: Array.from(scan.points.subarray(0, 3 * scan.count)), rays: Array.from(scan.rays.subarray(0, scan.count)), distances: Array.from(scan.distances.subarray(0, scan.count)) }
}

describe('rotating lidar sweeps', () => {
  it('in a static scene equal the whole-sweep scan point for point, stamped in sweep order', () => {
    const sim = scene()
    const base = { pattern, rangeMin: 0.5, rangeMax: 50, offset: [1, 2, 1.2], hz: 10, attributes: { hits: true, normals: true, intensity: true } }
    const whole = sim.addLidar(base)
    const rot = sim.addLidar({ ...base, sweep: 'rotating' })
    for (let s = 0; s < 6; s++) {
      expect(sim.lidarScan(rot).count).toBe(0) // no complete sweep yet
      sim.step(1 / 60)
    }
    // six 1/60 s steps: one 10 Hz sweep, and the whole-sweep lidar's first scan
    const a = sim.lidarScan(whole), b = sim.lidarScan(rot)
    expect(a.count).toBeGreaterThan(500)
    expect(plain(b)).toEqual(plain(a))
    expect(Array.from(b.colliders!.subarray(0, b.count))).toEqual(Array.from(a.colliders!.subarray(0, a.count)))
    expect(Array.from(b.normals!.subarray(0, 3 * b.count))).toEqual(Array.from(a.normals!.subarray(0, 3 * a.count)))
    expect(Array.from(b.intensities!.subarray(0, b.count))).toEqual(Array.from(a.intensities!.subarray(0, a.count)))
    expect(a.times).toBe(null)
    for (let i = 0; i < b.count; i++) {
      const y = Math.floor(b.rays[i] / pattern.pitchCount)
      expect(b.times![i]).toBeCloseTo(y / (pattern.yawCount * 10), 12)
    }
    // the next sweep, the same again
    for (let s = 0; s < 6; s++) sim.step(1 / 60)
    expect(plain(sim.lidarScan(rot))).toEqual(plain(sim.lidarScan(whole)))
  })

  it('on a moving car equal per-column rayTests from the interpolated pose, and slices stream the sweep', () => {
    const sim = scene()
    const car = sim.addCar({ position: [0, 0], heading: 0.3, speed: 15 })
    sim.setInput(car, { throttle: 0.6, steer: 0.5, gear: 1 })
    const lidar = sim.addLidar({ pattern, rangeMin: 0.5, rangeMax: 50, mount: car, offset: [0.2, 0, 1], hz: 10, sweep: 'rotating' })
    const dt = 1 / 60
    const poses: { rot: number[]; pos: number[] }[] = []
    let streamed: number[] = []
    const record = () => {
      const L = sim.components.Lidar
      poses.push({ rot: Array.from(L.pose.subarray(9 * lidar, 9 * lidar + 9)), pos: Array.from(L.origin.subarray(3 * lidar, 3 * lidar + 3)) })
    }
    for (let s = 0; s < 6; s++) { sim.step(dt); record() } // the first sweep, from the car's first poses
    for (let s = 0; s < 6; s++) {
      sim.step(dt); record()
      const slice = sim.lidarScan(lidar, 'slice')
      streamed = streamed.concat(Array.from(slice.rays.subarray(0, slice.count)))
    }
    const scan = sim.lidarScan(lidar)
    expect(streamed).toEqual(Array.from(scan.rays.subarray(0, scan.count))) // the sweep is its slices
    const start = poses[5], moved = Math.hypot(poses[11].pos[0] - start.pos[0], poses[11].pos[1] - start.pos[1])
    expect(moved).toBeGreaterThan(1) // the car moves ≥ 1 m during the sweep
    // the oracle: for each column, the pose interpolated to its time, and rayTest along each ray
    const sweepStart = 6 * dt
    let k = 0, maxErr = 0
    for (let y = 0; y < pattern.yawCount; y++) {
      const t = y / (pattern.yawCount * 10), step = Math.min(5, Math.floor(t / dt + 1e-9)), f = (t - step * dt) / dt
      const p0 = poses[5 + step], p1 = poses[6 + step]
      const R = matOf(slerp(quatOf(p0.rot), quatOf(p1.rot), f)), pos = p0.pos.map((v, i) => v + f * (p1.pos[i] - v))
      for (let p = 0; p < pattern.pitchCount; p++) {
        const yaw = pattern.yawStart + y * pattern.yawIncrement, pitch = pattern.pitchStart + p * pattern.pitchIncrement
        const d = [Math.cos(pitch) * Math.cos(yaw), Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch)]
        const w = [0, 1, 2].map((i) => R[3 * i] * d[0] + R[3 * i + 1] * d[1] + R[3 * i + 2] * d[2])
        const h = sim.rayTest(pos.map((v, i) => v + 0.5 * w[i]), w, 49.5, car, 0).at(0)
        if (!h) continue
        expect(scan.rays[k]).toBe(y * pattern.pitchCount + p)
        expect(Math.abs(scan.distances[k] - (0.5 + h.distance))).toBeLessThan(1e-6)
        expect(scan.times![k]).toBeCloseTo(sweepStart + t, 12)
        // the point, put in the world with the same interpolated pose, is rayTest's hit
        for (let i = 0; i < 3; i++) {
          const world = pos[i] + R[3 * i] * scan.points[3 * k] + R[3 * i + 1] * scan.points[3 * k + 1] + R[3 * i + 2] * scan.points[3 * k + 2]
          maxErr = Math.max(maxErr, Math.abs(world - h.position[i]))
        }
        k++
      }
    }
    expect(k).toBe(scan.count)
    expect(k).toBeGreaterThan(300)
    expect(maxErr).toBeLessThan(1e-6)
  })

  it('casts the first sweep after addLidar, from its first step on, from the mount pose interpolated to scan.times', () => {
    // a car already running at 20 m/s when the lidar is added (sim time > 0): the first step's
    // columns start from the pose the mount had when the lidar was added
    const sim = scene()
    const car = sim.addCar({ position: [-25, -8], heading: 0.35, speed: 20 })
    sim.setInput(car, { throttle: 0.3, steer: 0.2, gear: 2 })
    const dt = 1 / 60
    for (let s = 0; s < 7; s++) sim.step(dt)
    const { Car, Collider } = sim.components
    const offset = [0.3, -0.1, 1.1], mountRot = matOf([0, 0, Math.sin(0.2), Math.cos(0.2)])
    // the pose at addLidar, worked out from the chassis collider: R = Rc·Rm, x = pc + Rc·offset
    const c = Car.collider[car]
    const Rc = Array.from(Collider.rotation.subarray(9 * c, 9 * c + 9)), pc = Array.from(Collider.position.subarray(3 * c, 3 * c + 3))
    const added = {
      rot: [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => Rc[3 * i] * mountRot[j] + Rc[3 * i + 1] * mountRot[3 + j] + Rc[3 * i + 2] * mountRot[6 + j])),
      pos: [0, 1, 2].map((i) => pc[i] + Rc[3 * i] * offset[0] + Rc[3 * i + 1] * offset[1] + Rc[3 * i + 2] * offset[2]),
    }
    const t0 = sim.time
    const spin = lidarPresets.spinning16
    const lidar = sim.addLidar({ ...spin, rangeMax: 50, mount: car, offset, rotation: mountRot, sweep: 'rotating' })
    const poses = [added]
    const L = sim.components.Lidar
    for (let s = 0; s < 6; s++) {
      sim.step(dt)
      poses.push({ rot: Array.from(L.pose.subarray(9 * lidar, 9 * lidar + 9)), pos: Array.from(L.origin.subarray(3 * lidar, 3 * lidar + 3)) })
    }
    expect(Math.hypot(poses[1].pos[0] - poses[0].pos[0], poses[1].pos[1] - poses[0].pos[1])).toBeGreaterThan(0.3) // 20 m/s: a third of a metre a step
    const scan = sim.lidarScan(lidar), P = spin.pattern.pitchCount, Y = spin.pattern.yawCount
    expect(scan.count).toBeGreaterThan(1000)
    // column by column: its time, and its points put in the world by the pose interpolated to that time, are rayTest's hits
    const at = new Map<number, number>() // ray index → its point
    for (let i = 0; i < scan.count; i++) at.set(scan.rays[i], i)
    const bad = new Set<number>()
    let matched = 0, firstStepColumns = 0
    for (let y = 0; y < Y; y++) {
      const t = y / (Y * spin.hz), step = Math.min(5, Math.floor(t / dt + 1e-9)), f = (t - step * dt) / dt
      if (step === 0) firstStepColumns++
      const p0 = poses[step], p1 = poses[step + 1]
      const R = matOf(slerp(quatOf(p0.rot), quatOf(p1.rot), f)), pos = p0.pos.map((v, i) => v + f * (p1.pos[i] - v))
      for (let p = 0; p < P; p++) {
        const yaw = spin.pattern.yawStart + y * spin.pattern.yawIncrement, pitch = spin.pattern.pitchStart + p * spin.pattern.pitchIncrement
        const d = [Math.cos(pitch) * Math.cos(yaw), Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch)]
        const w = [0, 1, 2].map((i) => R[3 * i] * d[0] + R[3 * i + 1] * d[1] + R[3 * i + 2] * d[2])
        const h = sim.rayTest(pos.map((v, i) => v + spin.rangeMin * w[i]), w, 50 - spin.rangeMin, car, 0).at(0)
        const k = at.get(y * P + p)
        if (!h || k === undefined) { if (h || k !== undefined) bad.add(y); continue }
        matched++
        if (Math.abs(scan.times![k] - (t0 + t)) > 1e-9) bad.add(y)
        for (let i = 0; i < 3; i++) {
          const world = pos[i] + R[3 * i] * scan.points[3 * k] + R[3 * i + 1] * scan.points[3 * k + 1] + R[3 * i + 2] * scan.points[3 * k + 2]
          if (Math.abs(world - h.position[i]) > 1e-6) bad.add(y)
        }
      }
    }
    expect(firstStepColumns).toBe(171) // of 1024: the columns the bug cast from the wrong pose
    expect([...bad]).toEqual([])
    expect(matched).toBe(scan.count)
  })

  it('is the same bits with stepMany as with step, and with noise across runs', () => {
    const run = (many: boolean) => {
      const sim = scene()
      const car = sim.addCar({ position: [0, 0], speed: 10 })
      sim.setInput(car, { throttle: 0.5, steer: -0.3, gear: 1 })
      const lidar = sim.addLidar({ ...lidarPresets.spinning16, pattern: { ...lidarPresets.spinning16.pattern, yawCount: 256, yawIncrement: (2 * Math.PI) / 256 }, mount: car, offset: [0, 0, 1], sweep: 'rotating', noise: { range: 0.02, dropout: 0.1, seed: 5 } })
      if (many) sim.stepMany(1 / 60, 20)
      else for (let s = 0; s < 20; s++) sim.step(1 / 60)
      const scan = sim.lidarScan(lidar)
      return { ...plain(scan), times: Array.from(scan.times!.subarray(0, scan.count)) }
    }
    const a = run(false)
    expect(a.rays.length).toBeGreaterThan(100)
    expect(run(false)).toEqual(a)
    expect(run(true)).toEqual(a)
  })

  it('restored mid-sweep continues with the same points as the run that was not restored', () => {
    const build = () => {
      const sim = scene()
      const car = sim.addCar({ position: [0, 0], heading: 0.4, speed: 12 })
      sim.setInput(car, { throttle: 0.5, steer: 0.3, gear: 1 })
      const lidar = sim.addLidar({ pattern, rangeMin: 0.5, rangeMax: 50, mount: car, offset: [0.2, 0, 1], hz: 10, sweep: 'rotating',
        attributes: { hits: true, normals: true, intensity: true }, noise: { range: 0.01, dropout: 0.05, seed: 3 } })
      return { sim, lidar }
    }
    const every = (scan: LidarScan) => [scan.count, ...(['points', 'rays', 'distances', 'colliders', 'objects', 'localIds', 'normals', 'cosines', 'intensities', 'times'] as const)
      .flatMap((k) => Array.from(scan[k]!.subarray(0, (k === 'points' || k === 'normals' ? 3 : 1) * scan.count)))]
    /** Each step's sweep and slice, for `steps` steps. */
    const record = (sim: Sim, lidar: number, steps: number) => {
      const out: number[][] = []
      for (let s = 0; s < steps; s++) { sim.step(1 / 60); out.push(every(sim.lidarScan(lidar)), every(sim.lidarScan(lidar, 'slice'))) }
      return out
    }
    const a = build()
    for (let s = 0; s < 9; s++) a.sim.step(1 / 60) // one sweep done, the second half cast
    const text = JSON.stringify(snapshotWorld(a.sim))
    const sliceAtSnapshot = every(a.sim.lidarScan(a.lidar, 'slice'))
    expect(sliceAtSnapshot[0]).toBeGreaterThan(0)
    const run = record(a.sim, a.lidar, 10) // completes the sweep in progress and half the next
    expect(run.some((x) => x[0] > 500)).toBe(true)
    // a fresh sim built the same way (nothing of the sweep in it yet), restored mid-sweep
    const b = build()
    restoreWorld(b.sim, JSON.parse(text))
    expect(every(b.sim.lidarScan(b.lidar, 'slice'))).toEqual(sliceAtSnapshot)
    expect(record(b.sim, b.lidar, 10)).toEqual(run)
    // the first sim itself, taken back to the snapshot after its own run went on
    restoreWorld(a.sim, JSON.parse(text))
    expect(record(a.sim, a.lidar, 10)).toEqual(run)
    // a lidar whose scans carry other attributes, or that sweeps otherwise, is refused by name
    const other = scene()
    const c = other.addCar({ position: [0, 0], heading: 0.4, speed: 12 })
    other.addLidar({ pattern, rangeMin: 0.5, rangeMax: 50, mount: c, offset: [0.2, 0, 1], hz: 10, sweep: 'rotating' })
    expect(() => restoreWorld(other, JSON.parse(text))).toThrow(/snap\.lidars\[0\]\.scan: lidar \d+'s scans do not carry 'colliders'/)
  })

  it('refuses a rotating sweep without hz, and slices of a whole-sweep lidar', () => {
    const sim = scene()
    expect(() => sim.addLidar({ pattern, rangeMin: 0, rangeMax: 10, sweep: 'rotating' })).toThrow(/hz/)
    expect(() => sim.addLidar({ pattern, rangeMin: 0, rangeMax: 10, hz: 10, sweep: 'spinning' as never })).toThrow(/options\.sweep/)
    const whole = sim.addLidar({ pattern, rangeMin: 0, rangeMax: 10 })
    expect(() => sim.lidarScan(whole, 'slice')).toThrow(/not a rotating lidar/)
  })
})
