/**
 * The single-track (bicycle) model: one lumped wheel per axle (slots 0 front and 2 rear; 1 and 3
 * mirror them for reporting) with the tyre law of tyre.ts per tyre at half the axle load, load
 * transfer from the last substep's longitudinal acceleration, the shared powertrain, and kinematic
 * blending at low speed (below ~3 m/s yaw rate and side slip follow the steering geometry, so a
 * crawling car has no stiff lateral dynamics). The body stays level.
 *
 * It is the cheap level of detail, so one call runs all of a car's substeps of a host step with
 * the car's state in one record (read once, written back once), each substep one call with no
 * loop of its own (the axles are two calls of axleForces), the tyre evaluated on the
 * definition's tabulated curve (tyreCurveTable: no atan or sin, and below the peak read by ρ², so
 * no square root) and the heading's cos/sin turned rather than recomputed (see TURN_BELOW). The
 * shared powertrain's gear choice, engine torque and clutch capacity (prepareDriveline) are taken
 * at a host step's first substep and then every PREPARE_SECONDS of substeps, the shift timer
 * running down by that stretch at once; the clutch lock is solved every substep. So the engine
 * torque is the one at the stretch's starting engine speed (the four-wheel model prepares every
 * substep).
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { SurfaceMap } from './surfaces'
import type { Substep } from './substep'
import { createDriveline, lockClutch, prepareDriveline, tractionControl } from './powertrain'
import { axleForces, createAxlePair, type AxleConstants } from './single-track-axle'
import { DEFAULT_RR } from './four-wheel'

const drive = createDriveline()
const spinF = drive.wheels[0]
const spinR = drive.wheels[2]

// Within a host step the heading's cos/sin are turned by each substep's yaw
// increment dψ (cos and sin of dψ by their series to dψ⁶ and dψ⁵: off by < 3e-16 while
// |dψ| < TURN_BELOW; past it they are recomputed) instead of recomputed: rounding drifts by
// ~1e-16 a substep. They are exact again from the heading at every host step's start, so no state
// is added (snapshots, restores and stepMany ≡ step stay exact).
const TURN_BELOW = 0.02

// The powertrain is prepared (gear, shift timer, engine torque, clutch capacity) at most this
// long apart, s: once per host step at a 60 Hz host step, and more often within a longer one, so
// a coarse host step (a server at 10 Hz, step(1)) does not hold the torque or the gear for it.
const PREPARE_SECONDS = 1 / 60

/** Below this speed the single-track model is purely kinematic laterally, m/s. */
export const KINEMATIC_BELOW = 1
/** Above this speed it is purely dynamic, m/s (blended in between). */
export const DYNAMIC_ABOVE = 3

/**
 * One single-track run: the car's state and its host step's constants, carried from substep to
 * substep in one record (read from the store once per host step, written back once). Each substep
 * is one call with no loop of its own: a function whose loop holds its time can stay unoptimised
 * after a deoptimisation (test/perf/perf.test.ts "st200 steady" failed in some processes).
 */
interface SingleTrackRun extends AxleConstants {
  // the car's state
  x: number; y: number; psi: number; vx: number; vy: number; r: number; ax: number; delta: number
  omegaF: number; omegaR: number; we: number
  // cos/sin of the road-wheel angle and the angle they are for (see singleTrackSubsteps)
  cd: number; sd: number; lastDelta: number
  // cos/sin of the heading, turned substep by substep (see TURN_BELOW)
  cp: number; sp: number
  // each axle's surface: grip and rolling resistance
  gripF: number; gripR: number; rrF: number; rrR: number
  // the substep at which the driveline is prepared next, and how many substeps apart
  nextPrepare: number; prepareEvery: number
  // the host step's other constants (the definition's, and its inputs)
  frontCompliance: number; invM: number; invL: number; hOverM: number; hOverIz: number
  transferPerAx: number; staticF: number; staticR: number
  target: number; steerStep: number; brakeF: number; brakeR: number; handT: number
}

