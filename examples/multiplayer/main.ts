/**
 * The multiplayer race in the browser: a lobby that joins (or creates) a 'race' room of the chosen
 * size on the race server (`npm run server`), then the race drawn with the racing demo's renderer
 * (track, trees, car sprites, minimap, follow camera, HUD and standings), your car predicted by
 * joinRace, the others drawn where the interpolation puts them. Keyboard, touch or gamepad drive.
 * The server is `?server=ws://host:port` (default: this page's host, port 2567).
 * Exposes `window.pitlaneMultiplayer` for the browser test and for tinkering.
 */
import { Application, Container } from 'pixi.js'
import { Client } from '@colyseus/sdk'
import { joinRace, type RaceClient, type RaceReport } from '../../src/colyseus/client-index'
import type { Sim } from '../../src/index'
import { circuitScene, circuitTrack } from './scene'
import { drawBarriers, drawTrack, createTrees, GRASS } from '../racing/track-view'
import { gridSlot, type Entrant } from '../racing/grid'
import type { Race, Standing } from '../racing/race'
import { createCarArt } from '../racing/car-art'
import { createCarViews } from '../racing/car-views'
import { createMinimap } from '../racing/minimap'
import { createCamera } from '../racing/camera'
import { createKeyboard } from '../racing/keyboard'
import { createGamepad } from '../racing/gamepad'
import { createTouchPad } from '../racing/touch'
import { createControls } from '../racing/controls'
import { createHud } from '../racing/hud'

/** What the page exposes on window. */
export interface MultiplayerHandle {
  ready: boolean
  error: string | null
  /** The joined race (null in the lobby). */
  race: RaceClient | null
  roomId: string
  /** Your car (a local entity), -1 in the lobby. */
  car: number
  /** The players' cars (local entities) with their names, from the latest race report. */
  players: Record<number, string>
  /** Where a car is drawn now (your own predicted, the others interpolated), or null. */
  drawn(car: number): { x: number; y: number } | null
  frames: number
}

declare global {
  interface Window { pitlaneMultiplayer: MultiplayerHandle }
}

const pose = new Float64Array(6) // x, y, z, heading, roll, pitch
const handle: MultiplayerHandle = {
  ready: false, error: null, race: null, roomId: '', car: -1, players: {}, frames: 0,
  drawn(car) { return handle.race && handle.race.poseOf(car, pose) ? { x: pose[0]!, y: pose[1]! } : null },
}
window.pitlaneMultiplayer = handle

const params = new URLSearchParams(location.search)
const form = document.querySelector('#lobby form') as HTMLFormElement
const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement
field('server').value = params.get('server') ?? `ws://${location.hostname || '127.0.0.1'}:2567`
if (params.get('name')) field('name').value = params.get('name')!
if (params.get('size')) field('size').value = params.get('size')!

form.addEventListener('submit', (e) => {
  e.preventDefault()
  const button = document.getElementById('join') as HTMLButtonElement
  button.disabled = true
  const size = Number(field('size').value)
  const options: Record<string, unknown> = { scene: circuitScene, maxClients: size, name: field('name').value.trim() || 'Driver' }
  if (params.get('wait')) options.wait = Number(params.get('wait'))
  joinRace(new Client(field('server').value), 'race', options as Parameters<typeof joinRace>[2])
    .then(play)
    .catch((err: unknown) => {
      button.disabled = false
      handle.error = err instanceof Error ? err.message : String(err)
      document.getElementById('lobby-error')!.textContent = `could not join: ${handle.error}`
    })
})
if (params.get('autojoin') === '1') form.requestSubmit()

/** The race report as the HUD's Race (phases before the grid show as the grid). */
function hudRace(report: RaceReport): Race {
  const standings = report.standings as Standing[]
  return {
    phase: report.phase === 'waiting' ? 'grid' : report.phase, lights: report.lights, laps: report.laps,
    startTime: NaN, raceTime: () => report.raceTime, update() {},
    standings: () => standings, standingOf: (car) => standings.find((s) => s.car === car),
  }
}

