/**
 * The terrain example: pitlane's cars on a hilly heightfield with a banked turn, a ramp, kerbs and
 * a glTF city block, drawn by pitlane/three's debug view. The player's car (keyboard or gamepad,
 * a chase camera) carries a spinning lidar whose points are coloured by intensity; six driven cars
 * lap the circuit at every level of detail (two full, two single-track, one path, one frozen). The
 * sim steps at a fixed 60 Hz; the canvas resolution follows the frame rate (?res=1 fixes it).
 * Exposes `window.pitlaneTerrain` for the browser test and for tinkering. Public API only.
 */
import { WebIO } from '@gltf-transform/core'
import { Color, PerspectiveCamera, Scene, WebGLRenderer } from 'three'
import { createWorld } from 'bitecs'
import { createSim, lidarPresets, type CarState, type LodLevel, type Sim } from '../../src/index'
import { createDebugView, type DebugView } from '../../src/three/index'
import { createKeyboard, type DigitalPad } from '../racing/keyboard'
import { createGamepad } from '../racing/gamepad'
import { createControls } from '../racing/controls'
import { createResolutionScaler } from '../racing/resolution'
import { createChaseCamera } from './chase-camera'
import { addCityBlock, addTerrain, circuit, COLOURS } from './world'

/** What the example exposes on window. */
export interface TerrainHandle {
  ready: boolean
  error: string | null
  sim: Sim | null
  view: DebugView | null
  /** The player's car, the driven cars and their levels, the player's lidar. */
  player: number
  cars: number[]
  levels: LodLevel[]
  lidar: number
  /** Frames drawn in the last whole second, and since the start. */
  fps: number
  frames: number
  /** Host steps taken. */
  steps: number
  /** The canvas resolution scale in force. */
  resolution: number
  /** Colliders the city block added (0 when the asset did not load). */
  cityBlock: number
  /** Each driven car's lowest and highest centre-of-mass height so far, m. */
  heights(): Record<number, [number, number]>
  /** Mean sim and render time per frame over the last second, ms. */
  simMs: number
  renderMs: number
  /** Draws a frame and reads its pixels back (RGBA, every `stride`-th pixel of every `stride`-th row), for tests. */
  readPixels(stride: number): { width: number; height: number; data: number[] }
}

declare global {
  interface Window { pitlaneTerrain: TerrainHandle }
}

const handle: TerrainHandle = {
  ready: false, error: null, sim: null, view: null, player: -1, cars: [], levels: [], lidar: -1, fps: 0, frames: 0, steps: 0, resolution: 1, cityBlock: 0,
  heights: () => ({}), simMs: 0, renderMs: 0, readPixels: () => ({ width: 0, height: 0, data: [] }),
}
window.pitlaneTerrain = handle

const DT = 1 / 60
const LEVELS: LodLevel[] = ['full', 'full', 'singleTrack', 'singleTrack', 'path', 'frozen']

async function loadCityBlock(sim: Sim): Promise<number> {
  const url = new URL('../assets/city-block.glb', import.meta.url).href
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer())
  return addCityBlock(sim, await new WebIO().readBinary(bytes))
}

