/**
 * The follow camera: it looks ahead of the car along its velocity, zooms out smoothly as the car
 * speeds up (the wheel or pinch scales that), and either keeps north up or turns with the car.
 * It places the world container (metres, y up) for the screen.
 */
import type { Container } from 'pixi.js'
import type { CameraMode } from './settings'

/** Camera state: the world point at the screen centre, pixels per metre and the view's rotation. */
export interface Camera {
  x: number
  y: number
  zoom: number
  rotation: number
  /** The user's zoom factor on top of the speed-dependent zoom (wheel). */
  userZoom: number
  /** Eases towards the car at (tx, ty) with world velocity (vx, vy) and heading, and positions `view`. */
  update(view: Container, tx: number, ty: number, vx: number, vy: number, heading: number, width: number, height: number, dt: number, snap?: boolean): void
  /** Radius (m) of the world circle around the camera's centre that covers the screen. */
  viewRadius(width: number, height: number): number
}

/** Seconds of travel the camera looks ahead, and the most it looks ahead (m). */
const LOOK_AHEAD = 0.7
const MAX_AHEAD = 30

/** A camera with base zoom `zoom` px/m listening to wheel events on `element`. */
export function createCamera(element: HTMLElement, mode: CameraMode, zoom: number): Camera {
  let aheadX = 0, aheadY = 0
  const cam: Camera = {
    x: 0,
    y: 0,
    zoom,
    rotation: 0,
    userZoom: 1,
    update(view, tx, ty, vx, vy, heading, width, height, dt, snap = false) {
      const speed = Math.hypot(vx, vy)
      const ahead = Math.min(MAX_AHEAD, speed * LOOK_AHEAD) / Math.max(speed, 1e-9)
      // the centre is the car plus an eased look-ahead: the car holds still on screen at a steady
      // speed, and a slide or a hairpin swings the view round instead of jerking it
      const k = snap ? 1 : 1 - Math.exp(-2.5 * dt)
      aheadX += (vx * ahead - aheadX) * k
      aheadY += (vy * ahead - aheadY) * k
      cam.x = tx + aheadX
      cam.y = ty + aheadY
      const want = zoom * cam.userZoom / (1 + speed / 80)
      cam.zoom += (want - cam.zoom) * (snap ? 1 : 1 - Math.exp(-1.5 * dt))
      if (mode === 'rotate') {
        const target = heading - Math.PI / 2
        let d = target - cam.rotation
        d = Math.atan2(Math.sin(d), Math.cos(d))
        cam.rotation += d * (snap ? 1 : 1 - Math.exp(-4 * dt))
      } else cam.rotation = 0
      view.pivot.set(cam.x, cam.y)
      view.scale.set(cam.zoom, -cam.zoom)
      view.rotation = cam.rotation
      // turning with the car, the car sits low on the screen so more of the road ahead shows
      view.position.set(width / 2, mode === 'rotate' ? height * 0.58 : height / 2)
    },
    viewRadius(width, height) {
      return (0.5 * Math.hypot(width, height)) / cam.zoom + (mode === 'rotate' ? 0.1 * height / cam.zoom : 0)
    },
  }
  element.addEventListener('wheel', (e) => {
    e.preventDefault()
    cam.userZoom = Math.max(0.08, Math.min(6, cam.userZoom * Math.exp(-e.deltaY * 0.0015)))
  }, { passive: false })
  return cam
}
