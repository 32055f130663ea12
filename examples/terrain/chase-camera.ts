/** A chase camera: behind and above a car, following its heading and height with a little lag (z up). */
import type { PerspectiveCamera } from 'three'
import type { CarState } from '../../src/index'

/** Moves a camera after a car. */
export interface ChaseCamera {
  /** Eases the camera towards its place behind `state`'s car over `dt` s (snap: at once). */
  follow(state: CarState, dt: number, snap?: boolean): void
}

/** A chase camera `back` m behind and `up` m above the car, looking `ahead` m past it. */
export function createChaseCamera(camera: PerspectiveCamera, back = 9, up = 3.6, ahead = 6): ChaseCamera {
  camera.up.set(0, 0, 1)
  let heading = NaN
  const eye = { x: 0, y: 0, z: 0 }
  return {
    follow(s, dt, snap = false) {
      // the heading eases (a spin does not whip the camera round); the wrap is taken the short way
      const target = s.heading
      if (Number.isNaN(heading) || snap) heading = target
      else heading += Math.atan2(Math.sin(target - heading), Math.cos(target - heading)) * Math.min(1, 4 * dt)
      const c = Math.cos(heading), si = Math.sin(heading)
      const [x, y, z] = s.position
      const k = snap ? 1 : Math.min(1, 8 * dt)
      eye.x += (x - back * c - eye.x) * k
      eye.y += (y - back * si - eye.y) * k
      eye.z += (z + up - eye.z) * k
      if (snap) { eye.x = x - back * c; eye.y = y - back * si; eye.z = z + up }
      camera.position.set(eye.x, eye.y, eye.z)
      camera.lookAt(x + ahead * c, y + ahead * si, z + 0.8)
    },
  }
}
