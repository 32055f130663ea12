/**
 * The four-wheel model, one substep: planar body motion plus heave, roll and pitch of the sprung
 * mass on four spring/damper corners with anti-roll bars (tyre loads come from the corners, so
 * load transfer is dynamic), Ackermann steering, the combined-slip tyre per wheel on its own
 * surface, implicit wheel spin, the shared powertrain, drag and rolling resistance.
 * Wheel order FL, FR, RL, RR; body frame x forward, y left, z up; roll + lifts the left side,
 * pitch + puts the nose down.
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { SurfaceMap } from './surfaces'
import type { Substep } from './substep'
import { corneringFactor, createTyreSlip, tyreDamping } from './tyre'
import { createDriveline, stepDriveline } from './powertrain'
import { createBodyForces, freeSpin, integratePlanar, steerTowards } from './wheel'
import { DEFAULT_RR, type GroundContact } from './ground-contact'
import { contactLoads, terrainBody } from './four-wheel-ground'

const tyre = createTyreSlip()
const drive = createDriveline()
const body = createBodyForces()
// per wheel: position in the body frame, road-wheel angle's cos/sin, wheel-frame ground velocity,
// tyre dampings, load and peak force, surface grip and rolling resistance
const xs = new Float64Array(4), ys = new Float64Array(4)
const cosd = new Float64Array(4), sind = new Float64Array(4)
const vxw = new Float64Array(4), vyw = new Float64Array(4)
const cxs = new Float64Array(4), cys = new Float64Array(4)
const fzs = new Float64Array(4), peaks = new Float64Array(4)
const grips = new Float64Array(4), rrs = new Float64Array(4)
const fbxs = new Float64Array(4), fbys = new Float64Array(4)

/**
 * Advances four-wheel car `eid` by one substep `step`. `surfaces` null = tarmac everywhere.
 * `ground` (prepareGround's, for this host step) null or flat: the level ground plane at the
 * sim's ground height, by the small-angle corner geometry; else the wheels' rays (four-wheel-ground.ts).
 */