// (numbers start as NaN: decision 0007)
function createRun(): SingleTrackRun {
  return {
    x: NaN, y: NaN, psi: NaN, vx: NaN, vy: NaN, r: NaN, ax: NaN, delta: NaN, omegaF: NaN, omegaR: NaN, we: NaN,
    cd: NaN, sd: NaN, lastDelta: NaN, cp: NaN, sp: NaN, gripF: NaN, gripR: NaN, rrF: NaN, rrR: NaN,
    nextPrepare: NaN, prepareEvery: NaN,
    invFz0: NaN, invPeakSlip: NaN, frontCompliance: NaN, pairMu: NaN, pairMuLoss: NaN, invM: NaN, invL: NaN, hOverM: NaN, hOverIz: NaN,
    transferPerAx: NaN, staticF: NaN, staticR: NaN, target: NaN, steerStep: NaN, brakeF: NaN, brakeR: NaN, handT: NaN, iw2: NaN,
  }
}

const run = createRun()
const pairF = createAxlePair()
const pairR = createAxlePair()

/** Advances single-track car `eid` by `n` substeps `step`. `surfaces` null = tarmac everywhere. */
export function singleTrackSubsteps(C: CarStore, d: ResolvedCar, eid: number, surfaces: SurfaceMap | null, step: Substep, n: number): void {
  startRun(C, d, eid, step)
  for (let k = 0; k < n; k++) singleTrackSubstep(d, eid, surfaces, step, C, k, n)
  const ws = C.wheelSpeed
  const w0 = eid * 4
  C.engineSpeed[eid] = run.we
  C.x[eid] = run.x
  C.y[eid] = run.y
  C.heading[eid] = run.psi
  C.vx[eid] = run.vx
  C.vy[eid] = run.vy
  C.yawRate[eid] = run.r
  C.ax[eid] = run.ax
  C.steerAngle[eid] = run.delta
  ws[w0] = ws[w0 + 1] = run.omegaF
  ws[w0 + 2] = ws[w0 + 3] = run.omegaR
}

// Reads car eid's state and its host step's constants into `run`.
function startRun(C: CarStore, d: ResolvedCar, eid: number, step: Substep): void {
  const h = step.h
  const gravity = step.gravity
  const m = d.mass
  const L = d.L
  const brake = C.brake[eid]
  run.invFz0 = 1 / d.fz0
  run.invPeakSlip = 1 / d.peakSlip
  run.frontCompliance = d.steerCompliance * d.corneringPerLoad
  run.pairMu = 2 * d.mu
  run.pairMuLoss = 2 * d.mu * d.loadSens
  run.invM = 1 / m
  run.invL = 1 / L
  run.hOverM = h / m
  run.hOverIz = h / d.iz
  run.transferPerAx = (m * d.h) / L
  run.staticF = (m * gravity * d.b) / L
  run.staticR = (m * gravity * d.a) / L
  run.target = C.steer[eid] * d.maxSteer
  run.steerStep = d.steerRate * h
  // one wheel's pedal brake torque per axle
  run.brakeF = brake * d.brakeFront
  run.brakeR = brake * d.brakeRear
  run.handT = 2 * C.handbrake[eid] * d.handbrake
  run.iw2 = 2 * d.iw
  const ws = C.wheelSpeed
  const w0 = eid * 4
  run.x = C.x[eid]
  run.y = C.y[eid]
  run.psi = C.heading[eid]
  run.vx = C.vx[eid]
  run.vy = C.vy[eid]
  run.r = C.yawRate[eid]
  run.ax = C.ax[eid]
  run.delta = C.steerAngle[eid]
  run.omegaF = ws[w0]
  run.omegaR = ws[w0 + 2]
  // cos/sin of the road-wheel angle, computed in the first substep (after its steering step, which
  // most often moves the angle) and again only when it moved (it holds still once the ramp is done)
  run.cd = 1
  run.sd = 0
  run.lastDelta = NaN
  // cos/sin of the heading: exact at the host step's start, then turned by each substep's yaw
  // increment (see TURN_BELOW); for the surface lookup and the position update
  run.cp = Math.cos(run.psi)
  run.sp = Math.sin(run.psi)
  run.gripF = 1
  run.gripR = 1
  run.rrF = DEFAULT_RR
  run.rrR = DEFAULT_RR
  // the driveline is prepared at the host step's first substep and again every prepareEvery
  // substeps (at most PREPARE_SECONDS of them)
  run.prepareEvery = Math.max(1, Math.floor(PREPARE_SECONDS / h + 1e-6))
  run.nextPrepare = 0
  run.we = C.engineSpeed[eid]
}


