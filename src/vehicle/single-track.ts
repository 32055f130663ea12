/**
 * The single-track (bicycle) model: one lumped wheel per axle (slots 0 front and 2 rear; 1 and 3
 * mirror them for reporting) with the tyre law of tyre.ts per tyre at half the axle load, load
 * transfer from the last substep's longitudinal acceleration, the shared powertrain, and kinematic
 * blending at low speed (below ~3 m/s yaw rate and side slip follow the steering geometry, so a
 * crawling car has no stiff lateral dynamics). The body stays level.
 *
 * It is the cheap level of detail, so one call runs all of a car's substeps of a host step with
 * the car's state in locals (read once, written back once), the tyre evaluated in the loop on the
 * definition's tabulated curve (tyreCurveTable: no atan or sin, and below the peak read by ρ², so
 * no square root) and the heading's cos/sin turned rather than recomputed (see TURN_BELOW). The
 * shared powertrain's gear choice, engine torque and clutch capacity (prepareDriveline) are taken
 * at a host step's first substep and then every PREPARE_SECONDS of substeps, the shift timer
 * running down by that stretch at once; the clutch lock is solved every substep. So the engine
 * torque is the one at the stretch's starting engine speed (the four-wheel model prepares every
 * substep).
 *
 * The two axles are written side by side (F and R on shared lines), not as a loop over them: the
 * loop merged every per-axle result through its phis and front/rear selects, a slower step in
 * bench/ab.mjs st200 (same bits). Only their rare paths (a braked axle's split between its wheels,
 * a tyre pair past its peak) loop over the axles.
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { SurfaceMap } from './surfaces'
import type { Substep } from './substep'
import { corneringFactor, CURVE_END, CURVE_PER_UNIT, CURVE_SQ_PER_UNIT, MU_FLOOR, PAST_PEAK_AT, STIFFNESS_SENS, V_LOW } from './tyre'
import { createDriveline, lockClutch, prepareDriveline, tractionControl } from './powertrain'
import { freeSpin } from './wheel'
import { DEFAULT_RR } from './ground-contact'

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

/** The ground under a single-track car for a host step's substeps (single-track-ground.ts). */
export interface AxleGround {
  /** The ground's normal load's horizontal part per unit mass (gravity along a slope, a bank's push), world frame, m/s². */
  gx: number
  gy: number
  /** The front / rear axle's load over its level-ground load: 0 in the air (no tyre force), the normal load's share on a slope or a bank. */
  onF: number
  onR: number
  /** cos and sin of the car's heading at the host step's start (the caller has them: shared, not recomputed). */
  cp: number
  sp: number
}

/**
 * Advances single-track car `eid` by `n` substeps `step`. `surfaces` null = tarmac everywhere.
 * `ground` null: level ground under both axles.
 */
