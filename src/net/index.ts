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
 * each frame: draw decoder.ownCar from sim.carState; others: interp.update(now), then
 * interp.poseAt(car, pose) (pose: a Float64Array of x, y, z, heading, roll, pitch)
 * ```
 * The rules both ends keep: one input per fixed step, even an unchanged one (`input({})`), so the
 * inputs not yet applied are the steps the client is ahead; the server applies one input per step
 * before stepping and encodes after; a joining or reconnecting client starts without an ack (a
 * full snapshot) and, with a new prediction, a reset() receiver; both ends use the same
 * `definitions`.
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
export { createInterpolation, POSE_STRIDE } from './interpolation'
export type { Interpolation, InterpolationOptions } from './interpolation'
