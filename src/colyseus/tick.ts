/** The room's fixed step, s: the server and every client step at 60 Hz. */
export const TICK_SECONDS = 1 / 60
