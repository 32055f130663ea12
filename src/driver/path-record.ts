/**
 * A path car's record (PathLevelState.here, PATH_RECORD numbers per entity id): what a path-level
 * step reads, side by side, so a step reads one record per car in car order. It is copied from its
 * path when the car reaches another segment (the segment's geometry and line from DriverPath.level,
 * its profile from DriverPath.speeds, and the path's own numbers), and is a copy only: a snapshot
 * does not hold it, and a car whose record is for another segment (RECORD_SEG) copies it again.
 */

/** The segment's start x, y, unit tangent x, y, arc length at its start, and length (the packed record's SEG_X … SEG_LEN). */
export const RECORD_X = 0, RECORD_Y = 1, RECORD_TX = 2, RECORD_TY = 3, RECORD_S = 4, RECORD_LEN = 5
/** The profile's v² at the segment's start and its rate along the segment (SEG_V2, SEG_ACCEL). */
export const RECORD_V2 = 6, RECORD_ACCEL = 7
/** The line's direction at the segment's start and its rate, the curvature there and its rate (DriverPath.line). */
export const RECORD_HEADING = 8, RECORD_TURN_RATE = 9, RECORD_KAPPA = 10, RECORD_KAPPA_RATE = 11
/** The segment the record holds (-1: none yet). */
export const RECORD_SEG = 12
/** The whole turns of heading (2π·k) the last step added to the line's direction. */
export const RECORD_WRAP = 13
/** The path's driveAccel, brakeDecel, length, and 1 when it is closed (0 open). */
export const RECORD_DRIVE_ACCEL = 14, RECORD_BRAKE_DECEL = 15, RECORD_LENGTH = 16, RECORD_CLOSED = 17
/** Numbers per car. */
export const PATH_RECORD = 18
/**
 * How far (rad) the car's heading may be from the line's plus the last whole turns before the turns
 * are worked out again (a new lap, or a heading written from outside): below π, so the turns kept
 * are the ones the rounding would give.
 */
export const WRAP_CHECK = 1.5
