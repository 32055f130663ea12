/**
 * The quantised car state of the snapshot messages. Every car carries the pose fields (enough to
 * draw it and to interpolate it); the client's own car also carries the dynamic fields, so its
 * prediction restarts from the whole server state. Each field is an integer count of its quantum.
 * A delta predicts each field from the baseline (positions and heading extrapolated by the
 * baseline's velocity and yaw rate over the time between the two snapshots; the car clock by that
 * time; the rest unchanged) and sends the residual, so a car in steady motion costs a byte a field.
 */
import type { Sim } from '../index'

/** Pose field indices. */
export const P_X = 0, P_Y = 1, P_HEADING = 2, P_VX = 3, P_VY = 4, P_YAW_RATE = 5, P_ROLL = 6, P_PITCH = 7, P_HEAVE = 8, P_STEER = 9, P_GEAR = 10
/** Number of pose fields. */
export const POSE_FIELDS = 11
/** Dynamic field indices (the own car only; D_WHEEL is the first of four, FL, FR, RL, RR). */
export const D_SPEED = 0, D_HEAVE_RATE = 1, D_ROLL_RATE = 2, D_PITCH_RATE = 3, D_ENGINE = 4, D_SHIFT = 5, D_AX = 6, D_TIME = 7, D_ACC = 8, D_WHEEL = 9, D_LEVEL = 13, D_HZ = 14
/** Number of dynamic fields. */
export const DYNAMIC_FIELDS = 15
/** Level of detail by its wire code (the D_LEVEL field). */
export const WIRE_LEVELS = ['full', 'singleTrack', 'frozen', 'path'] as const

/** Quantum of each pose field: m, m, rad, m/s (world frame), m/s, rad/s, rad, rad, m, rad, gear. */
export const POSE_QUANTA = [1e-3, 1e-3, 1e-4, 1e-2, 1e-2, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1] as const
/** Quantum of each dynamic field: m/s, m/s, rad/s, rad/s, rad/s (engine), s, m/s², s (clock), step fraction, rad/s ×4, level code, Hz. */
export const DYNAMIC_QUANTA = [1e-3, 1e-3, 1e-3, 1e-3, 1e-2, 1e-4, 1e-3, 1e-6, 1e-6, 1e-3, 1e-3, 1e-3, 1e-3, 1, 1e-3] as const
/** Plausibility bound of each pose field: |value| ≤ bound (the velocity bound applies to its magnitude). */
export const POSE_BOUNDS = [1e9, 1e9, 1e9, 200, 200, 50, 1.5, 1.5, 5, 1.5, 16] as const
/** Bounds [lo, hi] of each dynamic field. */
export const DYNAMIC_BOUNDS: readonly (readonly [number, number])[] = [
  [-300, 300], [-100, 100], [-100, 100], [-100, 100], [0, 5000], [0, 5], [-1000, 1000], [0, 1e9], [-1e-3, 1.001],
  [-5000, 5000], [-5000, 5000], [-5000, 5000], [-5000, 5000], [0, 3], [60, 20000],
]
// Scales (1 / quantum) used to quantise: v * scale rounds to the count, count / scale is the value.
const POSE_SCALES = POSE_QUANTA.map((q) => Math.round(1 / q))
const DYNAMIC_SCALES = DYNAMIC_QUANTA.map((q) => Math.round(1 / q))
// Position counts per velocity count per second (1e-2 m/s over 1e-3 m), heading counts per yaw-rate count.
const POS_PER_VEL = POSE_SCALES[P_X] / POSE_SCALES[P_VX]
const HEADING_PER_YAW = POSE_SCALES[P_HEADING] / POSE_SCALES[P_YAW_RATE]

const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v)

/** Writes the quantised pose of `car` into `out` (POSE_FIELDS counts), reading the sim's Car store. */
export function capturePose(sim: Sim, car: number, out: Float64Array): void {
  const C = sim.components.Car
  const h = C.heading[car]
  const c = Math.cos(h), s = Math.sin(h)
  const vx = C.vx[car], vy = C.vy[car]
  out[P_X] = Math.round(clamp(C.x[car], -1e9, 1e9) * POSE_SCALES[P_X])
  out[P_Y] = Math.round(clamp(C.y[car], -1e9, 1e9) * POSE_SCALES[P_Y])
  out[P_HEADING] = Math.round(clamp(h, -1e9, 1e9) * POSE_SCALES[P_HEADING])
  // world-frame velocity, its magnitude kept within the bound after rounding
  const speed = Math.hypot(vx, vy)
  const k = speed > 199.9 ? 199.9 / speed : 1
  out[P_VX] = Math.round((vx * c - vy * s) * k * POSE_SCALES[P_VX])
  out[P_VY] = Math.round((vx * s + vy * c) * k * POSE_SCALES[P_VY])
  out[P_YAW_RATE] = Math.round(clamp(C.yawRate[car], -50, 50) * POSE_SCALES[P_YAW_RATE])
  out[P_ROLL] = Math.round(clamp(C.roll[car], -1.5, 1.5) * POSE_SCALES[P_ROLL])
  out[P_PITCH] = Math.round(clamp(C.pitch[car], -1.5, 1.5) * POSE_SCALES[P_PITCH])
  out[P_HEAVE] = Math.round(clamp(C.heave[car], -5, 5) * POSE_SCALES[P_HEAVE])
  out[P_STEER] = Math.round(clamp(C.steerAngle[car], -1.5, 1.5) * POSE_SCALES[P_STEER])
  out[P_GEAR] = clamp(C.gearActual[car], -1, 16)
}

