/** CarDefinition: the plain, documented description of a car, its validation, and the resolved form the models run on. */
import { describe } from '../validate'
import { tyreCurveTable } from './tyre'

/** Tyre parameters (a simplified Magic Formula on normalised combined slip, see tyre.ts). */
export interface TyreDefinition {
  /** Peak friction coefficient on dry tarmac at the nominal load. */
  mu: number
  /** Longitudinal slip ratio at the force peak (e.g. 0.1). */
  peakSlip: number
  /** Slip angle at the lateral force peak, rad (e.g. 0.14). */
  peakSlipAngle: number
  /** Fully sliding force as a fraction of the peak (0..1, e.g. 0.8). */
  slideRatio: number
  /** Friction loss per unit of load above nominal: μ(Fz) = μ·(1 − k·(Fz/Fz0 − 1)) (e.g. 0.1). */
  loadSensitivity: number
}

/** Engine parameters. */
export interface EngineDefinition {
  /** Idle speed the idle controller holds, rpm. */
  idleRpm: number
  /** Rev limiter: fuel is cut above this, rpm. */
  maxRpm: number
  /** Full-throttle torque curve, [[rpm, N·m], …] with rpm increasing (linear in between, clamped outside). */
  torqueCurve: number[][]
  /** Rotating inertia of engine and flywheel, kg·m². */
  inertia: number
  /** Friction (engine braking) torque at maxRpm with the throttle closed, N·m (proportional to rpm). */
  friction: number
}

/** Gearbox and clutch parameters. */
export interface GearboxDefinition {
  /** Forward gear ratios, first gear first. */
  ratios: number[]
  /** Reverse gear ratio (positive number). */
  reverse: number
  /** Final drive ratio. */
  finalDrive: number
  /** Driveline efficiency (0..1]. */
  efficiency: number
  /** True: shifts by itself (the input gear then picks -1 reverse, 0 neutral, >= 1 drive). */
  automatic: boolean
  /** Automatic: upshift at this engine rpm at full throttle. */
  shiftUpRpm: number
  /** Automatic: downshift below this engine rpm with the throttle closed (the throttle raises it: kick-down). */
  shiftDownRpm: number
  /** Torque interruption of a shift, s (automatic, and a manual box between two gears). */
  shiftTime: number
  /** Clutch torque capacity fully engaged, N·m. */
  clutchTorque: number
  /** Launch aid: the clutch closes progressively from idle up to this engine rpm (no stalling). */
  clutchEngageRpm: number
}

/** Brakes. */
export interface BrakeDefinition {
  /** Total brake torque of all four wheels at brake = 1, N·m. */
  maxTorque: number
  /** Fraction of brake torque on the front axle (0..1). */
  bias: number
  /** Handbrake torque on the rear axle at handbrake = 1, N·m. */
  handbrakeTorque: number
  /** Anti-lock braking: wheel brake torque is capped at what the tyre can take (no lock from the pedal). */
  abs: boolean
}

/** Suspension per axle. */
export interface SuspensionDefinition {
  /** Spring rate per front corner, N/m. */
  springFront: number
  /** Spring rate per rear corner, N/m. */
  springRear: number
  /** Damper rate per front corner, N·s/m. */
  damperFront: number
  /** Damper rate per rear corner, N·s/m. */
  damperRear: number
  /** Front anti-roll bar, N·m/rad of body roll. */
  antiRollFront: number
  /** Rear anti-roll bar, N·m/rad of body roll. */
  antiRollRear: number
}

