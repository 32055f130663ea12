/**
 * The top-down racing demo: the built-in circuit with barriers and cones as colliders, 100
 * path-driven cars and one player car with a 16-channel lidar, a camera that follows the player and
 * is the LOD focus, and a HUD. The sim runs at a fixed 60 Hz from pixi's ticker (accumulator).
 * Exposes `window.pitlaneDemo = { ready, sim, steps, … }` for the browser test.
 */
import { Application, Container } from 'pixi.js'
import { createWorld, query } from 'bitecs'
import { createSim, LodController, lidarPresets, type Sim } from '../../src/index'
import { createDebugRenderer, LEVEL_COLORS } from '../../src/pixi/index'
import { createTrack, projectOnTrack, trackPoint } from '../track'
import { addCircuit, addField, trackSurfaces, yawMatrix } from '../race/field'
import { addLapTimer } from '../modding/lap-timer'
import { addSlipstream } from '../modding/slipstream'
import { drawTrack, GRASS } from './track-view'
import { createKeyboard } from './keyboard'
import { createCamera } from './camera'
import { createHud } from './hud'
import { addHosting } from './hosting'

/** The state the demo exposes on window for tests and tinkering. */
export interface DemoHandle {
  ready: boolean
  sim: Sim | null
  /** Host steps taken. */
  steps: number
  /** The player's car. */
  player: number
  /** The path-driven cars. */
  field: number[]
  /** The player's lidar. */
  lidar: number
  /** Sim cost per host step, ms: the median of the last 120 steps. */
  simMs: number
  /** Lidar points drawn in the last frame. */
  lidarPoints: number
  /** The car the camera follows. */
  following: number
  /** The camera's centre and zoom (px/m). */
  camera: { x: number; y: number; zoom: number }
  /** Time from the script's start to ready, ms (track, colliders, 101 cars, drivers, Rapier). */
  startupMs: number
  /** Errors caught while starting (also logged). */
  error: string | null
}

declare global {
  interface Window { pitlaneDemo: DemoHandle }
}

const DT = 1 / 60
/** Catch-up limit: below 7.5 fps the sim runs slower than real time instead of spiralling. */
const MAX_STEPS_PER_FRAME = 8
const FIELD = 100
/** The player's car stands out in pink; the others are tinted by their level of detail. */
const PLAYER_COLOR = 0xff4fd8

const demo: DemoHandle = { ready: false, sim: null, steps: 0, player: -1, field: [], lidar: -1, simMs: 0, lidarPoints: 0, following: -1, camera: { x: 0, y: 0, zoom: 4 }, startupMs: 0, error: null }
window.pitlaneDemo = demo

