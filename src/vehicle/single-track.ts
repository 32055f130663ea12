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
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { SurfaceMap } from './surfaces'
import type { Substep } from './substep'
import { corneringFactor, CURVE_END, CURVE_PER_UNIT, CURVE_SQ_PER_UNIT, MU_FLOOR, PAST_PEAK_AT, STIFFNESS_SENS, V_LOW } from './tyre'
import { createDriveline, lockClutch, prepareDriveline, tractionControl } from './powertrain'
import { freeSpin } from './wheel'
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

/** Advances single-track car `eid` by `n` substeps `step`. `surfaces` null = tarmac everywhere. */
export function singleTrackSubsteps(C: CarStore, d: ResolvedCar, eid: number, surfaces: SurfaceMap | null, step: Substep, n: number): void {
  const h = step.h
  const gravity = step.gravity
  // the definition, and this host step's inputs (constant over its substeps)
  const a = d.a
  const b = d.b
  const L = d.L
  const R = d.R
  const m = d.mass
  const dragK = d.dragK
  const cgHeight = d.h
  const ltF = d.ltF
  const ltR = d.ltR
  const tf = d.tf
  const tr = d.tr
  const lsd = d.lsd && d.axleShare[2] !== 0
  const lsdPreload = d.lsdPreload
  const lsdLocking = d.lsdLocking
  const iw2 = 2 * d.iw
  const tcs = d.tcs
  const abs = d.abs
  const mu0 = d.mu
  const loadSens = d.loadSens
  const invFz0 = 1 / d.fz0
  const invPeakSlip = 1 / d.peakSlip
  const peakSlipAngle = d.peakSlipAngle
  const frontCompliance = d.steerCompliance * d.corneringPerLoad
  const pairMu = 2 * mu0
  const pairMuLoss = 2 * mu0 * loadSens
  const pairStiffLoss = 2 * STIFFNESS_SENS
  const mfB = d.mfB
  const mfC = d.mfC
  const curve = d.tyreTable
  const shareF = d.axleShare[0]
  const shareR = d.axleShare[2]
  const invM = 1 / m
  const invL = 1 / L
  const hOverM = h / m
  const hOverIz = h / d.iz
  const transferPerAx = (m * cgHeight) / L
  const staticF = (m * gravity * b) / L
  const staticR = (m * gravity * a) / L
  const target = C.steer[eid] * d.maxSteer
  const steerStep = d.steerRate * h
  const brake = C.brake[eid]
  // one wheel's pedal brake torque per axle
  const brakeF = brake * d.brakeFront
  const brakeR = brake * d.brakeRear
  const handT = 2 * C.handbrake[eid] * d.handbrake
  const ws = C.wheelSpeed
  const w0 = eid * 4
  // the car's state
  let x = C.x[eid]
  let y = C.y[eid]
  let psi = C.heading[eid]
  let vx = C.vx[eid]
  let vy = C.vy[eid]
  let r = C.yawRate[eid]
  let ax = C.ax[eid]
  let delta = C.steerAngle[eid]
  let omegaF = ws[w0]
  let omegaR = ws[w0 + 2]
  // cos/sin of the road-wheel angle, computed in the first substep (after its steering step, which
  // most often moves the angle) and again only when it moved (it holds still once the ramp is done)
  let cd = 1
  let sd = 0
  let lastDelta = NaN
  // cos/sin of the heading: exact at the host step's start, then turned by each substep's yaw
  // increment (see TURN_BELOW); for the surface lookup and the position update
  let cp = Math.cos(psi)
  let sp = Math.sin(psi)
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
    if (surfaces !== null) {
      const sf = surfaces.surfaceAt(x + cp * a, y + sp * a)
      gripF = sf.grip
      rrF = sf.rollingResistance
      const sr = surfaces.surfaceAt(x + cp * -b, y + sp * -b)
      gripR = sr.grip
      rrR = sr.rollingResistance
    }

    // per axle: wheel-frame ground velocity (u, w) and tyre damping (cx, cy)
    let uF = 0, wF = 0, cxF = 0, cyF = 0, uR = 0, wR = 0, cxR = 0, cyR = 0, peakF = 0, peakR = 0
    // and each axle wheel's free spin, effective inertia, whether friction holds it, and its
    // brake and friction torques
    let freeF = 0, jF = 0, heldF = false, frictionF = 0, freeR = 0, jR = 0, heldR = false, frictionR = 0
    let cY = 0
    let cR = 0
    // yaw moment of the uneven brake (and limited-slip drive) forces across an axle, N·m
    let turnOut = 0
    for (let axle = 0; axle < 2; axle++) {
      const front = axle === 0
      const xa = front ? a : -b
      const vyc = vy + r * xa
      // the rear wheel is straight (cos 1, sin 0; kept as products so zeros keep their signs)
      const c = front ? cd : 1
      const s = front ? sd : 0
      const u = vx * c + vyc * s
      const w = -vx * s + vyc * c
      const omega = front ? omegaF : omegaR
      const fzAxle = front ? fzF : fzR
      // The axle's tyre pair: tyre.ts's law for its two tyres at half the axle load ± the steady
      // lateral load transfer Δ (ay ≈ r·vx), summed in closed form: both the peak and the
      // cornering stiffness are quadratic in the load, so the pair's are twice one tyre's at half
      // the load less a term in Δ². The front pair's stiffness is in series with the steering's
      // compliance.
      let cx = 0
      let cy = 0
      let brakeT = 0
      let peak = 0
      const fz = 0.5 * fzAxle
      if (fz > 0) {
        const grip = front ? gripF : gripR
        const au = Math.abs(u)
        const den = au > V_LOW ? au : V_LOW
        const x = fz * invFz0 - 1
        let muRatio = 1 - loadSens * x
        if (muRatio < MU_FLOOR) muRatio = MU_FLOOR
        const spread = (front ? ltF : ltR) * r * vx
        const spread2 = spread * spread * invFz0
        // the pair's peak force and its cornering stiffness per unit of corneringPerLoad, both
        // per unit of grip (it scales them alike)
        let D = pairMu * muRatio * fz - pairMuLoss * spread2
        const floorD = MU_FLOOR * pairMu * muRatio * fz
        if (D < floorD) D = floorD
        const stiffNominal = 2 * fz * corneringFactor(x)
        let stiff = stiffNominal - pairStiffLoss * spread2
        if (stiff < MU_FLOOR * stiffNominal) stiff = MU_FLOOR * stiffNominal
        D *= grip
        peak = D
        const compliance = front ? 1 + frontCompliance * grip * stiff : 1
        // one division for 1/den and the pair's 1/(den·tan αpeak) (its peak slip angle gives it
        // that stiffness with peak D: tan αpeak = tan αpeak0·D·compliance / (μ0·grip·stiff))
        const dc = D * compliance * peakSlipAngle
        const q = 1 / (den * dc)
        const invDen = dc * q
        const angleDen = mu0 * grip * stiff * q
        // each wheel gets half the axle's brake torque, and the inner (lighter) wheel carries no
        // more of it than its own peak force: the rest locks it (or ABS releases it), not the pair
        const halfT = front ? brakeF : brakeR
        brakeT = halfT
        if (halfT > 0) {
          // the inner and outer tyres' peak forces as wheel torques
          const transfer = Math.abs(spread)
          const fzIn = fz - transfer
          const fzOut = fz + transfer
          const muIn = 1 - loadSens * (fzIn * invFz0 - 1)
          const muOut = 1 - loadSens * (fzOut * invFz0 - 1)
          const innerT = fzIn > 0 ? mu0 * grip * (muIn > MU_FLOOR ? muIn : MU_FLOOR) * fzIn * R : 0
          const outerT = mu0 * grip * (muOut > MU_FLOOR ? muOut : MU_FLOOR) * fzOut * R
          const innerBrake = halfT < innerT ? halfT : innerT
          brakeT += innerBrake
          // the outer wheel's larger brake force turns the car out of the corner (−, for a left turn)
          if (halfT > innerBrake && u !== 0) {
            const moment = (0.5 * (front ? tf : tr) * ((halfT < outerT ? halfT : outerT) - innerBrake)) / R
            turnOut += (spread * u > 0 ? -1 : 1) * moment
          }
        }
        const slipV = omega * R - u
        const sx = slipV * invDen * invPeakSlip
        const sy = w * angleDen
        // F(ρ)/ρ from the table (below the peak from ρ², no square root), the formula past its end
        const rho2 = sx * sx + sy * sy
        if (rho2 < 1) {
          const q = rho2 * CURVE_SQ_PER_UNIT
          const j = q | 0
          const g0 = curve[j]
          const g = D * (g0 + (q - j) * (curve[j + 1] - g0))
          cx = g * invDen * invPeakSlip
          cy = g * angleDen
        } else {
          const rho = Math.sqrt(rho2)
          let g: number
          if (rho < CURVE_END) {
            const q = (rho - 1) * CURVE_PER_UNIT
            const j = q | 0
            const g0 = curve[PAST_PEAK_AT + j]
            g = D * (g0 + (q - j) * (curve[PAST_PEAK_AT + j + 1] - g0))
          } else g = (D * Math.sin(mfC * Math.atan(mfB * rho))) / rho
          cx = g * invDen * invPeakSlip
          cy = g * angleDen
          // sliding: the force turns to oppose the slip velocity itself
          const beta = rho > 2 ? 1 : rho - 1
          const iso = (g * rho) / Math.sqrt(slipV * slipV + w * w)
          cx += beta * (iso - cx)
          cy += beta * (iso - cy)
        }
      }
      // the wheel's free spin: freeSpin's update written out in locals (the loop's hot path), or
      // freeSpin itself where ABS may act
      const fricT = (front ? rrF : rrR) * fzAxle * R + (front ? 0 : handT)
      let J: number
      let free: number
      let held: boolean
      if (abs && brakeT > 0) {
        const spin = front ? spinF : spinR
        spin.omega = omega; spin.damping = cx; spin.ground = u; spin.brakeTorque = brakeT; spin.frictionTorque = fricT
        freeSpin(d, step, spin)
        J = spin.effectiveInertia
        free = spin.free
        held = spin.held
      } else {
        J = iw2 + h * R * R * cx
        const base = iw2 * omega + h * R * cx * u
        const braked = h * (brakeT + fricT)
        const num = base > braked ? base - braked : base < -braked ? base + braked : 0
        free = num / J
        held = num === 0
      }
      if (front) { uF = u; wF = w; cxF = cx; cyF = cy; peakF = peak; freeF = free; jF = J; heldF = held; frictionF = brakeT + fricT }
      else { uR = u; wR = w; cxR = cx; cyR = cy; peakR = peak; freeR = free; jR = J; heldR = held; frictionR = brakeT + fricT }
      cY += cx * s * s + cy * c * c
      cR += cy * xa * xa
    }

    // the driveline on the two axle wheels
    let carrier = 0
    let roll = 0
    let S = 0
    if (shareF !== 0) { carrier += shareF * freeF; roll += shareF * uF; S += (shareF * shareF) / jF }
    if (shareR !== 0) { carrier += shareR * freeR; roll += shareR * uR; S += (shareR * shareR) / jR }
    // gear, engine torque and clutch capacity for the next PREPARE_SECONDS of substeps (see the file comment)
    drive.carrier = carrier
    drive.roll = roll
    drive.inertiaSum = S
    if (k === nextPrepare) {
      const steps = n - k < prepareEvery ? n - k : prepareEvery
      nextPrepare = k + steps
      C.engineSpeed[eid] = we
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
      const spreadR = ltR * r * vx
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