/** A car: plain data, validated by addCar (a bad field gets an error naming it, e.g. `definition.mass`). */
export interface CarDefinition {
  /** A name for the car. */
  name: string
  /** The model run at level 'full'. */
  model: 'fourWheel' | 'singleTrack'
  /** Substep rate of the full model, Hz. */
  hz: number
  /** Mass with driver, kg. */
  mass: number
  /** Yaw moment of inertia, kg·m². */
  yawInertia: number
  /** Roll moment of inertia of the sprung mass, kg·m². */
  rollInertia: number
  /** Pitch moment of inertia of the sprung mass, kg·m². */
  pitchInertia: number
  /** Height of the centre of mass above the ground, m. */
  cgHeight: number
  /** Wheelbase, m. */
  wheelbase: number
  /** Distance from the centre of mass to the front axle, m (0 < x < wheelbase). */
  cgToFront: number
  /** Front track width, m. */
  trackFront: number
  /** Rear track width, m. */
  trackRear: number
  /** Body length (chassis collider), m. */
  length: number
  /** Body width (chassis collider), m. */
  width: number
  /** Body height (chassis collider), m. */
  height: number
  /** Tyre rolling radius, m. */
  wheelRadius: number
  /** Spin inertia of one wheel with tyre, disc and hub, kg·m². */
  wheelInertia: number
  /** Road-wheel steering angle at full lock, rad. */
  maxSteer: number
  /** Steering rate limit, rad/s of road-wheel angle. */
  steerRate: number
  /** Ackermann fraction: 0 parallel steer, 1 full Ackermann geometry. */
  ackermann: number
  /**
   * Steering compliance: front road-wheel angle given up per newton of front-axle lateral force,
   * rad/N (e.g. 4.5e-6 ≈ 0.26°/kN; default 0). The main source of a road car's understeer.
   */
  steerCompliance?: number
  /** Driven axle(s). */
  drive: 'front' | 'rear' | 'all'
  /** Differential on each driven axle. */
  differential: 'open' | 'limitedSlip'
  /** Limited slip: torque bias as a fraction of the input torque (0..1). */
  lsdLocking: number
  /** Limited slip: preload torque, N·m. */
  lsdPreload: number
  /** Traction control: drive torque is cut where it would spin a wheel past the tyre's peak slip. */
  tractionControl: boolean
  /** Drag coefficient Cd. */
  dragCoefficient: number
  /** Frontal area, m². */
  frontalArea: number
  /** Tyres. */
  tyre: TyreDefinition
  /** Engine. */
  engine: EngineDefinition
  /** Gearbox and clutch. */
  gearbox: GearboxDefinition
  /** Brakes. */
  brakes: BrakeDefinition
  /** Suspension. */
  suspension: SuspensionDefinition
}

/** A definition resolved into the numbers the models use (internal). */
export interface ResolvedCar {
  def: CarDefinition
  fourWheel: boolean
  hz: number
  mass: number
  iz: number
  ixx: number
  iyy: number
  h: number
  L: number
  a: number
  b: number
  tf: number
  tr: number
  R: number
  iw: number
  maxSteer: number
  steerRate: number
  ackermann: number
  /** Steering compliance, rad/N. */
  steerCompliance: number
  /** Cornering stiffness per unit load and grip at nominal load, per rad (μ·B·C/tan αpeak). */
  corneringPerLoad: number
  /** Drive torque share per wheel FL, FR, RL, RR (sums to 1). */
  driveShare: Float64Array
  /** Drive torque share for the single-track model: index 0 front axle, 2 rear axle. */
  axleShare: Float64Array
  /** Driven wheels per differential pair (1 or 2 pairs) and per axle flags. */
  frontDriven: boolean
  rearDriven: boolean
  lsd: boolean
  /** A limited-slip differential on a driven rear axle (the single-track model's locking). */
  rearLsd: boolean
  lsdLocking: number
  lsdPreload: number
  tcs: boolean
  dragK: number
  mu: number
  peakSlip: number
  peakSlipAngle: number
  mfB: number
  mfC: number
  /** The tyre curve tabulated for the single-track model (tyreCurveTable). */
  tyreTable: Float64Array
  loadSens: number
  /** Nominal tyre load (static load of an average corner), N. */
  fz0: number
  /** 1 / fz0. */
  invFz0: number
  idleW: number
  maxW: number
  curveW: Float64Array
  curveT: Float64Array
  engineInertia: number
  /** 1 / engineInertia. */
  invEngineInertia: number
  frictionPerW: number
  /** Overall ratios: index 0 reverse (negative), 1..n forward. */
  overall: Float64Array
  gears: number
  efficiency: number
  automatic: boolean
  upW: number
  downW: number
  shiftTime: number
  clutchTorque: number
  engageW: number
  brakeFront: number
  brakeRear: number
  handbrake: number
  abs: boolean
  kF: number
  kR: number
  cF: number
  cR: number
  arbF: number
  arbR: number
  /** Lateral load transfer per wheel per m/s² of lateral acceleration, front/rear (roll-stiffness split), N. */
  ltF: number
  ltR: number
  /** Static corner loads front/rear, N (per wheel). */
  fzF: number
  fzR: number
}

