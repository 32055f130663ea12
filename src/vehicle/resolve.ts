/** resolveDefinition: validates a CarDefinition and resolves it into the numbers the models run on. */
import { describe } from '../validate'
import { bool, num, numList, obj, oneOf } from './definition-checks'
import type { CarDefinition, ResolvedCar } from './definition'
import { tyreCurveTable } from './tyre'

const RPM = Math.PI / 30

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
  const length = num(d, 'length', path, 0, 50, true)
  const width = num(d, 'width', path, 0, 10, true)
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
  const fzF = (mass * gravity * b) / (2 * L), fzR = (mass * gravity * a) / (2 * L)
  // The typed arrays are added to the finished record rather than written in its literal: a
  // literal's second run (another definition, a second sim) generalises each object field's
  // recorded type, which throws away the models' optimised code that relied on it, and node 20
  // then kept singleTrackSubsteps in its on-stack-replacement code for good (decision 0007).
  // test/perf/perf.test.ts "second sim" fails without it.
  const numbers = {
    def: definition as CarDefinition,
    fourWheel: model === 'fourWheel',
    hz, mass, iz, ixx, iyy, h, L, a, b, tf, tr, R, iw, maxSteer, steerRate, ackermann, steerCompliance,
    corneringPerLoad: (mu * mfB * mfC) / Math.tan(peakSlipAngle),
    frontDriven: front, rearDriven: rear,
    lsd: differential === 'limitedSlip', rearLsd: differential === 'limitedSlip' && axleShare[2] !== 0, lsdLocking, lsdPreload, tcs,
    dragK: 0.5 * 1.204 * cd * area,
    mu, peakSlip, peakSlipAngle: Math.tan(peakSlipAngle), mfB, mfC, loadSens,
    fz0: (mass * gravity) / 4,
    invFz0: 4 / (mass * gravity),
    idleW: idleRpm * RPM, maxW: maxRpm * RPM, engineInertia, invEngineInertia: 1 / engineInertia,
    frictionPerW: friction / (maxRpm * RPM),
    gears: ratios.length, efficiency, automatic,
    upW: upRpm * RPM, downW: downRpm * RPM, shiftTime, clutchTorque, engageW: engageRpm * RPM,
    brakeFront: (brakeTorque * bias) / 2, brakeRear: (brakeTorque * (1 - bias)) / 2, handbrake: handbrake / 2, abs,
    kF, kR, cF, cR, arbF, arbR,
    ltF: (mass * h * rollF) / ((rollF + rollR - mass * gravity * h) * tf),
    ltR: (mass * h * rollR) / ((rollF + rollR - mass * gravity * h) * tr),
    fzF, fzR,
    groundRadius: 0.5 * Math.sqrt(length * length + width * width),
    groundDepth: 3 * h + fzF / kF + fzR / kR,
  }
  return Object.assign(numbers, { driveShare, axleShare, tyreTable: tyreCurveTable(mfB, mfC), curveW, curveT, overall })
}
