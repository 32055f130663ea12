/** Touch controls for phones: steer left/right with the left thumb, brake and throttle with the right. */
import type { DigitalPad } from './keyboard'

/** The on-screen buttons' state (a DigitalPad) and whether a touch has been seen. */
export interface TouchPad {
  readonly pad: DigitalPad
  /** True once the page has been touched (the buttons are then shown). */
  readonly used: boolean
}

/** Binds the buttons with `data-touch` = left | right | up | down inside `root`. */
export function createTouchPad(root: HTMLElement): TouchPad {
  const pad: DigitalPad = { left: false, right: false, up: false, down: false, handbrake: false }
  let used = false
  const show = () => { used = true; root.hidden = false }
  if (matchMedia('(pointer: coarse)').matches) show()
  window.addEventListener('touchstart', show, { once: true, passive: true })
  for (const el of Array.from(root.querySelectorAll<HTMLElement>('[data-touch]'))) {
    const key = el.dataset.touch as keyof DigitalPad
    const set = (on: boolean) => (e: PointerEvent) => {
      e.preventDefault()
      pad[key] = on
      el.classList.toggle('held', on)
      if (on) el.setPointerCapture(e.pointerId)
    }
    el.addEventListener('pointerdown', set(true))
    el.addEventListener('pointerup', set(false))
    el.addEventListener('pointercancel', set(false))
    el.addEventListener('lostpointercapture', () => { pad[key] = false; el.classList.remove('held') })
  }
  return { pad, get used() { return used } }
}
