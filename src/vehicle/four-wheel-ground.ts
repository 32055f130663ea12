/**
 * The four-wheel model on any ground (the wheels' rays of ground-contact.ts): corner loads from
 * each spring's travel along the body's down axis to the surface, and the sprung mass moved by the
 * ground's forces in 3D. Each wheel's force is its normal load along the surface normal plus its
 * tyre force lifted into the contact plane (the tyre's horizontal components kept); their
 * horizontal parts move the planar body (so gravity acts along slopes through the normals), their
 * vertical parts the heave, and their moments about the centre of mass (taken in the body's frame,
 * each contact h below it) its roll and pitch. The planar state stays horizontal (speed is the
 * horizontal speed), which differs from the speed along a slope θ by 1 − cos θ.
 */
import type { CarStore } from '../../components/car'
import type { ResolvedCar } from './definition'
import type { Substep } from './substep'
import type { BodyForces } from './wheel'
import type { GroundContact } from './ground-contact'

// the lowest normal z a wheel's tyre force is lifted for (steeper: a wall, kept horizontal)
const NZ_MIN = 0.2
const travel = new Float64Array(4)

/**
 * Corner loads `fzs` of four-wheel car `eid` from gc's hits (castWheels of this substep): each
 * spring's preload less its travel beyond static times its rate, its damper on the rate that
 * travel changes at (the corner's velocity into the surface), and the anti-roll bars on the
 * difference of an axle's two travels. A wheel whose ray found nothing within reach carries none.
 * Writes Car.grounded.
 */
export function contactLoads(C: CarStore, d: ResolvedCar, eid: number, gc: GroundContact, xs: Float64Array, ys: Float64Array, fzs: Float64Array): void {
  const ex = gc.ex, ey = gc.ey, ez = gc.ez
  const psi = C.heading[eid]
  const cp = Math.cos(psi), sp = Math.sin(psi)
  const vx = C.vx[eid], vy = C.vy[eid]
  const vwx = vx * cp - vy * sp, vwy = vx * sp + vy * cp, vwz = C.heaveRate[eid]
  const r = C.yawRate[eid], phid = C.rollRate[eid], thd = C.pitchRate[eid]
  // how far each wheel extends below its static position before its spring carries nothing
  const droopF = d.fzF / d.kF, droopR = d.fzR / d.kR
  for (let i = 0; i < 4; i++) {
    const droop = i < 2 ? droopF : droopR
    const z = gc.hit[i] === 1 ? gc.dist[i] - d.h : droop
    travel[i] = z < droop ? z : droop
  }
  const arbF = (d.arbF * (travel[0] - travel[1])) / (d.tf * d.tf)
  const arbR = (d.arbR * (travel[2] - travel[3])) / (d.tr * d.tr)
  const grounded = C.grounded
  const w0 = eid * 4
  for (let i = 0; i < 4; i++) {
    const front = i < 2
    if (gc.hit[i] === 0) { fzs[i] = 0; grounded[w0 + i] = 0; continue }
    // the corner's velocity (body rates crossed with its arm, in the body frame, then to the world)
    const x = xs[i], y = ys[i]
    const bx = -r * y, by = r * x, bz = phid * y - thd * x
    const px = vwx + bx * ex[0] + by * ey[0] + bz * ez[0]
    const py = vwy + bx * ex[1] + by * ey[1] + bz * ez[1]
    const pz = vwz + bx * ex[2] + by * ey[2] + bz * ez[2]
    const nx = gc.nx[i], ny = gc.ny[i], nz = gc.nz[i]
    const along = ez[0] * nx + ez[1] * ny + ez[2] * nz
    const rate = (px * nx + py * ny + pz * nz) / (along > NZ_MIN ? along : NZ_MIN)
    const arb = (front ? arbF : arbR) * (i & 1 ? 1 : -1)
    const zi = gc.dist[i] - d.h
    const f = (front ? d.fzF - d.kF * zi - d.cF * rate : d.fzR - d.kR * zi - d.cR * rate) + arb
    fzs[i] = f > 0 ? f : 0
    grounded[w0 + i] = f > 0 ? 1 : 0
  }
}

/**
 * The sprung mass of four-wheel car `eid` under the ground's forces: each wheel's normal load
 * `fzs` along its surface normal plus its tyre force (`fbx`, `fby` in the heading frame) lifted
 * into the contact plane. Adds their horizontal parts to `body` (fx, fy, mz) and integrates heave,
 * roll and pitch one substep (semi-implicit Euler, as the flat model).
 */
export function terrainBody(C: CarStore, d: ResolvedCar, eid: number, gc: GroundContact, step: Substep, xs: Float64Array, ys: Float64Array, fzs: Float64Array, fbx: Float64Array, fby: Float64Array, body: BodyForces): void {
  const h = step.h, m = d.mass, arm = d.h
  const ex = gc.ex, ey = gc.ey, ez = gc.ez
  const psi = C.heading[eid]
  const cp = Math.cos(psi), sp = Math.sin(psi)
  let fx = 0, fy = 0, mz = 0, fz = 0, mx = 0, my = 0
  for (let i = 0; i < 4; i++) {
    const n = fzs[i]
    if (n === 0 && fbx[i] === 0 && fby[i] === 0) continue
    const nx = gc.nx[i], ny = gc.ny[i], nz = gc.nz[i]
    // the tyre force in the world: horizontal from the heading frame, vertical so it lies in the contact plane
    const tx = fbx[i] * cp - fby[i] * sp
    const ty = fbx[i] * sp + fby[i] * cp
    const tz = nz > NZ_MIN ? -(nx * tx + ny * ty) / nz : 0
    const wx = n * nx + tx, wy = n * ny + ty, wz = n * nz + tz
    // the normal load's horizontal part in the heading frame (the tyre's is in body already)
    const hx = n * (nx * cp + ny * sp), hy = n * (-nx * sp + ny * cp)
    fx += hx
    fy += hy
    mz += xs[i] * hy - ys[i] * hx
    fz += wz
    // moments about the centre of mass in the body frame, the contact h below it
    const bx = wx * ex[0] + wy * ex[1] + wz * ex[2]
    const by = wx * ey[0] + wy * ey[1] + wz * ey[2]
    const bz = wx * ez[0] + wy * ez[1] + wz * ez[2]
    mx += ys[i] * bz + arm * by
    my -= arm * bx + xs[i] * bz
  }
  body.fx += fx
  body.fy += fy
  body.mz += mz
  const nzd = C.heaveRate[eid] + (h * (fz - m * step.gravity)) / m
  const nphid = C.rollRate[eid] + (h * mx) / d.ixx
  const nthd = C.pitchRate[eid] + (h * my) / d.iyy
  C.heaveRate[eid] = nzd
  C.rollRate[eid] = nphid
  C.pitchRate[eid] = nthd
  C.heave[eid] += h * nzd
  C.roll[eid] += h * nphid
  C.pitch[eid] += h * nthd
}