const RPM = Math.PI / 30

function num(o: Record<string, unknown>, key: string, path: string, lo: number, hi: number, open = false): number {
  const v = o[key]
  const name = `${path}.${key}`
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isFinite(v)) throw new RangeError(`${name} must be finite, got ${v}`)
  if (v < lo || v > hi || (open && v === lo)) throw new RangeError(`${name} must be in ${open ? '(' : '['}${lo}, ${hi}], got ${v}`)
  return v
}

function obj(v: unknown, name: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${name} must be an object, got ${describe(v)}`)
  return v as Record<string, unknown>
}

function oneOf<T extends string>(o: Record<string, unknown>, key: string, path: string, options: readonly T[]): T {
  const v = o[key]
  if (typeof v !== 'string' || !options.includes(v as T)) throw new RangeError(`${path}.${key} must be one of ${options.map((s) => `'${s}'`).join(', ')}, got ${describe(v)}`)
  return v as T
}

function bool(o: Record<string, unknown>, key: string, path: string): boolean {
  const v = o[key]
  if (typeof v !== 'boolean') throw new TypeError(`${path}.${key} must be a boolean, got ${describe(v)}`)
  return v
}

function numList(v: unknown, name: string, minLen: number, maxLen: number): unknown[] {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array, got ${describe(v)}`)
  if (v.length < minLen || v.length > maxLen) throw new RangeError(`${name} must have ${minLen} to ${maxLen} entries, got ${v.length}`)
  return v
}

