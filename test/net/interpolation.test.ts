// Interpolation: a remote car drawn between 20 Hz snapshots follows the server's true path (kept
// at 60 Hz) to centimetres, passes through the samples, extrapolates briefly, and maps local time
// onto server time.
import { describe, expect, it } from 'vitest'
import v8 from 'node:v8'
import { createInterpolation, createSnapshotDecoder, createSnapshotEncoder, POSE_STRIDE } from '../../src/net/index'
import { clientSim, raceServer } from './scene'

const DT = 1 / 60

describe('createInterpolation', () => {
  it('draws remote cars on the server path between snapshots, delay seconds behind', () => {
    // single-track at 240 Hz: four substeps a step, so each step's state is exactly at its sim time
    // (at 1 kHz a 60 Hz step runs 16 or 17 substeps, and a car's clock wanders ±1 ms about the sim's)
    const { sim: server, cars } = raceServer(3, 25, 240)
    server.stepMany(DT, 300) // up to speed, some on the bends
    const enc = createSnapshotEncoder(server)
    const client = clientSim()
    const dec = createSnapshotDecoder(client)
    const interp = createInterpolation(client, { delay: 0.1 })
    const truth = new Map<number, Float64Array>() // server step → x, y, heading per car
    let ack: number | undefined
    const pose = new Float64Array(POSE_STRIDE)
    const errors: number[] = [], headingErrors: number[] = []
    let linearErrors = 0
    const latency = 0.05
    for (let k = 1; k <= 360; k++) {
      server.step(DT)
      const row = new Float64Array(cars.length * 3)
      cars.forEach((c, i) => { const s = server.carState(c); row[3 * i] = s.position[0]; row[3 * i + 1] = s.position[1]; row[3 * i + 2] = s.heading })
      truth.set(server.steps, row)
      const now = k * DT + latency // the client's clock when this step's snapshot arrives
      if (k % 3 === 0) {
        ack = dec.decode(enc.encode(ack))
        interp.record(dec.time, now)
      }
      if (k < 30) continue
      // the frame: server time to draw, and each car there against the truth at that time
      interp.update(now)
      const t = interp.renderTime
      expect(t).toBeCloseTo(server.time - 0.1, 6)
      expect(interp.time(now)).toBe(t)
      const step = Math.round(t / DT)
      if (Math.abs(step * DT - t) > 1e-6 || !truth.has(step)) continue
      const want = truth.get(step)!
      cars.forEach((c, i) => {
        expect(interp.poseAt(dec.localCar(enc.carId(c)), pose)).toBe(true)
        errors.push(Math.hypot(pose[0] - want[3 * i], pose[1] - want[3 * i + 1]))
        headingErrors.push(Math.abs(pose[3] - want[3 * i + 2]))
      })
      // against linear interpolation of the same samples: Hermite through velocities does better on bends
      const prev = truth.get(Math.floor(step / 3) * 3)!, next = truth.get(Math.floor(step / 3) * 3 + 3)
      if (next) {
        const s = (step % 3) / 3
        for (let i = 0; i < cars.length; i++) {
          const lx = prev[3 * i] + (next[3 * i] - prev[3 * i]) * s, ly = prev[3 * i + 1] + (next[3 * i + 1] - prev[3 * i + 1]) * s
          linearErrors = Math.max(linearErrors, Math.hypot(lx - want[3 * i], ly - want[3 * i + 1]))
        }
      }
    }
    expect(errors.length).toBeGreaterThan(300)
    expect(Math.max(...errors)).toBeLessThan(0.002)
    expect(Math.max(...headingErrors)).toBeLessThan(0.005)
    expect(linearErrors).toBeGreaterThan(2 * Math.max(...errors))
  })

  it('passes through its samples, holds before the first, extrapolates at most `extrapolate` after the last, and forgets removed cars', () => {
    const server = clientSim()
    const car = server.addCar({ position: [0, 0], speed: 20 })
    server.setInput(car, { gear: 1, throttle: 0.3 })
    const client = clientSim()
    const dec = createSnapshotDecoder(client)
    const interp = createInterpolation(client, { delay: 0, extrapolate: 0.2 })
    const enc = createSnapshotEncoder(server)
    const pose = new Float64Array(POSE_STRIDE)
    expect(Number.isNaN(interp.time(0))).toBe(true)
    const samples: [number, number, number][] = []
    for (let i = 0; i < 4; i++) {
      server.stepMany(DT, 3)
      dec.decode(enc.encode())
      interp.record(dec.time, 10 + dec.time)
      const local = dec.localCar(0)
      samples.push([dec.time, client.carState(local).position[0], client.carState(local).velocity[0]])
    }
    const local = dec.localCar(0)
    for (const [t, x] of samples) { interp.seek(t); interp.poseAt(local, pose); expect(pose[0]).toBeCloseTo(x, 9) }
    interp.seek(0)
    interp.poseAt(local, pose)
    expect(pose[0]).toBeCloseTo(samples[0][1], 9)
    const [tl, xl, vl] = samples[3]
    interp.seek(tl + 0.1)
    interp.poseAt(local, pose)
    expect(pose[0]).toBeCloseTo(xl + vl * 0.1, 9)
    interp.seek(tl + 5)
    interp.poseAt(local, pose)
    expect(pose[0]).toBeCloseTo(xl + vl * 0.2, 9)
    expect(interp.time(11)).toBeCloseTo(11 - 10, 9)
    expect(interp.poseAt(999, pose)).toBe(false)
    client.remove(local)
    expect(interp.poseAt(local, pose)).toBe(false)
    expect(() => createInterpolation(client, { delay: -1 })).toThrow(RangeError)
    expect(() => createInterpolation(client, { lag: 1 } as object)).toThrow(/options.lag is not an option/)
    expect(() => interp.record(NaN, 0)).toThrow(RangeError)
    expect(() => interp.poseAt(local, [0, 0, 0, 0, 0, 0] as unknown as Float64Array)).toThrow(TypeError)
    expect(() => interp.poseAt(local, pose, 1)).toThrow(RangeError)
    expect(() => interp.seek(NaN)).toThrow(RangeError)
    const all = new Float64Array(2 * POSE_STRIDE)
    expect(interp.poseAt(dec.localCar(0), all, POSE_STRIDE)).toBe(false) // removed above

    interp.dispose()
  })

  it('allocates nothing per frame: 20 cars a frame into one buffer, after warm-up', () => {
    const { sim: server, cars } = raceServer(20, 25, 240)
    const enc = createSnapshotEncoder(server)
    const client = clientSim()
    const dec = createSnapshotDecoder(client)
    const interp = createInterpolation(client)
    let ack: number | undefined
    for (let i = 0; i < 30; i++) {
      server.stepMany(DT, 3)
      ack = dec.decode(enc.encode(ack))
      interp.record(dec.time, i * 0.05)
    }
    const locals = Int32Array.from(cars, (c) => dec.localCar(enc.carId(c)))
    const poses = new Float64Array(20 * POSE_STRIDE)
    const frames = (n: number) => {
      for (let f = 0; f < n; f++) {
        interp.update(1.25 + (f & 63) * 0.003) // (a double argument: at most one heap number a frame)
        for (let i = 0; i < 20; i++) interp.poseAt(locals[i], poses, i * POSE_STRIDE)
      }
    }
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_used_size
    frames(20000) // warm-up
    let perFrame = Infinity
    for (let attempt = 0; attempt < 5 && perFrame === Infinity; attempt++) {
      const a = newSpace()
      frames(2000)
      const b = newSpace()
      if (b >= a) perFrame = (b - a) / 2000 // (a scavenge in between: try again)
    }
    // the time passed per car, or an object out-parameter, would box 8–16 B a car: 160–320 B a frame
    expect(perFrame).toBeLessThanOrEqual(16)
    expect(poses.every(Number.isFinite)).toBe(true)
  })
})