async function play(rc: RaceClient): Promise<void> {
  document.getElementById('lobby')!.hidden = true
  for (const id of ['minimap', 'tower', 'laps', 'speedo']) document.getElementById(id)!.hidden = false
  handle.race = rc
  handle.car = rc.car
  handle.roomId = (rc.room as { roomId: string }).roomId
  const app = new Application()
  await app.init({ resizeTo: window, background: GRASS, preference: 'webgl', preserveDrawingBuffer: true })
  document.getElementById('stage')!.appendChild(app.canvas)

  const sim = rc.sim
  const cars = rc.entrants.map((e) => e.car)
  const definitions = cars.map((car) => sim.carDefinition(car))
  // the HUD's entrants: names follow the players' own as the reports bring them
  const entrants: Entrant[] = rc.entrants.map((e) => ({ ...e, player: e.car === rc.car, maxSpeed: 0, lateralAccel: 0, lateralOffset: 0 }))
  const art = createCarArt(app.renderer, entrants.map((e, i) => ({ definition: definitions[i]!, color: e.color, stripe: e.stripe, number: e.number })))
  const view = new Container({ label: 'world', isRenderGroup: true })
  app.stage.addChild(view)
  view.addChild(drawTrack(circuitTrack, cars.map((_, i) => gridSlot(i))))
  const carViews = createCarViews(sim, cars, definitions, art)
  view.addChild(carViews.shadows, drawBarriers(circuitTrack), carViews.layer, createTrees(circuitTrack, art.trees))
  const minimap = createMinimap(sim, document.getElementById('minimap') as HTMLCanvasElement, circuitTrack, cars, entrants.map((e) => e.color), rc.car)
  const camera = createCamera(app.canvas, 'follow', 6)
  const keyboard = createKeyboard()
  const gamepad = createGamepad()
  const touch = createTouchPad(document.createElement('div'))
  const controls = createControls(keyboard.pad, touch.pad, gamepad.poll())
  const hud = createHud(entrants)
  // the controls write a sim input; here it goes to the race client, which sends and predicts it
  const inputs = { setInput: (_car: number, input: Parameters<Sim['setInput']>[1]) => rc.setInput(input) } as unknown as Sim
  const { Car } = sim.components
  const saved = new Float64Array(cars.length * 3)
  let hudTimer = 0, resultsShown = false, last: RaceReport | null = null
  const maxRpm = definitions[cars.indexOf(rc.car)]!.engine.maxRpm

  app.ticker.add((ticker) => {
    const dt = Math.min(ticker.deltaMS / 1000, 0.25)
    gamepad.poll()
    const report = rc.race
    const hold = !report || report.phase === 'waiting' || report.phase === 'grid' || report.phase === 'lights'
    controls.apply(inputs, rc.car, Car.speed[rc.car]!, dt, hold)
    // the others where the interpolation draws them (put back after drawing: the sim keeps the snapshot's state)
    const now = performance.now() / 1000
    cars.forEach((car, i) => {
      saved[3 * i] = Car.x[car]!; saved[3 * i + 1] = Car.y[car]!; saved[3 * i + 2] = Car.heading[car]!
      if (car !== rc.car && rc.poseOf(car, pose, now)) { Car.x[car] = pose[0]!; Car.y[car] = pose[1]!; Car.heading[car] = pose[3]! }
    })
    const h = Car.heading[rc.car]!
    camera.update(view, Car.x[rc.car]!, Car.y[rc.car]!, Math.cos(h) * Car.vx[rc.car]!, Math.sin(h) * Car.vx[rc.car]!, h, app.screen.width, app.screen.height, dt)
    carViews.update(camera.x, camera.y, camera.viewRadius(app.screen.width, app.screen.height))
    minimap.update()
    cars.forEach((car, i) => { Car.x[car] = saved[3 * i]!; Car.y[car] = saved[3 * i + 1]!; Car.heading[car] = saved[3 * i + 2]! })

    hudTimer -= dt
    if (report && report !== last && hudTimer <= 0) {
      hudTimer = 0.25
      last = report
      handle.players = report.players
      for (const e of entrants) e.name = report.players[e.car] ?? rc.entrants[cars.indexOf(e.car)]!.name
      hud.race(hudRace(report), report.standings as Standing[], rc.car)
      if (report.phase === 'finished' && !resultsShown) { resultsShown = true; hud.results(report.standings as Standing[], rc.car) }
    }
    const st = sim.carState(rc.car)
    hud.speedo(st.speed, st.gear, st.engineRpm, maxRpm)
    hud.perf({ fps: app.ticker.FPS, simMs: 0, renderMs: 0, levels: [1, 0, 0, cars.length - 1], lidarPoints: null, resolution: 1, autoResolution: false, device: controls.device, camera: `room ${handle.roomId}` })
    handle.frames++
  })
  handle.ready = true
}