/** Validates `definition` (throwing an error naming the bad field) and resolves it for the models. */
export function resolveDefinition(definition: unknown, gravity = 9.81, path = 'definition'): ResolvedCar {
  const d = obj(definition, path)
  if (typeof d.name !== 'string') throw new TypeError(`${path}.name must be a string, got ${describe(d.name)}`)
  const model = oneOf(d, 'model', path, ['fourWheel', 'singleTrack'] as const)
  const hz = num(d, 'hz', path, 60, 20000)
  const mass = num(d, 'mass', path, 1, 1e6, true)
  const iz = num(d, 'yawInertia', path, 0, 1e8, true)
  const ixx = num(d, 'rollInertia', path, 0, 1e8, true)
  const iyy = num(d, 'pitchInertia', path, 0, 1e8, true)
  const h = num(d, 'cgHeight', path, 0, 10)
  const L = num(d, 'wheelbase', path, 0, 50, true)
  const a = num(d, 'cgToFront', path, 0, L, true)
  if (a >= L) throw new RangeError(`${path}.cgToFront must be < ${path}.wheelbase (${L}), got ${a}`)
  const tf = num(d, 'trackFront', path, 0, 10, true)
  const tr = num(d, 'trackRear', path, 0, 10, true)
  num(d, 'length', path, 0, 50, true)
  num(d, 'width', path, 0, 10, true)
  num(d, 'height', path, 0, 10, true)
  const R = num(d, 'wheelRadius', path, 0.05, 5)
  const iw = num(d, 'wheelInertia', path, 0, 1e4, true)
  const maxSteer = num(d, 'maxSteer', path, 0, 1.2, true)
  const steerRate = num(d, 'steerRate', path, 0, 100, true)
  const ackermann = num(d, 'ackermann', path, 0, 1)
  const steerCompliance = d.steerCompliance === undefined ? 0 : num(d, 'steerCompliance', path, 0, 1e-3)
  const drive = oneOf(d, 'drive', path, ['front', 'rear', 'all'] as const)
  const differential = oneOf(d, 'differential', path, ['open', 'limitedSlip'] as const)
  const lsdLocking = num(d, 'lsdLocking', path, 0, 1)
  const lsdPreload = num(d, 'lsdPreload', path, 0, 1e5)
  const tcs = bool(d, 'tractionControl', path)
  const cd = num(d, 'dragCoefficient', path, 0, 5)
  const area = num(d, 'frontalArea', path, 0, 100)

  const tp = `${path}.tyre`
  const t = obj(d.tyre, tp)
  const mu = num(t, 'mu', tp, 0, 5, true)
  const peakSlip = num(t, 'peakSlip', tp, 0.005, 1)
  const peakSlipAngle = num(t, 'peakSlipAngle', tp, 0.005, 1)
  const slideRatio = num(t, 'slideRatio', tp, 0.05, 0.999)
  const loadSens = num(t, 'loadSensitivity', tp, 0, 0.5)

  const ep = `${path}.engine`
  const e = obj(d.engine, ep)
  const idleRpm = num(e, 'idleRpm', ep, 100, 5000)
  const maxRpm = num(e, 'maxRpm', ep, idleRpm, 30000, true)
  const curve = numList(e.torqueCurve, `${ep}.torqueCurve`, 2, 64)
  const curveW = new Float64Array(curve.length)
  const curveT = new Float64Array(curve.length)
  for (let i = 0; i < curve.length; i++) {
    const p = curve[i]
    const pn = `${ep}.torqueCurve[${i}]`
    if (!Array.isArray(p) || p.length !== 2) throw new TypeError(`${pn} must be [rpm, torque], got ${describe(p)}`)
    const pt = { rpm: p[0], torque: p[1] } as Record<string, unknown>
    const rpm = num(pt, 'rpm', pn, 0, 30000)
    curveT[i] = num(pt, 'torque', pn, 0, 1e5)
    curveW[i] = rpm * RPM
    if (i > 0 && !(curveW[i] > curveW[i - 1])) throw new RangeError(`${pn}[0] (rpm) must be greater than the previous point's, got ${rpm}`)
  }
  const engineInertia = num(e, 'inertia', ep, 0, 1e3, true)
  const friction = num(e, 'friction', ep, 0, 1e5)

  const gp = `${path}.gearbox`
  const g = obj(d.gearbox, gp)
  const ratios = numList(g.ratios, `${gp}.ratios`, 1, 16)
  const reverse = num(g, 'reverse', gp, 0, 100, true)
  const finalDrive = num(g, 'finalDrive', gp, 0, 100, true)
  const overall = new Float64Array(ratios.length + 1)
  overall[0] = -reverse * finalDrive
  for (let i = 0; i < ratios.length; i++) {
    const r = ratios[i]
    const rn = `${gp}.ratios[${i}]`
    if (typeof r !== 'number') throw new TypeError(`${rn} must be a number, got ${describe(r)}`)
    if (!(r > 0 && r <= 100)) throw new RangeError(`${rn} must be in (0, 100], got ${r}`)
    overall[i + 1] = r * finalDrive
  }
  const efficiency = num(g, 'efficiency', gp, 0, 1, true)
  const automatic = bool(g, 'automatic', gp)
  const upRpm = num(g, 'shiftUpRpm', gp, idleRpm, maxRpm)
  const downRpm = num(g, 'shiftDownRpm', gp, idleRpm, upRpm)
  const shiftTime = num(g, 'shiftTime', gp, 0, 5)
  const clutchTorque = num(g, 'clutchTorque', gp, 0, 1e5, true)
  const engageRpm = num(g, 'clutchEngageRpm', gp, idleRpm, maxRpm, true)

  const bp = `${path}.brakes`
  const br = obj(d.brakes, bp)
  const brakeTorque = num(br, 'maxTorque', bp, 0, 1e6)
  const bias = num(br, 'bias', bp, 0, 1)
  const handbrake = num(br, 'handbrakeTorque', bp, 0, 1e6)
  const abs = bool(br, 'abs', bp)

  const sp = `${path}.suspension`
  const s = obj(d.suspension, sp)
  const kF = num(s, 'springFront', sp, 0, 1e8, true)
  const kR = num(s, 'springRear', sp, 0, 1e8, true)
  const cF = num(s, 'damperFront', sp, 0, 1e7)
  const cR = num(s, 'damperRear', sp, 0, 1e7)
  const arbF = num(s, 'antiRollFront', sp, 0, 1e8)
  const arbR = num(s, 'antiRollRear', sp, 0, 1e8)

  const b = L - a
  // roll stiffness per axle (springs at the track, plus the bar) splits the lateral load transfer;
  // the body's own weight leaning out (m·g·h per radian) softens the total
  const rollF = (kF * tf * tf) / 2 + arbF
  const rollR = (kR * tr * tr) / 2 + arbR
  if (rollF + rollR <= 1.2 * mass * gravity * h) throw new RangeError(`${path}.suspension is too soft in roll for ${path}.cgHeight: roll stiffness ${(rollF + rollR).toFixed(0)} N·m/rad must exceed 1.2·mass·g·cgHeight`)
  const driveShare = new Float64Array(4)
  const front = drive !== 'rear'
  const rear = drive !== 'front'
  const share = front && rear ? 0.25 : 0.5
  if (front) driveShare[0] = driveShare[1] = share
  if (rear) driveShare[2] = driveShare[3] = share
  const axleShare = new Float64Array(4)
  axleShare[0] = driveShare[0] + driveShare[1]
  axleShare[2] = driveShare[2] + driveShare[3]
  // Magic Formula on normalised slip: shape C from the sliding ratio, B puts the peak at slip 1.
  const mfC = 2 - (2 / Math.PI) * Math.asin(slideRatio)
  const mfB = Math.tan(Math.PI / (2 * mfC))
  return {
    def: definition as CarDefinition,
    fourWheel: model === 'fourWheel',
    hz, mass, iz, ixx, iyy, h, L, a, b, tf, tr, R, iw, maxSteer, steerRate, ackermann, steerCompliance,
    corneringPerLoad: (mu * mfB * mfC) / Math.tan(peakSlipAngle),
    driveShare, axleShare, frontDriven: front, rearDriven: rear,
    lsd: differential === 'limitedSlip', rearLsd: differential === 'limitedSlip' && axleShare[2] !== 0, lsdLocking, lsdPreload, tcs,
    dragK: 0.5 * 1.204 * cd * area,
    mu, peakSlip, peakSlipAngle: Math.tan(peakSlipAngle), mfB, mfC, tyreTable: tyreCurveTable(mfB, mfC), loadSens,
    fz0: (mass * gravity) / 4,
    invFz0: 4 / (mass * gravity),
    idleW: idleRpm * RPM, maxW: maxRpm * RPM, curveW, curveT, engineInertia, invEngineInertia: 1 / engineInertia,
    frictionPerW: friction / (maxRpm * RPM),
    overall, gears: ratios.length, efficiency, automatic,
    upW: upRpm * RPM, downW: downRpm * RPM, shiftTime, clutchTorque, engageW: engageRpm * RPM,
    brakeFront: (brakeTorque * bias) / 2, brakeRear: (brakeTorque * (1 - bias)) / 2, handbrake: handbrake / 2, abs,
    kF, kR, cF, cR, arbF, arbR,
    ltF: (mass * h * rollF) / ((rollF + rollR - mass * gravity * h) * tf),
    ltR: (mass * h * rollR) / ((rollF + rollR - mass * gravity * h) * tr),
    fzF: (mass * gravity * b) / (2 * L), fzR: (mass * gravity * a) / (2 * L),
  }
}
