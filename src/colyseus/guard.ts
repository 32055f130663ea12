/**
 * The room's guard against hostile clients: a per-client message budget (a token bucket, so a
 * client sending inputs at the sim rate never touches it and a flood costs one comparison per
 * message) and a refusal log that names each client once, then only counts.
 */

/** Messages a client may send per second on average (inputs at 60 Hz plus acks at 30 Hz, with room to spare). */
export const MAX_MESSAGES_PER_SECOND = 120
/** Messages a client may send in one burst (a stalled tab catching up). */
export const MESSAGE_BURST = 60

/** Why a message was refused. */
export type Refusal = 'rate' | 'type' | 'size' | 'malformed' | 'order'

/** One client's budget and refusal count. */
export interface ClientGuard {
  /** True when a message arriving at `now` (ms) is within the budget (and takes one from it). */
  admit(now: number): boolean
  /** Counts a refusal; logs the first one of this client with `why`. */
  refuse(reason: Refusal, detail: string): void
  /** Messages refused so far. */
  readonly refused: number
}

/** A guard for the client `name` that logs with `log`. */
export function createClientGuard(name: string, log: (line: string) => void, perSecond = MAX_MESSAGES_PER_SECOND, burst = MESSAGE_BURST): ClientGuard {
  let tokens = burst
  let last = -1
  let refused = 0
  return {
    admit(now) {
      if (last >= 0) tokens = Math.min(burst, tokens + ((now - last) * perSecond) / 1000)
      last = now
      if (tokens < 1) return false
      tokens -= 1
      return true
    },
    refuse(reason, detail) {
      if (refused === 0) log(`pitlane room: refusing messages from client ${name} (${reason}: ${detail}); further refusals are counted, not logged`)
      refused++
    },
    get refused() { return refused },
  }
}