export function fourWheelSubstep(C: CarStore, d: ResolvedCar, eid: number, surfaces: SurfaceMap | null, step: Substep, ground: GroundContact | null = null): void {
  const h = step.h
  const gravity = step.gravity
  const a = d.a
  const b = d.b
  const R = d.R
  xs[0] = a; xs[1] = a; xs[2] = -b; xs[3] = -b
  ys[0] = 0.5 * d.tf; ys[1] = -0.5 * d.tf; ys[2] = 0.5 * d.tr; ys[3] = -0.5 * d.tr

  // steering with Ackermann geometry (the inner wheel turns more)
  steerTowards(C, d, eid, step)
  const delta = C.steerAngle[eid]
  let dl = delta
  let dr = delta
  if (delta !== 0 && d.ackermann > 0) {
    const t = Math.tan(delta)
    const half = 0.5 * d.ackermann * d.tf
    dl = Math.atan((d.L * t) / (d.L - half * t))
    dr = Math.atan((d.L * t) / (d.L + half * t))
  }
  cosd[0] = Math.cos(dl); sind[0] = Math.sin(dl)
  cosd[1] = Math.cos(dr); sind[1] = Math.sin(dr)
  cosd[2] = 1; sind[2] = 0; cosd[3] = 1; sind[3] = 0

  // corner loads from springs, dampers and anti-roll bars
  const z = C.heave[eid], zd = C.heaveRate[eid]
  const phi = C.roll[eid], phid = C.rollRate[eid]
  const th = C.pitch[eid], thd = C.pitchRate[eid]
  const terrain = ground !== null && !ground.flat
  const grounded = C.grounded
  const w0 = eid * 4
  if (terrain) contactLoads(C, d, eid, ground, xs, ys, fzs)
  else {
    const arbF = (d.arbF * phi) / d.tf
    const arbR = (d.arbR * phi) / d.tr
    for (let i = 0; i < 4; i++) {
      const front = i < 2
      const zi = z + ys[i] * phi - xs[i] * th
      const zdi = zd + ys[i] * phid - xs[i] * thd
      const arb = (front ? arbF : arbR) * (i & 1 ? 1 : -1)
      const f = (front ? d.fzF - d.kF * zi - d.cF * zdi : d.fzR - d.kR * zi - d.cR * zdi) + arb
      fzs[i] = f > 0 ? f : 0
      grounded[w0 + i] = f > 0 ? 1 : 0
    }
  }

  // tyres on their surfaces, then free wheel spin
  const vx = C.vx[eid], vy = C.vy[eid], r = C.yawRate[eid]
  const psi = C.heading[eid]
  const cp = Math.cos(psi), sp = Math.sin(psi)
  const px = C.x[eid], py = C.y[eid]
  const brake = C.brake[eid]
  const hand = C.handbrake[eid] * d.handbrake
  const ws = C.wheelSpeed
  const wheels = drive.wheels
  for (let i = 0; i < 4; i++) {
    grips[i] = 1
    rrs[i] = DEFAULT_RR
    if (terrain) { grips[i] = ground.grip[i]; rrs[i] = ground.rr[i] }
    else if (surfaces !== null) {
      const s = surfaces.surfaceAt(px + cp * xs[i] - sp * ys[i], py + sp * xs[i] + cp * ys[i])
      grips[i] = s.grip
      rrs[i] = s.rollingResistance
    }
  }
  // the steering's compliance in series with the front tyres' cornering stiffness
  let frontStiffness = 0
  for (let i = 0; i < 2; i++) {
    frontStiffness += d.corneringPerLoad * grips[i] * fzs[i] * corneringFactor(fzs[i] * d.invFz0 - 1)
  }
  const frontCompliance = 1 + d.steerCompliance * frontStiffness
  for (let i = 0; i < 4; i++) {
    const grip = grips[i]
    const rr = rrs[i]
    const vxc = vx - r * ys[i]
    const vyc = vy + r * xs[i]
    const c = cosd[i]
    const s = sind[i]
    const u = vxc * c + vyc * s
    const w = -vxc * s + vyc * c
    vxw[i] = u
    vyw[i] = w
    const omega = ws[w0 + i]
    tyre.load = fzs[i]; tyre.grip = grip; tyre.vx = u; tyre.vy = w; tyre.slip = omega * R - u
    tyre.compliance = i < 2 ? frontCompliance : 1
    tyreDamping(d, tyre)
    cxs[i] = tyre.cx
    cys[i] = tyre.cy
    peaks[i] = tyre.peak
    const front = i < 2
    const spin = wheels[i]
    spin.omega = omega; spin.inertia = d.iw; spin.damping = tyre.cx; spin.ground = u
    spin.brakeTorque = brake * (front ? d.brakeFront : d.brakeRear)
    spin.frictionTorque = rr * fzs[i] * R + (front ? 0 : hand)
    freeSpin(d, step, spin)
  }
  stepDriveline(C, d, eid, step, drive, d.driveShare, true)

  // forces with the new wheel speeds (the wheel's implicit half), summed in the body frame
  let fx = 0
  let fy = 0
  let mz = 0
  let cHeld = 0
  let heldForce = 0
  let heldGrip = 0
  let cY = 0
  let cR = 0
  for (let i = 0; i < 4; i++) {
    const wheel = wheels[i]
    const omega = wheel.free + (h * wheel.torque) / wheel.effectiveInertia
    ws[w0 + i] = omega
    const cx = cxs[i]
    const cy = cys[i]
    const ftx = cx * (omega * R - vxw[i])
    const fty = -cy * vyw[i]
    const c = cosd[i]
    const s = sind[i]
    const fbx = ftx * c - fty * s
    const fby = ftx * s + fty * c
    fbxs[i] = fbx
    fbys[i] = fby
    fx += fbx
    fy += fby
    mz += xs[i] * fby - ys[i] * fbx
    if (wheel.held && wheel.torque === 0) { cHeld += cx * c * c; heldForce += fbx; heldGrip += (wheel.holding < peaks[i] ? wheel.holding : peaks[i]) * Math.abs(c) }
    cY += cx * s * s + cy * c * c
    cR += cy * xs[i] * xs[i] + cx * ys[i] * ys[i]
  }

  body.fx = fx; body.fy = fy; body.mz = mz; body.heldDamping = cHeld; body.heldForce = heldForce; body.heldGrip = heldGrip; body.lateralDamping = cY; body.yawDamping = cR
  if (terrain) {
    terrainBody(C, d, eid, ground, step, xs, ys, fzs, fbxs, fbys, body)
    integratePlanar(C, d, eid, step, body)
    return
  }
  // sprung mass: heave, roll (tyre forces act at the ground, h below the centre of mass), pitch
  const m = d.mass
  let fzSum = 0
  let mx = d.h * fy + m * gravity * d.h * phi
  let my = -d.h * fx
  for (let i = 0; i < 4; i++) {
    fzSum += fzs[i]
    mx += ys[i] * fzs[i]
    my -= xs[i] * fzs[i]
  }
  const nzd = zd + (h * (fzSum - m * gravity)) / m
  const nphid = phid + (h * mx) / d.ixx
  const nthd = thd + (h * my) / d.iyy
  C.heaveRate[eid] = nzd
  C.rollRate[eid] = nphid
  C.pitchRate[eid] = nthd
  C.heave[eid] = z + h * nzd
  C.roll[eid] = phi + h * nphid
  C.pitch[eid] = th + h * nthd
  integratePlanar(C, d, eid, step, body)
}
