/**
 * The car layer of pitlane/three: every car as a body (a lower box and a cabin, so its heading
 * shows) and four wheels, three instanced meshes in all. Poses come from sim.carState (filled into
 * one scratch record: no allocation), so the body follows the car's height, roll and pitch, the
 * front wheels its steering (with the definition's Ackermann), each wheel its suspension travel,
 * and the wheels spin at their wheel speeds.
 */
import { Color, CylinderGeometry, BoxGeometry, Group, MeshLambertMaterial } from 'three'
import { commitRemovals, registerQuery, type Query } from 'bitecs'
import type { CarState, Sim } from '../index'
import { createInstancePool, placement as t, writeInstance } from './instances'

/** The level of detail of a car as the view colours it. */
export type CarLevel = CarState['level']

/** Default car colours by level of detail (as pitlane/pixi's). */
export const LEVEL_COLORS: Readonly<Record<CarLevel, number>> = Object.freeze({ full: 0x4ade80, singleTrack: 0xfacc15, path: 0xc084fc, frozen: 0x60a5fa })

/** The car layer. */
export interface CarLayer {
  readonly group: Group
  /** Poses every car's body and wheels from its current state. */
  update(): void
  /** Cars drawn by the last update. */
  readonly count: number
  dispose(): void
}

/** Writes rotation a·b (row-major 3×3, a at ao, b at bo) into out at oo. */
function mul3(out: Float64Array, oo: number, a: Float64Array, ao: number, b: Float64Array, bo: number): void {
  for (let i = 0; i < 3; i++) {
    const a0 = a[ao + 3 * i], a1 = a[ao + 3 * i + 1], a2 = a[ao + 3 * i + 2]
    for (let j = 0; j < 3; j++) out[oo + 3 * i + j] = a0 * b[bo + j] + a1 * b[bo + 3 + j] + a2 * b[bo + 6 + j]
  }
}