export function singleTrackSubsteps(C: CarStore, d: ResolvedCar, eid: number, surfaces: SurfaceMap | null, step: Substep, n: number, ground: AxleGround | null = null): void {
  const h = step.h
  const gravity = step.gravity
  // the definition (geometry and mass, the axles, the driveline and its aids, the tyre) and what
  // this substep length makes of it; then this host step's inputs (constant over its substeps)
  const a = d.a, b = d.b, L = d.L, R = d.R
  const m = d.mass, dragK = d.dragK, cgHeight = d.h
  const ltF = d.ltF, ltR = d.ltR, tf = d.tf, tr = d.tr
  const shareF = d.axleShare[0], shareR = d.axleShare[2]
  const lsd = d.rearLsd, lsdPreload = d.lsdPreload, lsdLocking = d.lsdLocking
  const iw2 = 2 * d.iw, tcs = d.tcs, abs = d.abs
  const mu0 = d.mu, loadSens = d.loadSens, peakSlipAngle = d.peakSlipAngle
  const invFz0 = 1 / d.fz0, invPeakSlip = 1 / d.peakSlip
  const frontCompliance = d.steerCompliance * d.corneringPerLoad
  const pairMu = 2 * mu0, pairMuLoss = 2 * mu0 * loadSens, pairMuFloor = MU_FLOOR * pairMu
  const pairStiffLoss = 2 * STIFFNESS_SENS
  const mfB = d.mfB, mfC = d.mfC, curve = d.tyreTable
  const invM = 1 / m, invL = 1 / L
  const hR = h * R, hRR = hR * R, hOverM = h / m, hOverIz = h / d.iz
  const transferPerAx = (m * cgHeight) / L
  const staticF = (m * gravity * b) / L, staticR = (m * gravity * a) / L
  const target = C.steer[eid] * d.maxSteer
  const steerStep = d.steerRate * h
  const brake = C.brake[eid]
  // one wheel's pedal brake torque per axle
  const brakeF = brake * d.brakeFront
  const brakeR = brake * d.brakeRear
  const handT = 2 * C.handbrake[eid] * d.handbrake
  const ws = C.wheelSpeed
  const w0 = eid * 4
  // the car's state: position and heading, velocity and yaw rate, the last substep's
  // acceleration, the road-wheel angle and the axle wheels' spin
  let x = C.x[eid], y = C.y[eid], psi = C.heading[eid]
  let vx = C.vx[eid], vy = C.vy[eid], r = C.yawRate[eid]
  let ax = C.ax[eid]
  let delta = C.steerAngle[eid]
  let omegaF = ws[w0], omegaR = ws[w0 + 2]
  // cos/sin of the road-wheel angle, computed in the first substep (after its steering step, which
  // most often moves the angle) and again only when it moved (it holds still once the ramp is done)
  let cd = 1
  let sd = 0
  let lastDelta = NaN
  // cos/sin of the heading: exact at the host step's start, then turned by each substep's yaw
  // increment (see TURN_BELOW); for the surface lookup and the position update
  let cp = ground !== null ? ground.cp : Math.cos(psi)
  let sp = ground !== null ? ground.sp : Math.sin(psi)
  let gripF = 1
  let gripR = 1
  let rrF = DEFAULT_RR
  let rrR = DEFAULT_RR
  // the driveline is prepared at the host step's first substep and again every prepareEvery
  // substeps (at most PREPARE_SECONDS of them)
  const prepareEvery = Math.max(1, Math.floor(PREPARE_SECONDS / h + 1e-6))
  let nextPrepare = 0
  let we = C.engineSpeed[eid]
  spinF.inertia = iw2
  spinR.inertia = iw2

  for (let k = 0; k < n; k++) {
    // rate-limited steering
    const diff = target - delta
    delta = diff > steerStep ? delta + steerStep : diff < -steerStep ? delta - steerStep : target
    if (delta !== lastDelta) { cd = Math.cos(delta); sd = Math.sin(delta); lastDelta = delta }
    const transfer = transferPerAx * ax
    let fzF = staticF - transfer
    let fzR = staticR + transfer
    if (fzF < 0) fzF = 0
    if (fzR < 0) fzR = 0
    if (ground !== null) { fzF *= ground.onF; fzR *= ground.onR }
    if (surfaces !== null) {
      const sf = surfaces.surfaceAt(x + cp * a, y + sp * a)
      gripF = sf.grip
      rrF = sf.rollingResistance
      const sr = surfaces.surfaceAt(x + cp * -b, y + sp * -b)
      gripR = sr.grip
      rrR = sr.rollingResistance
    }

    // yaw moment of the uneven brake (and limited-slip drive) forces across an axle, N·m
    let turnOut = 0
    // Per axle, F front and R rear, side by side: wheel-frame ground velocity (u along the wheel,
    // w across it; the rear wheel is straight: cos 1, sin 0, kept as products so zeros keep their
    // signs) and one tyre's load (half the axle's).
    const vycF = vy + r * a, vycR = vy + r * -b
    const uF = vx * cd + vycF * sd, uR = vx * 1 + vycR * 0
    const wF = -vx * sd + vycF * cd, wR = -vx * 0 + vycR * 1
    const loadF = 0.5 * fzF, loadR = 0.5 * fzR
    // The axle's tyre pair: tyre.ts's law for its two tyres at half the axle load ± the steady
    // lateral load transfer Δ (ay ≈ r·vx), summed in closed form: both the peak and the cornering
    // stiffness are quadratic in the load, so the pair's are twice one tyre's at half the load
    // less a term in Δ². The front pair's stiffness is in series with the steering's compliance.
    // (An unloaded axle's numbers are replaced by zeros below.)
    const auF = Math.abs(uF), auR = Math.abs(uR)
    const denF = auF > V_LOW ? auF : V_LOW, denR = auR > V_LOW ? auR : V_LOW
    const xF = loadF * invFz0 - 1, xR = loadR * invFz0 - 1
    let muF = 1 - loadSens * xF, muR = 1 - loadSens * xR
    if (muF < MU_FLOOR) muF = MU_FLOOR
    if (muR < MU_FLOOR) muR = MU_FLOOR
    const spreadF = ltF * r * vx, spreadR = ltR * r * vx
    const spread2F = spreadF * spreadF * invFz0, spread2R = spreadR * spreadR * invFz0
    // the pair's peak force and its cornering stiffness per unit of corneringPerLoad, both per
    // unit of grip (it scales them alike)
    let peakF = pairMu * muF * loadF - pairMuLoss * spread2F, peakR = pairMu * muR * loadR - pairMuLoss * spread2R
    const peakFloorF = pairMuFloor * muF * loadF, peakFloorR = pairMuFloor * muR * loadR
    if (peakF < peakFloorF) peakF = peakFloorF
    if (peakR < peakFloorR) peakR = peakFloorR
    const stiffNominalF = 2 * loadF * corneringFactor(xF), stiffNominalR = 2 * loadR * corneringFactor(xR)
    let stiffF = stiffNominalF - pairStiffLoss * spread2F, stiffR = stiffNominalR - pairStiffLoss * spread2R
    if (stiffF < MU_FLOOR * stiffNominalF) stiffF = MU_FLOOR * stiffNominalF
    if (stiffR < MU_FLOOR * stiffNominalR) stiffR = MU_FLOOR * stiffNominalR
    peakF *= gripF
    peakR *= gripR
    // one division for 1/den and the pair's 1/(den·tan αpeak) (its peak slip angle gives it that
    // stiffness with its peak: tan αpeak = tan αpeak0·peak·compliance / (μ0·grip·stiff))
    const dcF = peakF * (1 + frontCompliance * gripF * stiffF) * peakSlipAngle, dcR = peakR * peakSlipAngle
    const qF = 1 / (denF * dcF), qR = 1 / (denR * dcR)
    const invDenF = dcF * qF, invDenR = dcR * qR
    const angleDenF = mu0 * gripF * stiffF * qF, angleDenR = mu0 * gripR * stiffR * qR
    // each wheel's pedal brake torque: each wheel of an axle gets it, and the inner (lighter) wheel
    // carries no more of it than its own peak force (the rest locks it, or ABS releases it, not
    // the pair); the outer wheel's larger brake force turns the car out of the corner (−, for a
    // left turn). (A loop over the axles on this rare path, compiled with the model.)
    let brakeTF = brakeF, brakeTR = brakeR
    if (brake > 0) {
      for (let axle = 0; axle < 2; axle++) {
        const front = axle === 0
        const halfT = front ? brakeF : brakeR
        const fz = front ? loadF : loadR
        if (!(halfT > 0 && fz > 0)) continue
        const spread = front ? spreadF : spreadR
        const grip = front ? gripF : gripR
        const u = front ? uF : uR
        // the inner and outer tyres' peak forces as wheel torques
        const transfer = Math.abs(spread)
        const fzIn = fz - transfer
        const fzOut = fz + transfer
        const muIn = 1 - loadSens * (fzIn * invFz0 - 1)
        const muOut = 1 - loadSens * (fzOut * invFz0 - 1)
        const innerT = fzIn > 0 ? mu0 * grip * (muIn > MU_FLOOR ? muIn : MU_FLOOR) * fzIn * R : 0
        const outerT = mu0 * grip * (muOut > MU_FLOOR ? muOut : MU_FLOOR) * fzOut * R
        const innerBrake = halfT < innerT ? halfT : innerT
        if (front) brakeTF += innerBrake
        else brakeTR += innerBrake
        if (halfT > innerBrake && u !== 0) {
          const moment = (0.5 * (front ? tf : tr) * ((halfT < outerT ? halfT : outerT) - innerBrake)) / R
          turnOut += (spread * u > 0 ? -1 : 1) * moment
        }
      }
    }
    // the slip, and F(ρ)/ρ from the table below the peak (from ρ², no square root); an unloaded
    // axle's (its numbers NaN, zeroed below) as none, not through the past-the-peak path
    const slipF = omegaF * R - uF, slipR = omegaR * R - uR
    const sxF = slipF * invDenF * invPeakSlip, sxR = slipR * invDenR * invPeakSlip
    const syF = wF * angleDenF, syR = wR * angleDenR
    const rho2F = loadF > 0 ? sxF * sxF + syF * syF : 0, rho2R = loadR > 0 ? sxR * sxR + syR * syR : 0
    let cxF = 0, cyF = 0, cxR = 0, cyR = 0
    if (rho2F < 1) { const q = rho2F * CURVE_SQ_PER_UNIT, j = q | 0, g0 = curve[j], g = peakF * (g0 + (q - j) * (curve[j + 1] - g0)); cxF = g * invDenF * invPeakSlip; cyF = g * angleDenF }
    if (rho2R < 1) { const q = rho2R * CURVE_SQ_PER_UNIT, j = q | 0, g0 = curve[j], g = peakR * (g0 + (q - j) * (curve[j + 1] - g0)); cxR = g * invDenR * invPeakSlip; cyR = g * angleDenR }
    if (!(rho2F < 1 && rho2R < 1)) {
      // past the peak (a loop over the axles on this rare path, compiled with the model): F(ρ)/ρ
      // from the table's past-the-peak part, the formula beyond its end (deep sliding), and the
      // force turning to oppose the slip velocity itself
      for (let axle = 0; axle < 2; axle++) {
        const front = axle === 0
        const rho2 = front ? rho2F : rho2R
        if (rho2 < 1) continue
        const D = front ? peakF : peakR
        const slipV = front ? slipF : slipR
        const w = front ? wF : wR
        const rho = Math.sqrt(rho2)
        let g: number
        if (rho < CURVE_END) {
          const q = (rho - 1) * CURVE_PER_UNIT
          const j = q | 0
          const g0 = curve[PAST_PEAK_AT + j]
          g = D * (g0 + (q - j) * (curve[PAST_PEAK_AT + j + 1] - g0))
        } else g = (D * Math.sin(mfC * Math.atan(mfB * rho))) / rho
        const cx = g * (front ? invDenF : invDenR) * invPeakSlip
        const cy = g * (front ? angleDenF : angleDenR)
        const beta = rho > 2 ? 1 : rho - 1
        const iso = (g * rho) / Math.sqrt(slipV * slipV + w * w)
        if (front) { cxF = cx + beta * (iso - cx); cyF = cy + beta * (iso - cy) }
        else { cxR = cx + beta * (iso - cx); cyR = cy + beta * (iso - cy) }
      }
    }
    // an unloaded axle: no tyre force and no pedal brake
    if (!(loadF > 0)) { cxF = 0; cyF = 0; peakF = 0; brakeTF = 0 }
    if (!(loadR > 0)) { cxR = 0; cyR = 0; peakR = 0; brakeTR = 0 }
    // each axle wheel's free spin (freeSpin's update written out; freeSpin itself where ABS may
    // act), effective inertia, whether friction holds it, and its brake and friction torques
    const fricTF = rrF * fzF * R, fricTR = rrR * fzR * R + handT
    const jF = iw2 + hRR * cxF, jR = iw2 + hRR * cxR
    const spinBaseF = iw2 * omegaF + hR * cxF * uF, spinBaseR = iw2 * omegaR + hR * cxR * uR
    const brakedF = h * (brakeTF + fricTF), brakedR = h * (brakeTR + fricTR)
    const numF = spinBaseF > brakedF ? spinBaseF - brakedF : spinBaseF < -brakedF ? spinBaseF + brakedF : 0
    const numR = spinBaseR > brakedR ? spinBaseR - brakedR : spinBaseR < -brakedR ? spinBaseR + brakedR : 0
    let freeF = numF / jF, freeR = numR / jR
    let heldF = numF === 0, heldR = numR === 0
    if (abs && brakeTF > 0) { spinF.omega = omegaF; spinF.damping = cxF; spinF.ground = uF; spinF.brakeTorque = brakeTF; spinF.frictionTorque = fricTF; freeSpin(d, step, spinF); freeF = spinF.free; heldF = spinF.held }
    if (abs && brakeTR > 0) { spinR.omega = omegaR; spinR.damping = cxR; spinR.ground = uR; spinR.brakeTorque = brakeTR; spinR.frictionTorque = fricTR; freeSpin(d, step, spinR); freeR = spinR.free; heldR = spinR.held }
    const frictionF = brakeTF + fricTF, frictionR = brakeTR + fricTR
    // the body's implicit lateral and yaw dampings (only ever in 1 + h·c/m and 1 + h·c/Iz)
    const cY = cxF * sd * sd + cyF * cd * cd + (cxR * 0 * 0 + cyR * 1 * 1)
    const cR = cyF * a * a + cyR * -b * -b

    // the driveline on the two axle wheels
    let carrier = shareF !== 0 ? shareF * freeF : 0
    let S = shareF !== 0 ? (shareF * shareF) / jF : 0
    if (shareR !== 0) { carrier += shareR * freeR; S += (shareR * shareR) / jR }
    // gear, engine torque and clutch capacity for the next PREPARE_SECONDS of substeps (see the file comment)
    drive.carrier = carrier
    drive.inertiaSum = S
    if (k === nextPrepare) {
      const steps = n - k < prepareEvery ? n - k : prepareEvery
      nextPrepare = k + steps
      C.engineSpeed[eid] = we
      let roll = 0
      if (shareF !== 0) roll += shareF * uF
      if (shareR !== 0) roll += shareR * uR
      drive.roll = roll
      prepareDriveline(C, d, eid, step, steps, drive)
    }
    drive.engineSpeed = we
    lockClutch(d, step, drive)
    we = drive.engineSpeed
    const tc = drive.driveTorque
    let tqF = shareF * tc
    let tqR = shareR * tc
    // the wheels' spin with the drive torque (the wheel's implicit half); traction control limits
    // the torque and works the spin out with it
    omegaF = freeF
    omegaR = freeR
    if (tc !== 0) {
      if (shareF !== 0) {
        if (tcs) { spinF.free = freeF; spinF.effectiveInertia = jF; spinF.ground = uF; spinF.torque = tqF; tractionControl(d, step, spinF); tqF = spinF.torque; omegaF = spinF.spinAfter }
        else omegaF = freeF + (h * tqF) / jF
      }
      if (shareR !== 0) {
        if (tcs) { spinR.free = freeR; spinR.effectiveInertia = jR; spinR.ground = uR; spinR.torque = tqR; tractionControl(d, step, spinR); tqR = spinR.torque; omegaR = spinR.spinAfter }
        else omegaR = freeR + (h * tqR) / jR
      }
    }

    // a limited-slip differential moves drive torque from the faster (outer) wheel to the slower,
    // at most preload + locking·|input| and no more than would equalise their spin this substep
    if (lsd) {
      const input = Math.abs(tqR)
      if (shareR !== 0 && spreadR !== 0 && uR !== 0) {
        const ar = Math.abs(r)
        const equalise = 0.25 * cxR * R * ar * tr
        const cap = lsdPreload + lsdLocking * input
        const moment = (tr * (cap < equalise ? cap : equalise)) / R
        turnOut += (spreadR * uR > 0 ? -1 : 1) * moment
      }
    }

    // forces with the new wheel speeds, summed in the body frame
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
    if (heldF && tqF === 0) { cHeld += cxF * cd * cd; heldForce += ftxF * cd - ftyF * sd; heldGrip += (frictionF / R < peakF ? frictionF / R : peakF) * Math.abs(cd) }
    if (heldR && tqR === 0) { cHeld += cxR; heldForce += ftxR; heldGrip += frictionR / R < peakR ? frictionR / R : peakR }

    // the planar body (integratePlanar's scheme, with the definition's divisions hoisted: its
    // rounding differs): longitudinal explicit but for held wheels, lateral and yaw with the
    // diagonal implicit damping; then heading and position
    const kDrag = dragK * Math.sqrt(vx * vx + vy * vy)
    let axn = (fx - kDrag * vx) * invM + r * vy
    let ayn = (fy - kDrag * vy) * invM - r * vx
    if (ground !== null) { axn += ground.gx * cp + ground.gy * sp; ayn += ground.gy * cp - ground.gx * sp }
    // (with no wheel held the divisor is exactly 1: skipped)
    let nvx = cHeld === 0 ? vx + h * axn : vx + (h * axn) / (1 + hOverM * cHeld)
    if (cHeld !== 0) {
      // static grip (integratePlanar's)
      const need = (m * (vx + h * (axn - heldForce * invM))) / h
      if (need <= heldGrip && need >= -heldGrip) nvx = 0
    }
    let nvy = vy + (h * ayn) / (1 + hOverM * cY)
    let nr = r + (hOverIz * mz) / (1 + hOverIz * cR)
    ax = fx * invM
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
      const rk = nvx * Math.tan(delta) * invL
      nr = wgt * nr + (1 - wgt) * rk
      nvy = wgt * nvy + (1 - wgt) * rk * b
    }
    vx = nvx
    vy = nvy
    r = nr
  }
  C.engineSpeed[eid] = we
  C.x[eid] = x
  C.y[eid] = y
  C.heading[eid] = psi
  C.vx[eid] = vx
  C.vy[eid] = vy
  C.yawRate[eid] = r
  C.ax[eid] = ax
  C.steerAngle[eid] = delta
  ws[w0] = ws[w0 + 1] = omegaF
  ws[w0 + 2] = ws[w0 + 3] = omegaR
}
