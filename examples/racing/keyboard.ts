/** Keyboard state: the driving keys held (arrows/WASD, space = handbrake) and one-shot key handlers. */

/** The driving intent of a digital device (keyboard or touch buttons). */
export interface DigitalPad {
  left: boolean
  right: boolean
  up: boolean
  down: boolean
  handbrake: boolean
}

/** Pressed keys and handlers for single presses. */
export interface Keyboard {
  /** The driving keys held now. */
  readonly pad: DigitalPad
  /** Calls `fn` when `code` (KeyboardEvent.code) is pressed (not on auto-repeat). */
  onPress(code: string, fn: () => void): void
}

const LEFT = ['ArrowLeft', 'KeyA'], RIGHT = ['ArrowRight', 'KeyD'], UP = ['ArrowUp', 'KeyW'], DOWN = ['ArrowDown', 'KeyS']

/** Listens on `target` (default window) for keys; typing into a form field drives nothing. */
export function createKeyboard(target: Window = window): Keyboard {
  const down = new Set<string>()
  const handlers = new Map<string, () => void>()
  const driving = new Set([...LEFT, ...RIGHT, ...UP, ...DOWN, 'Space'])
  const pad: DigitalPad = { left: false, right: false, up: false, down: false, handbrake: false }
  const refresh = () => {
    const any = (codes: string[]) => codes.some((c) => down.has(c))
    pad.left = any(LEFT); pad.right = any(RIGHT); pad.up = any(UP); pad.down = any(DOWN); pad.handbrake = down.has('Space')
  }
  target.addEventListener('keydown', (e) => {
    const el = e.target as HTMLElement | null
    if (el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA')) return
    if (driving.has(e.code)) e.preventDefault()
    if (!e.repeat) handlers.get(e.code)?.()
    down.add(e.code)
    refresh()
  })
  target.addEventListener('keyup', (e) => { down.delete(e.code); refresh() })
  target.addEventListener('blur', () => { down.clear(); refresh() })
  return { pad, onPress: (code, fn) => { handlers.set(code, fn) } }
}
