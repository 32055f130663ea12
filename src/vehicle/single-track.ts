/**
 * The single-track (bicycle) model, one substep: one lumped wheel per axle (slots 0 front and 2
 * rear; 1 and 3 mirror them for reporting) with the same tyre law per tyre at half the axle load,
 * load transfer from the last substep's longitudinal acceleration, the shared powertrain, and
 * kinematic blending at low speed (below ~3 m/s yaw rate and side slip follow the steering
 * geometry, so a crawling car has no stiff lateral dynamics). The body stays level.
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { SurfaceMap } from './surfaces'
import { tyreDamping as tyreDamping_, tyreIn as tyreIn_, tyreOut as tyreOut_ } from './tyre'
import { ptFree as ptFree_, ptGround as ptGround_, ptJ as ptJ_, ptTorque as ptTorque_, stepDriveline as stepDriveline_ } from './powertrain'
import { bodyIn as bodyIn_, freeWheel as freeWheel_, integratePlanar as integratePlanar_, steerTowards as steerTowards_, wheelHeld as wheelHeld_, wheelIn as wheelIn_ } from './wheel'
import { substep as substep_ } from './substep'
import { DEFAULT_RR as DEFAULT_RR_ } from './four-wheel'

// Imported bindings copied to module constants: test runners that turn imports into namespace
// lookups (vitest) would otherwise pay a property load per use in the hot loop.
const tyreDamping = tyreDamping_
const tyreIn = tyreIn_
const tyreOut = tyreOut_
const ptFree = ptFree_
const ptGround = ptGround_
const ptJ = ptJ_
const ptTorque = ptTorque_
const stepDriveline = stepDriveline_
const bodyIn = bodyIn_
const freeWheel = freeWheel_
const integratePlanar = integratePlanar_
const steerTowards = steerTowards_
const wheelHeld = wheelHeld_
const wheelIn = wheelIn_
const substep = substep_
const DEFAULT_RR = DEFAULT_RR_

/** Below this speed the single-track model is purely kinematic laterally, m/s. */
export const KINEMATIC_BELOW = 1
/** Above this speed it is purely dynamic, m/s (blended in between). */
export const DYNAMIC_ABOVE = 3

const cxs = new Float64Array(4)
const cys = new Float64Array(4)
const vxs = new Float64Array(4)
const vys = new Float64Array(4)

/** Advances single-track car `eid` by one substep h with `gravity`. `surfaces` null = tarmac everywhere. */
export function stepSingleTrack(C: CarStore, d: ResolvedCar, eid: number, h: number, gravity: number, surfaces: SurfaceMap | null): void {
  substep[0] = h
  substep[1] = gravity
  singleTrackSubstep(C, d, eid, surfaces)
}

/** Like stepSingleTrack with h and gravity already in `substep` (the vehicle system sets them once per car). */
export function singleTrackSubstep(C: CarStore, d: ResolvedCar, eid: number, surfaces: SurfaceMap | null): void {
  const h = substep[0]
  const gravity = substep[1]
  const a = d.a
  const b = d.b
  const L = d.L
  const R = d.R
  steerTowards(C, d, eid)
  const delta = C.steerAngle[eid]
  const cd = Math.cos(delta)
  const sd = Math.sin(delta)
  const m = d.mass
  const transfer = (m * C.ax[eid] * d.h) / L
  let fzF = (m * gravity * b) / L - transfer
  let fzR = (m * gravity * a) / L + transfer
  if (fzF < 0) fzF = 0
  if (fzR < 0) fzR = 0

  const vx = C.vx[eid]
  const vy = C.vy[eid]
  const r = C.yawRate[eid]
  const ws = C.wheelSpeed
  const w0 = eid * 4
  const brake = C.brake[eid]
  let cY = 0
  let cR = 0
  for (let k = 0; k < 2; k++) {
    const i = k * 2
    const front = k === 0
    const xa = front ? a : -b
    let grip = 1
    let rr = DEFAULT_RR
    if (surfaces !== null) {
      const psi = C.heading[eid]
      const s = surfaces.surfaceAt(C.x[eid] + Math.cos(psi) * xa, C.y[eid] + Math.sin(psi) * xa)
      grip = s.grip
      rr = s.rollingResistance
    }
    const fz = front ? fzF : fzR
    const vyc = vy + r * xa
    const c = front ? cd : 1
    const s = front ? sd : 0
    const u = vx * c + vyc * s
    const w = -vx * s + vyc * c
    vxs[i] = u
    ptGround[i] = u
    vys[i] = w
    const omega = ws[w0 + i]
    // one tyre at half the axle load, doubled, losing what load sensitivity takes from the pair
    // under the axle's steady lateral load transfer (ay ≈ r·vx)
    tyreIn[0] = 0.5 * fz; tyreIn[1] = grip; tyreIn[2] = u; tyreIn[3] = w; tyreIn[4] = omega * R - u
    tyreIn[5] = (front ? d.ltF : d.ltR) * r * vx
    tyreDamping(d)
    const cx = 2 * tyreOut[0]
    const cy = 2 * tyreOut[1]
    cxs[i] = cx
    cys[i] = cy
    wheelIn[0] = omega; wheelIn[1] = 2 * d.iw; wheelIn[2] = cx; wheelIn[3] = u
    wheelIn[4] = brake * 2 * (front ? d.brakeFront : d.brakeRear)
    wheelIn[5] = rr * fz * R + (front ? 0 : 2 * C.handbrake[eid] * d.handbrake)
    freeWheel(d, i)
    cY += cx * s * s + cy * c * c
    cR += cy * xa * xa
  }
  ptFree[1] = ptFree[3] = 0
  ptJ[1] = ptJ[3] = 1
  stepDriveline(C, d, eid, d.axleShare, false)

  let fx = 0
  let fy = 0
  let mz = 0
  let cHeld = 0
  for (let k = 0; k < 2; k++) {
    const i = k * 2
    const omega = ptFree[i] + (h * ptTorque[i]) / ptJ[i]
    ws[w0 + i] = omega
    ws[w0 + i + 1] = omega
    const ftx = cxs[i] * (omega * R - vxs[i])
    const fty = -cys[i] * vys[i]
    const c = k === 0 ? cd : 1
    const s = k === 0 ? sd : 0
    const fbx = ftx * c - fty * s
    const fby = ftx * s + fty * c
    fx += fbx
    fy += fby
    mz += (k === 0 ? a : -b) * fby
    if (wheelHeld[i] === 1 && ptTorque[i] === 0) cHeld += cxs[i] * c * c
  }
  bodyIn[0] = fx; bodyIn[1] = fy; bodyIn[2] = mz; bodyIn[3] = cHeld; bodyIn[4] = cY; bodyIn[5] = cR
  integratePlanar(C, d, eid)

  // kinematic blending: at crawling speed yaw rate and side slip follow the steering geometry
  const nvx = C.vx[eid]
  const sx = nvx < 0 ? -nvx : nvx
  if (sx < DYNAMIC_ABOVE) {
    let wgt = (sx - KINEMATIC_BELOW) / (DYNAMIC_ABOVE - KINEMATIC_BELOW)
    if (wgt < 0) wgt = 0
    const rk = (nvx * Math.tan(delta)) / L
    C.yawRate[eid] = wgt * C.yawRate[eid] + (1 - wgt) * rk
    C.vy[eid] = wgt * C.vy[eid] + (1 - wgt) * rk * b
  }
}
