/**
 * The top-down racing demo: a race on the built-in circuit (grid, start lights, standings, results)
 * between the player and an AI field, drawn with generated car sprites, skid marks, a minimap and a
 * follow camera, with pitlane/pixi's debug renderer as a toggleable overlay. The sim runs at a fixed
 * 60 Hz from pixi's ticker (an accumulator). Settings come from the URL (settings.ts). Far cars keep
 * racing at the path level; a restart puts the world back to its grid snapshot, in place.
 * Exposes `window.pitlaneDemo` for the browser test and for tinkering.
 */
import { Application, Container, CullerPlugin, extensions, GlLimitsSystem, UPDATE_PRIORITY } from 'pixi.js'
import { createWorld } from 'bitecs'
import { addLapTimer, createSim, LodController, lidarPresets, restoreWorld, snapshotWorld, type CarDefinition, type Sim } from '../../src/index'
import { createDebugRenderer, LEVEL_COLORS } from '../../src/pixi/index'
import { createTrack, projectOnTrack, trackPath, trackPoint, trafficWidth } from '../track'
import { addCircuit, trackSurfaces, yawMatrix } from '../race/field'
import { addSlipstream } from '../modding/slipstream'
import { drawBarriers, drawTrack, createTrees, GRASS } from './track-view'
import { placeGrid, gridSlot } from './grid'
import { createRace, type Race } from './race'
import { createCarArt } from './car-art'
import { createCarViews } from './car-views'
import { createSkids } from './skids'
import { createLidarView } from './lidar-view'
import { createMinimap } from './minimap'
import { createCamera } from './camera'
import { createKeyboard } from './keyboard'
import { createGamepad, PAD } from './gamepad'
import { createTouchPad } from './touch'
import { createControls } from './controls'
import { createHud } from './hud'
import { CLUB_CIRCUIT, createSettingsPanel, readSettings, type Settings } from './settings'
import { addHosting } from './hosting'
import { createResolutionScaler } from './resolution'

/** The state the demo exposes on window for tests and tinkering. */
export interface DemoHandle {
  ready: boolean
  sim: Sim | null
  /** Host steps taken. */
  steps: number
  /** Frames drawn in the last whole second. */
  fps: number
  /** Frames drawn since start. */
  frames: number
  /** The canvas resolution scale in force (settings.resolution, or the dynamic scale under 'auto'). */
  resolution: number
  /** The race: phase and standings (a new object after each restart). */
  race: Race | null
  /** Races restarted in place since the page loaded. */
  restarts: number
  /** The settings in force (from the URL). */
  settings: Settings
  /** The player's car. */
  player: number
  /** The AI cars. */
  field: number[]
  /** The player's lidar (-1 with the lidar off). */
  lidar: number
  /** Mean sim and render time per frame over the last second, ms. */
  simMs: number
  renderMs: number
  /** Lidar points drawn in the last frame. */
  lidarPoints: number
  /** Cars drawn (on screen) in the last frame. */
  carsDrawn: number
  /** Skid marks laid so far. */
  skidMarks: number
  /** The car the camera follows. */
  following: number
  /** The camera's centre, zoom (px/m) and rotation. */
  camera: { x: number; y: number; zoom: number; rotation: number }
  paused: boolean
  debug: boolean
  /** The device that drove the player's car last. */
  device: string
  /** Time from the script's start to ready, ms. */
  startupMs: number
  /** Errors caught while starting (also logged). */
  error: string | null
}

declare global {
  interface Window { pitlaneDemo: DemoHandle }
}

const DT = 1 / 60
/**
 * Catch-up limit per frame (times the speed setting): when frames are slow the sim runs slower
 * than real time rather than spending the next frame catching up (a spiral on a busy machine).
 */
const MAX_STEPS_PER_FRAME = 2