async function main(): Promise<void> {
  const started = performance.now()
  const app = new Application()
  // preserveDrawingBuffer: the browser test reads the canvas back between frames. Multisampling
  // triples the frame time of a software rasteriser (headless chromium), so it is off there.
  await app.init({ resizeTo: window, background: GRASS, antialias: !softwareGl(), preference: 'webgl', preserveDrawingBuffer: true })
  const stage = document.getElementById('stage')!
  stage.appendChild(app.canvas)

  const track = createTrack()
  const world = createWorld()
  const sim = createSim(world, { surfaces: trackSurfaces(track) })
  const circuit = addCircuit(sim, track)
  const field = addField(sim, track, { cars: FIELD, seed: 7, layout: 'spread' })
  const start = trackPoint(track, -20, 0)
  const player = sim.addCar({ position: [start.x, start.y], heading: start.heading })
  sim.setInput(player, { gear: 1 })
  const lidar = sim.addLidar({ ...lidarPresets.spinning16, mount: player, offset: [0, 0, 1.6] })
  const laps = addLapTimer(sim, { line: track.startLine })
  addSlipstream(sim)
  const lod = new LodController(sim, { singleTrackBeyond: 60, frozenBeyond: 300, hysteresis: 10 })
  lod.markExternal(player)
  lod.install({ focus: [start.x, start.y] })
  // the player and cars near it on a Rapier host, so walls and rivals push back (examples/racing/hosting.ts)
  await addHosting(sim, player, circuit.barriers)

  // Scene: the world container is in metres with y up; the debug renderer draws on top of the ground.
  const view = new Container()
  app.stage.addChild(view)
  view.addChild(drawTrack(track))
  const renderer = createDebugRenderer(sim, view, {
    flipY: false,
    paths: false,
    colliderColors: { barrier: 0xe5e7eb, cone: 0xff7a1a },
    carColor: (car, level) => (car === player ? PLAYER_COLOR : LEVEL_COLORS[level]),
  })

  const camera = createCamera(app.canvas, 4)
  const keyboard = createKeyboard()
  const hud = createHud(document.getElementById('hud')!, document.getElementById('trace') as HTMLCanvasElement)
  const { Car, LodFull, LodSingleTrack, LodFrozen } = sim.components
  let following = player
  keyboard.onPress('KeyC', () => {
    const cars = query(world, [Car])
    const i = cars.indexOf(following)
    following = cars[(i + 1) % cars.length]
  })
  keyboard.onPress('KeyV', () => { following = player })
  keyboard.onPress('KeyR', () => {
    // Back onto the centreline where the player left it, facing along it (setPose keeps the speed).
    const p = projectOnTrack(track, Car.x[player], Car.y[player])
    const q = trackPoint(track, p.s, 0)
    sim.setPose(player, [q.x, q.y], yawMatrix(q.heading))
  })

  let acc = 0
  let hudTimer = 0
  const costs = new Float64Array(120)
  const sorted = new Float64Array(costs.length)
  camera.update(view, Car.x[player], Car.y[player], app.screen.width, app.screen.height, DT, true)
  app.ticker.add((ticker) => {
    const frameDt = Math.min(ticker.deltaMS / 1000, 0.25)
    acc += frameDt
    let n = 0
    while (acc >= DT && n < MAX_STEPS_PER_FRAME) {
      keyboard.apply(sim, player, Car.speed[player], DT)
      const t0 = performance.now()
      sim.step(DT)
      costs[demo.steps % costs.length] = performance.now() - t0
      demo.steps++
      acc -= DT
      n++
      // Before the first crossing the trace runs on the sim clock; each crossing starts a new trace.
      const lapT = laps.currentLap(player)
      hud.sample(laps.laps(player), Number.isFinite(lapT) ? lapT : sim.time, Car.speed[player])
    }
    if (n === MAX_STEPS_PER_FRAME) acc = 0 // too slow to keep up: drop the backlog rather than spiral
    if (n > 0) {
      // The median resists the odd slow step (a GC, a tab switch) that a mean would smear over seconds.
      const k = Math.min(demo.steps, costs.length)
      sorted.set(costs.subarray(0, k))
      sorted.subarray(0, k).sort()
      demo.simMs = sorted[k >> 1]
    }
    if (!query(world, [Car]).includes(following)) following = player
    camera.update(view, Car.x[following], Car.y[following], app.screen.width, app.screen.height, frameDt)
    lod.setFocus([camera.x, camera.y]) // the next step's LOD bands are measured from the camera
    renderer.setPaths([following]) // the followed AI car's (offset) line; the player has none
    renderer.update()
    demo.lidarPoints = renderer.lidarPoints
    demo.following = following
    demo.camera.x = camera.x
    demo.camera.y = camera.y
    demo.camera.zoom = camera.zoom
    hudTimer -= frameDt
    if (hudTimer <= 0) {
      hudTimer = 0.2
      const st = sim.carState(player)
      hud.render({
        fps: ticker.FPS,
        simMs: demo.simMs,
        steps: demo.steps,
        levels: [query(world, [LodFull]).length, query(world, [LodSingleTrack]).length, query(world, [LodFrozen]).length],
        speed: st.speed,
        gear: st.gear,
        rpm: st.engineRpm,
        lap: laps.laps(player),
        currentLap: laps.currentLap(player),
        lastLap: laps.lastLap(player),
        bestLap: laps.bestLap(player),
        lapTimes: laps.lapTimes(player),
        lidarPoints: renderer.lidarPoints,
        following: following === player ? 'you' : `car ${following}`,
      })
    }
  })
  demo.sim = sim
  demo.player = player
  demo.field = field.map((f) => f.car)
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
  const hud = document.getElementById('hud')
  if (hud) hud.textContent = `demo failed to start:\n${demo.error}`
})
