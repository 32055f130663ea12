/** A ring of numbered input records (client pending inputs, server queue), allocation-free. */
import type { CarInput } from '../index'

/** A fixed-capacity FIFO of (seq, input) pairs; pushing into a full ring drops the oldest. */
export class InputRing {
  private readonly seqs: Float64Array
  private readonly fields: Float64Array
  private head = 0
  /** Inputs held. */
  count = 0

  constructor(readonly capacity: number) {
    this.seqs = new Float64Array(capacity)
    this.fields = new Float64Array(capacity * 6)
  }

  /** Appends `input` with sequence number `seq`. */
  push(seq: number, input: CarInput): void {
    const slot = (this.head + this.count) % this.capacity
    if (this.count === this.capacity) this.head = (this.head + 1) % this.capacity
    else this.count++
    this.seqs[slot] = seq
    const f = this.fields, i = slot * 6
    f[i] = input.steer; f[i + 1] = input.throttle; f[i + 2] = input.brake
    f[i + 3] = input.handbrake; f[i + 4] = input.clutch; f[i + 5] = input.gear
  }

  /** The sequence number of the k-th oldest input. */
  seqAt(k: number): number {
    return this.seqs[(this.head + k) % this.capacity]
  }

  /** Copies the k-th oldest input into `out`. */
  inputAt(k: number, out: CarInput): void {
    const f = this.fields, i = ((this.head + k) % this.capacity) * 6
    out.steer = f[i]; out.throttle = f[i + 1]; out.brake = f[i + 2]
    out.handbrake = f[i + 3]; out.clutch = f[i + 4]; out.gear = f[i + 5]
  }

  /** Drops the oldest input. */
  shift(): void {
    this.head = (this.head + 1) % this.capacity
    this.count--
  }

  /** Drops every input. */
  clear(): void {
    this.head = 0
    this.count = 0
  }
}