async function start(): Promise<void> {
  const query = new URLSearchParams(location.search)
  const fixedRes = query.has('res') ? Math.max(0.25, Math.min(2, Number(query.get('res')) || 1)) : null
  const withLidar = query.get('lidar') !== '0'

  // the world: terrain, scenery, a ground plane (not drawn) below the lowest valley for anyone who drives off the map
  const sim = createSim(createWorld(), { ground: { height: -8 } })
  addTerrain(sim)
  handle.cityBlock = await loadCityBlock(sim)
  const line = circuit()
  const points = line.length / 2
  const slot = (k: number) => {
    const i = ((k % points) + points) % points, j = (i + 1) % points
    return { position: [line[2 * i]!, line[2 * i + 1]!], heading: Math.atan2(line[2 * j + 1]! - line[2 * i + 1]!, line[2 * j]! - line[2 * i]!) }
  }
  // six driven cars spread round the lap, one per level; the player on the start straight
  const cars: number[] = []
  LEVELS.forEach((level, n) => {
    const at = slot(Math.round(((n + 1) * points) / (LEVELS.length + 1)))
    const car = sim.addCar({ ...at, speed: level === 'frozen' ? 0 : 12 })
    sim.setAi(car, line, { closed: true, maxSpeed: 24, lateralAccel: 5, lateralOffset: n % 2 ? 1.5 : -1.5 })
    sim.setInput(car, { gear: 1 }) // drive engaged: the driver works the pedals and steering only
    if (level !== 'full') sim.setLod(car, level)
    cars.push(car)
  })
  const player = sim.addCar({ ...slot(0), speed: 0 })
  sim.setInput(player, { gear: 1 })
  // a 16-channel spinning lidar on the roof, 360 columns a turn out to 60 m, swept as it rotates (each step casts
  // the columns the head passed, so no frame pays for a whole turn)
  const spin = lidarPresets.spinning16
  const lidar = withLidar
    ? sim.addLidar({ ...spin, pattern: { ...spin.pattern, yawCount: 360, yawIncrement: (2 * Math.PI) / 360 }, rangeMax: 60, sweep: 'rotating', mount: player, offset: [0.3, 0, 1.05], attributes: { intensity: true } })
    : -1
  Object.assign(handle, { sim, player, cars, levels: LEVELS, lidar })

  // heights seen per driven car
  const lo = new Map<number, number>(), hi = new Map<number, number>()
  handle.heights = () => Object.fromEntries(cars.map((c) => [c, [lo.get(c) ?? NaN, hi.get(c) ?? NaN]]))

  // three: renderer, scene, camera, the debug view
  const stage = document.getElementById('stage')!
  const renderer = new WebGLRenderer({ antialias: false, powerPreference: 'high-performance' })
  stage.appendChild(renderer.domElement)
  const scene = new Scene()
  scene.background = new Color(0x9cc3e6)
  // (no fog and no ground plane drawn: in software GL every layer of pixels counts)
  const camera = new PerspectiveCamera(60, 1, 0.5, 600)
  const view = createDebugView(sim, scene, { paths: [cars[0]!], colliderColors: COLOURS, ground: false, lidarPointSize: 0.1, intensityRange: [0, 0.6] })
  handle.view = view
  const chase = createChaseCamera(camera)

  // down to 0.35 of the screen's pixels: a 3D scene in software GL costs per pixel
  const scaler = createResolutionScaler({ min: 0.35, low: 52, high: 58 })
  let scale = fixedRes ?? scaler.scale
  const resize = () => {
    renderer.setPixelRatio(scale)
    renderer.setSize(innerWidth, innerHeight, false)
    camera.aspect = innerWidth / innerHeight
    camera.updateProjectionMatrix()
    handle.resolution = scale
  }
  addEventListener('resize', resize)
  resize()

  // controls: the racing demo's keyboard, gamepad and their merge (no touch buttons here)
  const keyboard = createKeyboard()
  const gamepad = createGamepad()
  const noTouch: DigitalPad = { left: false, right: false, up: false, down: false, handbrake: false }
  const controls = createControls(keyboard.pad, noTouch, gamepad.poll())
  let following = player
  const reset = () => { const at = slot(0); sim.setPose(player, at.position, [0, 0, Math.sin(at.heading / 2), Math.cos(at.heading / 2)]) }
  keyboard.onPress('KeyR', reset)
  keyboard.onPress('KeyC', () => { const all = [player, ...cars]; following = all[(all.indexOf(following) + 1) % all.length]! })

  handle.readPixels = (stride) => {
    // read in the same task as the draw (the drawing buffer is not kept after the frame is shown)
    renderer.render(scene, camera)
    const gl = renderer.getContext(), w = gl.drawingBufferWidth, h = gl.drawingBufferHeight
    const all = new Uint8Array(w * h * 4)
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, all)
    const data: number[] = []
    for (let y = 0; y < h; y += stride) for (let x = 0; x < w; x += stride) { const k = 4 * (y * w + x); data.push(all[k]!, all[k + 1]!, all[k + 2]!, all[k + 3]!) }
    return { width: Math.ceil(w / stride), height: Math.ceil(h / stride), data }
  }

  const state: CarState = sim.carState(player)
  let acc = 0, last = performance.now(), second = last, framesThisSecond = 0, simTime = 0, renderTime = 0
  chase.follow(sim.carState(following, state), 0, true)
  const frame = (now: number) => {
    requestAnimationFrame(frame)
    const elapsed = Math.min(0.1, (now - last) / 1000)
    last = now
    acc += elapsed
    const t0 = performance.now()
    let n = 0
    while (acc >= DT && n < 4) {
      gamepad.poll() // refreshes `reading` in place (the controls hold it)
      controls.apply(sim, player, sim.carState(player, state).speed, DT, false)
      sim.step(DT)
      acc -= DT
      n++
    }
    if (n === 4) acc = 0 // too slow to keep up: drop the debt rather than spiral
    handle.steps = sim.steps
    for (const c of cars) {
      const z = sim.carState(c, state).position[2]
      if (!(z >= (lo.get(c) ?? Infinity))) lo.set(c, z)
      if (!(z <= (hi.get(c) ?? -Infinity))) hi.set(c, z)
    }
    const t1 = performance.now()
    view.update()
    chase.follow(sim.carState(following, state), elapsed)
    renderer.render(scene, camera)
    const t2 = performance.now()
    simTime += t1 - t0
    renderTime += t2 - t1
    handle.frames++
    framesThisSecond++
    if (now - second >= 1000) {
      const seconds = (now - second) / 1000
      handle.fps = framesThisSecond / seconds
      handle.simMs = simTime / framesThisSecond
      handle.renderMs = renderTime / framesThisSecond
      if (fixedRes === null) {
        const next = scaler.update(handle.fps, seconds)
        if (next !== null) { scale = next; resize() }
      }
      const s = sim.carState(player, state)
      document.getElementById('speed')!.textContent = String(Math.round(Math.abs(s.speed) * 3.6))
      document.getElementById('perf')!.textContent =
        `${handle.fps.toFixed(0)} fps · resolution ${scale.toFixed(3)} · sim ${handle.simMs.toFixed(2)} ms · draw ${handle.renderMs.toFixed(2)} ms\n` +
        `${view.drawn.cars} cars · ${view.drawn.lidarPoints} lidar points · ${view.drawn.surfaces} surfaces · ${view.drawn.boxes} boxes`
      framesThisSecond = 0; simTime = 0; renderTime = 0; second = now
    }
  }
  requestAnimationFrame(frame)
  handle.ready = true
}

start().catch((e: unknown) => {
  handle.error = e instanceof Error ? e.message : String(e)
  console.error('terrain example failed to start:', e)
})