// Static chunks of track, barriers and trees marked cullable are skipped when off screen.
extensions.add(CullerPlugin)
/** One texture per batch under software GL: SwiftShader pays for pixi's 16-way texture pick on every pixel (the demo's GPU time per frame ×4 without it). */
function oneTexturePerBatch(): void {
  const contextChange = GlLimitsSystem.prototype.contextChange
  GlLimitsSystem.prototype.contextChange = function (this: GlLimitsSystem) {
    contextChange.call(this)
    this.maxBatchableTextures = 1
  }
}
const settings = readSettings(location.search)
const demo: DemoHandle = {
  ready: false, sim: null, steps: 0, fps: 0, frames: 0, resolution: 1, race: null, restarts: 0, settings, player: -1, field: [], lidar: -1,
  simMs: 0, renderMs: 0, lidarPoints: 0, carsDrawn: 0, skidMarks: 0, following: -1,
  camera: { x: 0, y: 0, zoom: settings.zoom, rotation: 0 }, paused: false, debug: settings.debug, device: 'keyboard', startupMs: 0, error: null,
}
window.pitlaneDemo = demo

async function main(): Promise<void> {
  const started = performance.now()
  const software = softwareGl()
  if (software) oneTexturePerBatch()
  const app = new Application()
  // preserveDrawingBuffer: the browser test reads the canvas back between frames. Multisampling
  // triples the frame time of a software rasteriser (headless chromium), so it is off there.
  // The canvas keeps the page's size in CSS pixels at any resolution (autoDensity).
  const scaler = settings.resolution === 'auto' ? createResolutionScaler() : null
  demo.resolution = scaler ? scaler.scale : (settings.resolution as number)
  await app.init({ resizeTo: window, background: GRASS, antialias: !software, preference: 'webgl', preserveDrawingBuffer: true, resolution: demo.resolution, autoDensity: true })
  document.getElementById('stage')!.appendChild(app.canvas)

  // The sim: circuit colliders, the grid, lap timing, slipstream, LOD around the camera, Rapier for contact.
  const track = createTrack(settings.track === 'club' ? { control: CLUB_CIRCUIT } : {})
  const sim = createSim(createWorld(), { surfaces: trackSurfaces(track) })
  const circuit = addCircuit(sim, track)
  const entrants = placeGrid(sim, track, { cars: settings.cars, seed: settings.seed })
  const me = entrants.find((e) => e.player)!
  const player = me.car
  const cars = entrants.map((e) => e.car)
  const definitions: CarDefinition[] = cars.map((car) => sim.carDefinition(car))
  const lidar = settings.lidar ? sim.addLidar({ ...lidarPresets.spinning16, mount: player, offset: [0, 0, 1.6], attributes: { intensity: true } }) : -1
  let timer = addLapTimer(sim, { line: track.startLine })
  addSlipstream(sim)
  // far driven cars move along their line (path level) and keep racing; frozen only if the settings
  // say so; single-track cars at 240 Hz as in the headless race (the default 500 Hz costs twice the substeps)
  const lod = new LodController(sim, { singleTrackBeyond: settings.singleTrackBeyond, pathBeyond: settings.pathBeyond, frozenBeyond: settings.frozenBeyond, hysteresis: 10, singleTrackHz: 240 })
  lod.markExternal(player)
  lod.install({ focus: [sim.components.Car.x[player]!, sim.components.Car.y[player]!] })
  const host = await addHosting(sim, player, circuit.barriers)
  // the grid before the first step: a restart puts the whole world back to it
  const onGrid = snapshotWorld(sim)
  const path = trackPath(track)
  const { Car } = sim.components
  const newRace = () => createRace({
    track, entrants, laps: settings.laps, timer, seed: settings.seed, now: () => sim.time,
    x: (car) => Car.x[car]!, y: (car) => Car.y[car]!,
    // lights out: every AI car gets its line and goes
    onStart: () => {
      // (traffic: they race wheel to wheel within the tarmac, and around the player)
      for (const e of entrants) if (!e.player) sim.setAi(e.car, path, { closed: true, maxSpeed: e.maxSpeed, lateralAccel: e.lateralAccel, lateralOffset: e.lateralOffset, traffic: 'avoid', width: trafficWidth(track, e.lateralOffset) })
    },
  })
  let race = newRace()

  // The scene: world container in metres (y up), ground first, then marks, shadows, barriers, cars, trees, lidar, debug.
  const art = createCarArt(app.renderer, entrants.map((e, i) => ({ definition: definitions[i]!, color: e.color, stripe: e.stripe, number: e.number })))
  // a render group: the camera's transform is applied on the GPU, so the static track, barriers and
  // trees keep their batched vertices from frame to frame and only the moving sprites are updated
  const view = new Container({ label: 'world', isRenderGroup: true })
  app.stage.addChild(view)
  const total = entrants.length
  const slots = Array.from({ length: total }, (_, i) => gridSlot(i))
  view.addChild(drawTrack(track, slots))
  const skids = createSkids(sim, track, cars, definitions, art.square)
  const carViews = createCarViews(sim, cars, definitions, art)
  const lidarView = createLidarView(sim)
  view.addChild(skids.layer, carViews.shadows, drawBarriers(track), carViews.layer, createTrees(track, art.trees), lidarView.layer)
  const debugLayer = new Container({ label: 'debug overlay' })
  debugLayer.alpha = 0.85
  view.addChild(debugLayer)
  const debug = createDebugRenderer(sim, debugLayer, {
    flipY: false,
    paths: false,
    colliderColors: { barrier: 0xe5e7eb, cone: 0xff7a1a },
    carColor: (car, level) => (car === player ? 0xff4fd8 : LEVEL_COLORS[level]),
  })
  const minimap = createMinimap(sim, document.getElementById('minimap') as HTMLCanvasElement, track, cars, entrants.map((e) => e.color), player)

  // Controls and HUD.
  const camera = createCamera(app.canvas, settings.camera, settings.zoom)
  const keyboard = createKeyboard()
  const gamepad = createGamepad()
  const touch = createTouchPad(document.getElementById('touch')!)
  const pad = gamepad.poll()
  const controls = createControls(keyboard.pad, touch.pad, pad)
  const hud = createHud(entrants)
  const panel = createSettingsPanel(document.getElementById('settings')!, settings, (query) => {
    // the same settings restart the race in place; new ones load the page with them
    if (query === location.search) { panel.toggle(false); restart() }
    else location.search = query
  })
  const pauseCard = document.getElementById('pause')!
  const resultsCard = document.getElementById('results')!
  let acc = 0
  let resultsShown = false
  /** A new race with the same settings, without reloading: the world back to the grid, a fresh timer and race. */
  const restart = () => {
    // rivals hosted near the player go back to pitlane first (a snapshot restores pitlane's levels)
    for (const car of cars) if (car !== player && host.sim.hostOf(car) !== null) host.sim.clearHost(car)
    restoreWorld(sim, onGrid)
    timer.remove()
    timer = addLapTimer(sim, { line: track.startLine })
    race = newRace()
    demo.race = race
    skids.clear()
    controls.reset()
    hud.reset()
    resultsShown = false
    following = player
    acc = 0
    setPaused(false)
    camera.update(view, Car.x[player]!, Car.y[player]!, 0, 0, Car.heading[player]!, app.screen.width, app.screen.height, DT, true)
    demo.restarts++
  }
  const setPaused = (on: boolean) => { demo.paused = on; pauseCard.hidden = !on || panel.open }
  const setDebug = (on: boolean) => { demo.debug = on; debugLayer.visible = on; lidarView.layer.visible = !on }
  setDebug(settings.debug)
  const openSettings = () => { panel.toggle(true); pauseCard.hidden = true; demo.paused = true }
  let following = player
  const nextCar = () => { following = cars[(cars.indexOf(following) + 1) % cars.length]! }
  const resetToTrack = () => {
    // back onto the centreline where the player left it, facing along it (setPose keeps the speed)
    const p = projectOnTrack(track, Car.x[player]!, Car.y[player]!)
    const q = trackPoint(track, p.s, 0)
    sim.setPose(player, [q.x, q.y], yawMatrix(q.heading))
  }
  keyboard.onPress('KeyP', () => setPaused(!demo.paused))
  keyboard.onPress('Escape', () => { if (panel.open) { panel.toggle(false); setPaused(false) } else setPaused(!demo.paused) })
  keyboard.onPress('KeyO', () => setDebug(!demo.debug))
  keyboard.onPress('KeyC', nextCar)
  keyboard.onPress('KeyV', () => { following = player })
  keyboard.onPress('KeyR', resetToTrack)
  gamepad.onPress(PAD.start, () => setPaused(!demo.paused))
  gamepad.onPress(PAD.back, () => setDebug(!demo.debug))
  gamepad.onPress(PAD.y, resetToTrack)
  document.getElementById('btn-pause')!.onclick = () => setPaused(!demo.paused)
  document.getElementById('btn-debug')!.onclick = () => setDebug(!demo.debug)
  document.getElementById('btn-settings')!.onclick = openSettings
  pauseCard.querySelector<HTMLElement>('[data-action=resume]')!.onclick = () => setPaused(false)
  pauseCard.querySelector<HTMLElement>('[data-action=restart]')!.onclick = restart
  pauseCard.querySelector<HTMLElement>('[data-action=settings]')!.onclick = openSettings
  resultsCard.querySelector<HTMLElement>('[data-action=restart]')!.onclick = restart
  resultsCard.querySelector<HTMLElement>('[data-action=hide]')!.onclick = () => { resultsCard.hidden = true }
  document.querySelector('#settings [data-action=close]')!.addEventListener('click', () => setPaused(false))

  let speedoTimer = 0, hudTimer = 0, perfTimer = 0, mapTimer = 0
  let secondFrames = 0, secondSim = 0, secondRender = 0, secondStart = performance.now()
  let renderStart = 0
  const maxRpm = definitions[cars.indexOf(player)]!.engine.maxRpm
  camera.update(view, Car.x[player]!, Car.y[player]!, 0, 0, Car.heading[player]!, app.screen.width, app.screen.height, DT, true)
  app.ticker.add((ticker) => {
    const frameDt = Math.min(ticker.deltaMS / 1000, 0.25)
    const t0 = performance.now()
    gamepad.poll()
    if (!demo.paused) {
      acc += frameDt * settings.speed
      let n = 0
      const limit = Math.ceil(MAX_STEPS_PER_FRAME * settings.speed)
      while (acc >= DT && n < limit) {
        const hold = race.phase === 'grid' || race.phase === 'lights'
        controls.apply(sim, player, Car.speed[player]!, DT, hold)
        sim.step(DT)
        race.update()
        demo.steps++
        acc -= DT
        n++
      }
      if (n === limit) acc = 0 // too slow to keep up: drop the backlog rather than spiral
    }
    const t1 = performance.now()
    renderStart = t1
    secondSim += t1 - t0

    // The view: camera on the followed car, then only what is near the camera is moved.
    const vx = Math.cos(Car.heading[following]!) * Car.vx[following]! - Math.sin(Car.heading[following]!) * Car.vy[following]!
    const vy = Math.sin(Car.heading[following]!) * Car.vx[following]! + Math.cos(Car.heading[following]!) * Car.vy[following]!
    camera.update(view, Car.x[following]!, Car.y[following]!, vx, vy, Car.heading[following]!, app.screen.width, app.screen.height, frameDt)
    lod.setFocus([camera.x, camera.y]) // the next step's LOD bands are measured from the camera
    const radius = camera.viewRadius(app.screen.width, app.screen.height)
    carViews.update(camera.x, camera.y, radius)
    if (!demo.paused) skids.update(camera.x, camera.y, radius + 10)
    // points reach 10 m past the screen (the view moves on between scans); the screen's centre is
    // at most 58% of its height from an edge (the turning camera puts the car low)
    lidarView.scale(camera.zoom * app.renderer.resolution)
    demo.lidarPoints = lidar >= 0 && !demo.debug
      ? lidarView.update(lidar, camera.x, camera.y, app.screen.width / 2 / camera.zoom + 10, app.screen.height * 0.58 / camera.zoom + 10, camera.rotation)
      : demo.debug ? debug.lidarPoints : 0
    // the minimap's dots move under a pixel a frame: twenty redraws a second look the same
    mapTimer -= frameDt
    if (mapTimer <= 0) { mapTimer = 0.05; minimap.update() }
    if (demo.debug) {
      debug.setPaths(following === player ? [] : [following])
      debug.update()
    }
    demo.following = following
    demo.carsDrawn = carViews.visible
    demo.skidMarks = skids.laid
    demo.device = controls.device
    Object.assign(demo.camera, { x: camera.x, y: camera.y, zoom: camera.zoom, rotation: camera.rotation })

    // HTML is relaid out and repainted when its text changes: the speedometer ten times a second,
    // the standings four times, the performance line twice
    speedoTimer -= frameDt
    hudTimer -= frameDt
    perfTimer -= frameDt
    if (speedoTimer <= 0) {
      speedoTimer = 0.1
      const st = sim.carState(player)
      hud.speedo(st.speed, st.gear, st.engineRpm, maxRpm)
    }
    if (hudTimer <= 0) {
      hudTimer = 0.25
      hud.race(race, race.standings(), player)
    }
    if (race.phase === 'finished' && !resultsShown) {
      resultsShown = true
      hud.results(race.standings(), player)
    }
    if (perfTimer <= 0) {
      perfTimer = 0.5
      const levels: [number, number, number, number] = [0, 0, 0, 0]
      for (const car of cars) {
        const level = sim.getLod(car).level
        levels[level === 'full' ? 0 : level === 'singleTrack' ? 1 : level === 'frozen' ? 3 : 2]++
      }
      hud.perf({
        fps: demo.fps, simMs: demo.simMs, renderMs: demo.renderMs, levels,
        lidarPoints: lidar >= 0 ? demo.lidarPoints : null,
        resolution: demo.resolution, autoResolution: scaler !== null,
        device: controls.device, camera: following === player ? 'you' : `car #${entrants[cars.indexOf(following)]!.number}`,
      })
    }
  })
  // after pixi's render (UPDATE_PRIORITY.LOW): the frame's render share ends here
  app.ticker.add(() => {
    const now = performance.now()
    secondRender += now - renderStart
    demo.frames++
    secondFrames++
    if (now - secondStart >= 1000) {
      demo.fps = (secondFrames * 1000) / (now - secondStart)
      // the scale follows the frame rate (not while paused behind a menu: the sim is not running)
      const next = scaler && !demo.paused ? scaler.update(demo.fps, (now - secondStart) / 1000) : null
      if (next !== null) { app.renderer.resolution = next; demo.resolution = next }
      demo.simMs = secondSim / secondFrames
      demo.renderMs = secondRender / secondFrames
      secondFrames = 0; secondSim = 0; secondRender = 0; secondStart = now
    }
  }, undefined, UPDATE_PRIORITY.UTILITY)

  demo.sim = sim
  demo.race = race
  demo.player = player
  demo.field = cars.filter((c) => c !== player)
  demo.lidar = lidar
  demo.following = player
  demo.startupMs = performance.now() - started
  demo.ready = true
}

/** True when WebGL is rasterised in software (SwiftShader, llvmpipe): no GPU to spare for multisampling. */
function softwareGl(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2')
  if (!gl) return true
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  const name = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER))
  gl.getExtension('WEBGL_lose_context')?.loseContext()
  return /swiftshader|llvmpipe|software/i.test(name)
}

main().catch((e: unknown) => {
  demo.error = e instanceof Error ? `${e.message}\n${e.stack}` : String(e)
  console.error('pitlane demo failed to start:', e)
  const perf = document.getElementById('perf')
  if (perf) perf.textContent = `demo failed to start:\n${demo.error}`
})
