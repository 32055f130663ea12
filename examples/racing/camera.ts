/** The demo camera: follows a car, zooms with the wheel, and places the world container (y up, metres). */
import type { Container } from 'pixi.js'

/** Camera state: the world point at the screen centre and pixels per metre. */
export interface Camera {
  x: number
  y: number
  zoom: number
  /** Eases towards (tx, ty) and positions `view` for a screen of `width` × `height` px. */
  update(view: Container, tx: number, ty: number, width: number, height: number, dt: number, snap?: boolean): void
}

/** A camera listening to wheel events on `element`. */
export function createCamera(element: HTMLElement, zoom = 4): Camera {
  const cam: Camera = {
    x: 0,
    y: 0,
    zoom,
    update(view, tx, ty, width, height, dt, snap = false) {
      // Critically damped-ish follow: close the gap at ~8/s so fast cars stay near the centre.
      const k = snap ? 1 : 1 - Math.exp(-8 * dt)
      cam.x += (tx - cam.x) * k
      cam.y += (ty - cam.y) * k
      view.scale.set(cam.zoom, -cam.zoom)
      view.position.set(width / 2 - cam.x * cam.zoom, height / 2 + cam.y * cam.zoom)
    },
  }
  element.addEventListener('wheel', (e) => {
    e.preventDefault()
    cam.zoom = Math.max(0.25, Math.min(40, cam.zoom * Math.exp(-e.deltaY * 0.0015)))
  }, { passive: false })
  return cam
}
