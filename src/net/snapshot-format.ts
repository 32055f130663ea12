/**
 * The snapshot message, server to one client (format version 1; all integers are LEB128 varints,
 * signed ones zigzag):
 *
 *   u8   0x53 ('S'), the message kind;  u8 1, the format version
 *   uvar tick (the server sim's step count);  f64 time (its sim time, s, little-endian)
 *   uvar base: 0 for a full snapshot, else tick − the baseline's tick (a delta)
 *   uvar own car's id + 1 (0: none);  uvar last input seq + 1 (0: none)
 *   uvar removed count, then each removed car id (delta only: cars of the baseline now gone)
 *   uvar record count, then per record:
 *     uvar car id;  uvar head = poseMask << 3 | flags (1 NEW, 2 DYNAMIC, 4 DYNAMIC_ABSOLUTE)
 *     NEW only: uvar definition index
 *     svar residual of each pose field whose mask bit is set (others: residual 0)
 *     DYNAMIC only: uvar dynamic mask, then svar residuals likewise
 *
 * A field's value is its prediction plus its residual (fields.ts): from zero for a NEW car and
 * for DYNAMIC_ABSOLUTE dynamic fields, else from the baseline's record of that car. A delta lists
 * only cars whose record differs from the prediction; an unlisted car of the baseline is its
 * prediction. A full snapshot lists every car, each NEW, and removes every car it does not list.
 */
import { DYNAMIC_FIELDS, POSE_FIELDS } from './fields'

/** Byte 0 of a snapshot message. */
export const SNAPSHOT_KIND = 0x53
/** The snapshot format version written and read. */
export const SNAPSHOT_FORMAT_VERSION = 1
/** Record flag: the car is new (absolute pose, definition index follows). */
export const FLAG_NEW = 1
/** Record flag: the dynamic fields follow (the client's own car). */
export const FLAG_DYNAMIC = 2
/** Record flag: the dynamic fields are absolute (the baseline had none for this car). */
export const FLAG_DYNAMIC_ABSOLUTE = 4
/** Most cars a snapshot may hold. */
export const MAX_CARS = 4096
/** Largest car id on the wire. */
export const MAX_CAR_ID = 0x7fffffff
/** Largest server time a snapshot may carry, s. */
export const MAX_TIME = 1e12
/** Largest pose mask. */
export const POSE_MASK_MAX = (1 << POSE_FIELDS) - 1
/** Largest dynamic mask. */
export const DYNAMIC_MASK_MAX = (1 << DYNAMIC_FIELDS) - 1

/** One car as a snapshot holds it: quantised counts (what encoder and decoder both hold). */
export interface CarRecord {
  /** Index into the definitions list. */
  def: number
  /** Pose counts (POSE_FIELDS). */
  pose: Float64Array
  /** Dynamic counts (DYNAMIC_FIELDS), or null when the car was sent without them. */
  dyn: Float64Array | null
}

/** A snapshot as encoder and decoder keep it for later deltas. */
export interface SnapshotEntry {
  tick: number
  time: number
  cars: Map<number, CarRecord>
}
