/**
 * pitlane/net: transport-agnostic multiplayer for an authoritative server. Binary input messages
 * (client to server), quantised snapshots with deltas against the last acknowledged one (server
 * to client), client-side prediction of the player's car with replay, and interpolation of the
 * other cars. Bring any transport (pitlane/colyseus uses Colyseus). Formats and figures:
 * docs/decisions/0012-net.md.
 *
 * ```ts
 * // server, per client: its car, an input receiver and a snapshot encoder
 * const inputs = createInputReceiver(sim, car)
 * const encoder = createSnapshotEncoder(sim)
 * onMessage(bytes => inputs.receive(bytes)); onAck(tick => ack = tick)
 * every 1/60 s: inputs.apply() (each client), sim.step(1 / 60)
 * every 3rd step: send(encoder.encode(ack, { car, lastInput: inputs.lastInput }))
 *
 * // client
 * const decoder = createSnapshotDecoder(sim), interp = createInterpolation(sim)
 * let prediction: Prediction | null = null
 * onSnapshot(bytes => {
 *   sendAck(decoder.decode(bytes))
 *   prediction ??= createPrediction(sim, decoder.ownCar)
 *   prediction.reconcile(decoder.lastInput)
 *   interp.record(decoder.time, performance.now() / 1000)
 * })
 * every 1/60 s: send(prediction.input({ steer, throttle })); sim.step(1 / 60)
 * each frame: draw decoder.ownCar from sim.carState; others with interp.poseAt(car, interp.time(now), pose)
 * ```
 */
export { encodeInput, decodeInput, decodeInputInto, INPUT_BYTES, INPUT_VERSION, MAX_GEAR } from './input'
export type { InputMessage } from './input'
export { createSnapshotEncoder } from './snapshot-encoder'
export type { SnapshotEncoder, SnapshotEncoderOptions, SnapshotExtras } from './snapshot-encoder'
export { createSnapshotDecoder } from './snapshot-decoder'
export type { SnapshotDecoder, SnapshotDecoderOptions } from './snapshot-decoder'
export { SNAPSHOT_FORMAT_VERSION } from './snapshot-format'
export { POSE_QUANTA, DYNAMIC_QUANTA } from './fields'
export { createPrediction, createInputReceiver } from './prediction'
export type { Prediction, PredictionOptions, InputReceiver, InputReceiverOptions } from './prediction'
export { createInterpolation } from './interpolation'
export type { Interpolation, InterpolationOptions, NetPose } from './interpolation'