/** Builds the car layer of `sim`, colouring each car with `carColor`. */
export function createCarLayer(sim: Sim, carColor: (car: number, level: CarLevel) => number, wheels: boolean): CarLayer {
  const group = new Group()
  group.name = 'pitlane-cars'
  const bodyMaterial = new MeshLambertMaterial({ color: 0xffffff })
  const cabinMaterial = new MeshLambertMaterial({ color: 0x1f2937 })
  const wheelMaterial = new MeshLambertMaterial({ color: 0x222222, flatShading: true })
  const boxGeometry = new BoxGeometry(1, 1, 1)
  // axis along y (the wheel's axle, pitlane's body y); few sides, so the spin shows
  const wheelGeometry = new CylinderGeometry(1, 1, 1, 9)
  const bodies = createInstancePool(group, boxGeometry, bodyMaterial, 32, 'pitlane-car-bodies')
  const cabins = createInstancePool(group, boxGeometry, cabinMaterial, 32, 'pitlane-car-cabins')
  const wheelPool = createInstancePool(group, wheelGeometry, wheelMaterial, 128, 'pitlane-car-wheels')
  const query: Query = registerQuery(sim.world, [sim.components.Car])
  let state: CarState | null = null
  const Rb = new Float64Array(9), Rw = new Float64Array(9), Rs = new Float64Array(9)
  // one car's wheels FL, FR, RL, RR: position in the body frame, road-wheel angle
  const wx = new Float64Array(4), wy = new Float64Array(4), wa = new Float64Array(4)
  const color = new Color()
  let spin = new Float64Array(256)
  // each instance's colour as last set (-1: none)
  let colors = new Int32Array(0)
  let lastTime = 0
  let count = 0

  function update(): void {
    commitRemovals(sim.world)
    const list = query.dense as ArrayLike<number>
    const n = list.length
    bodies.reserve(n); cabins.reserve(n)
    if (colors.length < n) colors = new Int32Array(bodies.mesh.instanceMatrix.count).fill(-1)
    if (wheels) wheelPool.reserve(4 * n)
    const B = bodies.mesh.instanceMatrix.array as Float32Array, K = cabins.mesh.instanceMatrix.array as Float32Array, W = wheelPool.mesh.instanceMatrix.array as Float32Array
    const dt = sim.time - lastTime
    const spinDt = dt > 0 && dt < 1 ? dt : 0
    lastTime = sim.time
    for (let k = 0; k < n; k++) {
      const car = list[k]
      const s = (state = state === null ? sim.carState(car) : sim.carState(car, state))
      const d = sim.carDefinition(car)
      const p = s.position, h = d.cgHeight, R = d.wheelRadius, H = d.height
      // the body's rotation (yaw, then pitch, then roll, as the chassis collider's), written out:
      // doubles passed to a call are boxed unless it is inlined
      const cy = Math.cos(s.heading), sy = Math.sin(s.heading), cp = Math.cos(s.pitch), sp = Math.sin(s.pitch), cr = Math.cos(s.roll), sr = Math.sin(s.roll)
      const r0 = cy * cp, r1 = cy * sp * sr - sy * cr, r2 = cy * sp * cr + sy * sr
      const r3 = sy * cp, r4 = sy * sp * sr + cy * cr, r5 = sy * sp * cr - cy * sr
      const r6 = -sp, r7 = cp * sr, r8 = cp * cr
      Rb[0] = r0; Rb[1] = r1; Rb[2] = r2; Rb[3] = r3; Rb[4] = r4; Rb[5] = r5; Rb[6] = r6; Rb[7] = r7; Rb[8] = r8
      const px = p[0], py = p[1], pz = p[2]
      // the lower body from half a wheel up to 55% of the height, the cabin above it, set back
      const bottom = 0.5 * R - h, belt = 0.55 * H - h, top = H - h
      let zb = 0.5 * (bottom + belt)
      // (narrower than the car's width by a wheel, so the wheels show beside it)
      t[0] = px + r2 * zb; t[1] = py + r5 * zb; t[2] = pz + r8 * zb; t[3] = d.length; t[4] = Math.min(d.width, Math.min(d.trackFront, d.trackRear) - 0.05); t[5] = belt - bottom
      writeInstance(B, k, Rb, 0)
      const xb = -0.1 * d.length
      zb = 0.5 * (belt + top)
      t[0] = px + r0 * xb + r2 * zb; t[1] = py + r3 * xb + r5 * zb; t[2] = pz + r6 * xb + r8 * zb; t[3] = 0.5 * d.length; t[4] = 0.8 * Math.min(d.width, d.trackFront); t[5] = top - belt
      writeInstance(K, k, Rb, 0)
      // setHex converts to linear with calls on doubles: only when the colour changes
      const hex = carColor(car, s.level)
      if (hex !== colors[k]) { colors[k] = hex; color.setHex(hex); bodies.color(k, color) }
      if (!wheels) continue
      if (car >= spin.length) { const grown = new Float64Array(Math.max(2 * spin.length, car + 1)); grown.set(spin); spin = grown }
      // Ackermann: the inner front wheel turns more
      const delta = s.steerAngle
      let dl = delta, dr = delta
      if (delta !== 0 && d.ackermann > 0) {
        const tn = Math.tan(delta), half = 0.5 * d.ackermann * d.trackFront, L = d.wheelbase
        dl = Math.atan((L * tn) / (L - half * tn))
        dr = Math.atan((L * tn) / (L + half * tn))
      }
      // wheel positions through a typed array, so each is a plain double (a choice between a field read
      // and a computed value would be boxed for the rear wheels)
      wx[0] = wx[1] = d.cgToFront; wx[2] = wx[3] = d.cgToFront - d.wheelbase
      wy[0] = 0.5 * d.trackFront; wy[1] = -wy[0]; wy[2] = 0.5 * d.trackRear; wy[3] = -wy[2]
      wa[0] = dl; wa[1] = dr; wa[2] = 0; wa[3] = 0
      const width = Math.max(0.15, 0.13 * d.trackFront)
      // the wheels' mean spin angle (one angle a car: its wheel speeds differ little)
      const ws = s.wheelSpeeds
      const angle = (spin[car] + 0.25 * (ws[0] + ws[1] + ws[2] + ws[3]) * spinDt) % (2 * Math.PI)
      spin[car] = angle
      const ca = Math.cos(angle), sa = Math.sin(angle)
      for (let i = 0; i < 4; i++) {
        const x = wx[i], y = wy[i], z = R - h + s.suspension[i], steer = wa[i]
        // the wheel in the body: steered about z, then spun about its axle (y)
        const cs = Math.cos(steer), ss = Math.sin(steer)
        Rs[0] = cs * ca; Rs[1] = -ss; Rs[2] = cs * sa
        Rs[3] = ss * ca; Rs[4] = cs; Rs[5] = ss * sa
        Rs[6] = -sa; Rs[7] = 0; Rs[8] = ca
        mul3(Rw, 0, Rb, 0, Rs, 0)
        t[0] = px + r0 * x + r1 * y + r2 * z; t[1] = py + r3 * x + r4 * y + r5 * z; t[2] = pz + r6 * x + r7 * y + r8 * z; t[3] = R; t[4] = width; t[5] = R
        writeInstance(W, 4 * k + i, Rw, 0)
      }
    }
    bodies.commit(n); cabins.commit(n)
    wheelPool.commit(wheels ? 4 * n : 0)
    count = n
  }

  return {
    group,
    update,
    get count() { return count },
    dispose() {
      bodies.dispose(); cabins.dispose(); wheelPool.dispose()
      boxGeometry.dispose(); wheelGeometry.dispose()
      bodyMaterial.dispose(); cabinMaterial.dispose(); wheelMaterial.dispose()
    },
  }
}