// One substep (k of n) of the run.
function singleTrackSubstep(d: ResolvedCar, eid: number, surfaces: SurfaceMap | null, step: Substep, C: CarStore, k: number, n: number): void {
  const h = step.h
  const a = d.a
  const b = d.b
  const R = d.R
  const m = d.mass
  const ltF = d.ltF
  const ltR = d.ltR
  const shareF = d.axleShare[0]
  const shareR = d.axleShare[2]
  const hOverM = run.hOverM
  const hOverIz = run.hOverIz
  const invM = run.invM
  let x = run.x
  let y = run.y
  let psi = run.psi
  const vx = run.vx
  const vy = run.vy
  const r = run.r
  let delta = run.delta
  let cd = run.cd
  let sd = run.sd
  let cp = run.cp
  let sp = run.sp

  // rate-limited steering
  const target = run.target
  const steerStep = run.steerStep
  const diff = target - delta
  delta = diff > steerStep ? delta + steerStep : diff < -steerStep ? delta - steerStep : target
  if (delta !== run.lastDelta) { cd = Math.cos(delta); sd = Math.sin(delta); run.lastDelta = delta; run.cd = cd; run.sd = sd }
  const transfer = run.transferPerAx * run.ax
  let fzF = run.staticF - transfer
  let fzR = run.staticR + transfer
  if (fzF < 0) fzF = 0
  if (fzR < 0) fzR = 0
  if (surfaces !== null) {
    const sf = surfaces.surfaceAt(x + cp * a, y + sp * a)
    run.gripF = sf.grip
    run.rrF = sf.rollingResistance
    const sr = surfaces.surfaceAt(x + cp * -b, y + sp * -b)
    run.gripR = sr.grip
    run.rrR = sr.rollingResistance
  }

  // per axle: wheel-frame ground velocity (u, w), tyre damping and free spin; the rear wheel is
  // straight (cos 1, sin 0; kept as products so zeros keep their signs)
  const vycF = vy + r * a
  pairF.load = fzF; pairF.u = vx * cd + vycF * sd; pairF.w = -vx * sd + vycF * cd; pairF.omega = run.omegaF; pairF.grip = run.gripF
  pairF.spread = ltF * r * vx; pairF.halfT = run.brakeF; pairF.track = d.tf; pairF.compliance = run.frontCompliance; pairF.friction = run.rrF * fzF * R
  axleForces(d, step, run, pairF, spinF)
  const vycR = vy + r * -b
  pairR.load = fzR; pairR.u = vx * 1 + vycR * 0; pairR.w = -vx * 0 + vycR * 1; pairR.omega = run.omegaR; pairR.grip = run.gripR
  pairR.spread = ltR * r * vx; pairR.halfT = run.brakeR; pairR.track = d.tr; pairR.compliance = 0; pairR.friction = run.rrR * fzR * R + run.handT
  axleForces(d, step, run, pairR, spinR)
  const uF = pairF.u, wF = pairF.w, cxF = pairF.cx, cyF = pairF.cy, uR = pairR.u, wR = pairR.w, cxR = pairR.cx, cyR = pairR.cy
  let cY = 0
  let cR = 0
  cY += cxF * sd * sd + cyF * cd * cd
  cR += cyF * a * a
  cY += cxR * 0 * 0 + cyR * 1 * 1
  cR += cyR * -b * -b
  // yaw moment of the uneven brake (and limited-slip drive) forces across an axle, N·m
  let turnOut = 0
  turnOut += pairF.turn
  turnOut += pairR.turn

  // the driveline on the two axle wheels
  let carrier = 0
  let roll = 0
  let S = 0
  const freeF = spinF.free, jF = spinF.effectiveInertia, freeR = spinR.free, jR = spinR.effectiveInertia
  if (shareF !== 0) { carrier += shareF * freeF; roll += shareF * uF; S += (shareF * shareF) / jF }
  if (shareR !== 0) { carrier += shareR * freeR; roll += shareR * uR; S += (shareR * shareR) / jR }
  // gear, engine torque and clutch capacity for the next PREPARE_SECONDS of substeps (see the file comment)
  drive.carrier = carrier
  drive.roll = roll
  drive.inertiaSum = S
  if (k === run.nextPrepare) {
    const steps = n - k < run.prepareEvery ? n - k : run.prepareEvery
    run.nextPrepare = k + steps
    C.engineSpeed[eid] = run.we
    prepareDriveline(C, d, eid, step, steps, drive)
  }
  drive.engineSpeed = run.we
  lockClutch(d, step, drive)
  run.we = drive.engineSpeed
  const tc = drive.driveTorque
  let tqF = shareF * tc
  let tqR = shareR * tc
  if (d.tcs && tc !== 0) {
    if (shareF !== 0) { spinF.torque = tqF; tractionControl(d, step, spinF); tqF = spinF.torque }
    if (shareR !== 0) { spinR.torque = tqR; tractionControl(d, step, spinR); tqR = spinR.torque }
  }

  // a limited-slip differential moves drive torque from the faster (outer) wheel to the slower,
  // at most preload + locking·|input| and no more than would equalise their spin this substep
  if (d.lsd && shareR !== 0) {
    const spreadR = pairR.spread
    if (spreadR !== 0 && uR !== 0) {
      const equalise = 0.25 * cxR * R * Math.abs(r) * d.tr
      const cap = d.lsdPreload + d.lsdLocking * Math.abs(tqR)
      const moment = (d.tr * (cap < equalise ? cap : equalise)) / R
      turnOut += (spreadR * uR > 0 ? -1 : 1) * moment
    }
  }

  // forces with the new wheel speeds (the wheel's implicit half), summed in the body frame
  const omegaF = freeF + (h * tqF) / jF
  const omegaR = freeR + (h * tqR) / jR
  const ftxF = cxF * (omegaF * R - uF)
  const ftyF = -cyF * wF
  const ftxR = cxR * (omegaR * R - uR)
  const ftyR = -cyR * wR
  const fbyF = ftxF * sd + ftyF * cd
  const fx = ftxF * cd - ftyF * sd + ftxR
  const fy = fbyF + ftyR
  const mz = a * fbyF - b * ftyR + turnOut
  let cHeld = 0
  let heldForce = 0
  let heldGrip = 0
  if (spinF.held && tqF === 0) { cHeld += cxF * cd * cd; heldForce += ftxF * cd - ftyF * sd; heldGrip += (spinF.holding < pairF.peak ? spinF.holding : pairF.peak) * Math.abs(cd) }
  if (spinR.held && tqR === 0) { cHeld += cxR; heldForce += ftxR; heldGrip += spinR.holding < pairR.peak ? spinR.holding : pairR.peak }

  // the planar body (integratePlanar's scheme, with the definition's divisions hoisted: its
  // rounding differs): longitudinal explicit but for held wheels, lateral and yaw with the
  // diagonal implicit damping; then heading and position
  const kDrag = d.dragK * Math.sqrt(vx * vx + vy * vy)
  const axn = (fx - kDrag * vx) * invM + r * vy
  const ayn = (fy - kDrag * vy) * invM - r * vx
  // (with no wheel held the divisor is exactly 1: skipped)
  let nvx = cHeld === 0 ? vx + h * axn : vx + (h * axn) / (1 + hOverM * cHeld)
  if (cHeld !== 0) {
    // static grip (integratePlanar's)
    const need = (m * (vx + h * (axn - heldForce * invM))) / h
    if (need <= heldGrip && need >= -heldGrip) nvx = 0
  }
  let nvy = vy + (h * ayn) / (1 + hOverM * cY)
  let nr = r + (hOverIz * mz) / (1 + hOverIz * cR)
  run.ax = fx * invM
  const dpsi = h * nr
  psi = psi + dpsi
  if (dpsi < TURN_BELOW && dpsi > -TURN_BELOW) {
    const q = dpsi * dpsi
    const c = 1 - q * (0.5 - q * (1 / 24 - q / 720))
    const s = dpsi * (1 - q * (1 / 6 - q / 120))
    const ncp = cp * c - sp * s
    sp = sp * c + cp * s
    cp = ncp
  } else {
    cp = Math.cos(psi)
    sp = Math.sin(psi)
  }
  x += h * (nvx * cp - nvy * sp)
  y += h * (nvx * sp + nvy * cp)

  // kinematic blending: at crawling speed yaw rate and side slip follow the steering geometry
  const sx = Math.abs(nvx)
  if (sx < DYNAMIC_ABOVE) {
    let wgt = (sx - KINEMATIC_BELOW) / (DYNAMIC_ABOVE - KINEMATIC_BELOW)
    if (wgt < 0) wgt = 0
    const rk = nvx * Math.tan(delta) * run.invL
    nr = wgt * nr + (1 - wgt) * rk
    nvy = wgt * nvy + (1 - wgt) * rk * b
  }
  run.x = x
  run.y = y
  run.psi = psi
  run.vx = nvx
  run.vy = nvy
  run.r = nr
  run.delta = delta
  run.cp = cp
  run.sp = sp
  run.omegaF = omegaF
  run.omegaR = omegaR
}
