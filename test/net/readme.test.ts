// The multiplayer guide's pitlane/net example (docs/guide/multiplayer.md), run as written (imports from src/), with checks after it.
import { expect, it } from 'vitest'
import { createWorld } from 'bitecs'
import { createSim } from '../../src/index'
import { createInputReceiver, createInterpolation, createPrediction, createSnapshotDecoder, createSnapshotEncoder, POSE_STRIDE, type Prediction } from '../../src/net/index'

it('runs the multiplayer guide example: a client predicting its car against a server in one process', () => {
  const server = createSim(createWorld())
  const car = server.addCar()
  const inputs = createInputReceiver(server, car)
  const encoder = createSnapshotEncoder(server)
  const client = createSim(createWorld())
  const decoder = createSnapshotDecoder(client)
  const others = createInterpolation(client, { delay: 0.1 })
  let ack: number | undefined, prediction: Prediction | undefined
  for (let step = 0; step < 600; step++) {
    if (prediction) {
      inputs.receive(prediction.input({ gear: 1, throttle: 0.5 }))
      client.step(1 / 60)
    }
    inputs.apply()
    server.step(1 / 60)
    if (step % 3 === 0) {
      const bytes = encoder.encode(ack, { car, lastInput: inputs.lastInput })
      ack = decoder.decode(bytes)
      prediction ??= createPrediction(client, decoder.ownCar)
      prediction.reconcile(decoder.lastInput)
      others.record(decoder.time, performance.now() / 1000)
    }
  }
  const s = server.carState(car), c = client.carState(decoder.ownCar)
  expect(s.position[0]).toBeGreaterThan(50) // it drove
  // both have applied the same inputs (no latency here); the last two are not acknowledged yet
  expect(prediction!.pending).toBe(2)
  expect(Math.hypot(c.position[0] - s.position[0], c.position[1] - s.position[1])).toBeLessThan(0.005)
  const pose = new Float64Array(POSE_STRIDE)
  others.update(performance.now() / 1000)
  expect(others.poseAt(decoder.ownCar, pose)).toBe(true)
})