/** Writes the quantised dynamic fields of `car` into `out` (DYNAMIC_FIELDS counts). */
export function captureDynamic(sim: Sim, car: number, out: Float64Array): void {
  const C = sim.components.Car
  const q = (v: number, i: number) => Math.round(clamp(v, DYNAMIC_BOUNDS[i][0], DYNAMIC_BOUNDS[i][1]) * DYNAMIC_SCALES[i])
  out[D_SPEED] = q(C.speed[car], D_SPEED)
  out[D_HEAVE_RATE] = q(C.heaveRate[car], D_HEAVE_RATE)
  out[D_ROLL_RATE] = q(C.rollRate[car], D_ROLL_RATE)
  out[D_PITCH_RATE] = q(C.pitchRate[car], D_PITCH_RATE)
  out[D_ENGINE] = q(C.engineSpeed[car], D_ENGINE)
  out[D_SHIFT] = q(C.shiftTimer[car], D_SHIFT)
  out[D_AX] = q(C.ax[car], D_AX)
  out[D_TIME] = q(C.time[car], D_TIME)
  out[D_ACC] = q(C.acc[car], D_ACC)
  const o = car * 4
  for (let w = 0; w < 4; w++) out[D_WHEEL + w] = q(C.wheelSpeed[o + w], D_WHEEL + w)
  const lod = sim.getLod(car)
  out[D_LEVEL] = WIRE_LEVELS.indexOf(lod.level)
  out[D_HZ] = q(lod.hz, D_HZ)
}

/** The pose a delta predicts from baseline `base` after `dt` seconds, into `out` (counts). */
export function predictPose(base: Float64Array, dt: number, out: Float64Array): void {
  out.set(base)
  out[P_X] = base[P_X] + Math.round(base[P_VX] * POS_PER_VEL * dt)
  out[P_Y] = base[P_Y] + Math.round(base[P_VY] * POS_PER_VEL * dt)
  out[P_HEADING] = base[P_HEADING] + Math.round(base[P_YAW_RATE] * HEADING_PER_YAW * dt)
}

/** The dynamic fields a delta predicts from baseline `base` after `dt` seconds, into `out` (counts). */
export function predictDynamic(base: Float64Array, dt: number, out: Float64Array): void {
  out.set(base)
  out[D_TIME] = base[D_TIME] + Math.round(dt * DYNAMIC_SCALES[D_TIME])
}

/** Why `pose` (counts) is implausible, or null. */
export function poseProblem(pose: Float64Array): string | null {
  for (let i = 0; i < POSE_FIELDS; i++) {
    if (i === P_VX || i === P_VY) continue
    const v = pose[i] / POSE_SCALES[i]
    if (!(Math.abs(v) <= POSE_BOUNDS[i])) return `pose field ${i} is ${v}, beyond ±${POSE_BOUNDS[i]}`
  }
  if (pose[P_GEAR] < -1) return `gear ${pose[P_GEAR]} is below -1`
  const speed = Math.hypot(pose[P_VX], pose[P_VY]) / POSE_SCALES[P_VX]
  if (!(speed <= 200)) return `velocity ${speed} m/s is beyond 200`
  return null
}

/** Why `dyn` (counts) is implausible, or null. */
export function dynamicProblem(dyn: Float64Array): string | null {
  for (let i = 0; i < DYNAMIC_FIELDS; i++) {
    const v = dyn[i] / DYNAMIC_SCALES[i]
    const [lo, hi] = DYNAMIC_BOUNDS[i]
    if (!(v >= lo && v <= hi)) return `dynamic field ${i} is ${v}, outside [${lo}, ${hi}]`
  }
  return null
}

/** The physical value of pose field `i` from its count. */
export const poseValue = (pose: Float64Array, i: number): number => pose[i] / POSE_SCALES[i]
/** The physical value of dynamic field `i` from its count. */
export const dynamicValue = (dyn: Float64Array, i: number): number => dyn[i] / DYNAMIC_SCALES[i]
