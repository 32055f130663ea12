// The scripted 2-minute race of the hitch test (plain JS against dist/, like bench/): driven cars
// of every preset racing round a circuit, their levels set each frame by a LodController from the
// distance to the leader (so cars keep switching between full, singleTrack and frozen), a planar
// lidar on the leader, walls, and stunt cars whose scripted inputs take the rare branches late in
// the race, long after the common path is optimised: launches under traction control, ABS stops,
// handbrake slides, reversing. Every driven car ends many laps.
import { createWorld, hasComponent } from 'bitecs'
import { createSim, stadiumPath, presets, LodController, lidarPresets, box } from '../../dist/index.js'
import { slotOnPath } from '../../bench/scenes.mjs'

/** Host step, s. */
export const DT = 1 / 60
/** Frames before this time are the warm-up: not measured. */
export const WARM_UP_S = 15
/** Race length, s. */
export const RACE_S = 120

const DEFS = [presets.hatchback, presets.sportsCar, presets.van]

/** The stunt programme: the input set (index into STUNT_INPUTS) of each half second of a 20 s cycle. */
const PROGRAMME = [
  1, 1, 1, 1, 1, 1, // launch: full throttle from rest (wheelspin, traction control)
  2, 2, 2, 2, 2, 2, // cruise
  3, 3, 3, 3, // ABS stop: full brake at speed
  1, 1,
  4, 4, 4, 4, // handbrake slide: handbrake, full lock
  3, 3, 3, 3, 3, 3, // stop
  5, 5, 5, 5, 5, 5, // reverse
  3, 3, 3, 3, 3, 3,
]
/** When the stunts start, s: after the warm-up, once the common path is optimised. */
const STUNTS_FROM = WARM_UP_S + 5

/**
 * Stunt input set at time t (s), the cycle shifted by `phase` s. Every operation runs from the
 * first frame, so this harness code itself never meets an untaken branch late.
 */
function stunt(t, phase) {
  const k = PROGRAMME[Math.floor((((t - STUNTS_FROM + phase + 40) % 20) * 2))]
  return t >= STUNTS_FROM ? k : 0
}

const STUNT_INPUTS = [
  { throttle: 0, brake: 0, steer: 0, handbrake: 0, gear: 1 },
  { throttle: 1, brake: 0, steer: 0, handbrake: 0, gear: 1 },
  { throttle: 0.5, brake: 0, steer: 0.1, handbrake: 0, gear: 1 },
  { throttle: 0, brake: 1, steer: 0.2, handbrake: 0, gear: 1 },
  { throttle: 0.3, brake: 0, steer: 1, handbrake: 1, gear: 1 },
  { throttle: 0.6, brake: 0, steer: -0.4, handbrake: 0, gear: -1 },
]

/** Builds the race: { sim, driven, stunts, lod, frame(i), check() }. */
export function createRace({ drivenCount = 18, lidar = false, lodUpdate = true } = {}) {
  const sim = createSim(createWorld())
  const path = stadiumPath(120, 45, 2)
  const driven = []
  for (let i = 0; i < drivenCount; i++) {
    const offset = 2.5 * ((i % 3) - 1)
    const car = sim.addCar({ definition: DEFS[i % 3], ...slotOnPath(path, i, drivenCount, offset), speed: 5 })
    sim.setInput(car, { gear: 1 })
    sim.setAi(car, path, { closed: true, lateralOffset: offset, maxSpeed: 20 + (i % 5) * 2.5, brakeDecel: 5 + (i % 4) })
    driven.push(car)
  }
  // stunt cars on the infield (the circuit's bends are centred at x = ±60, y = 0)
  const stunts = []
  for (let i = 0; i < 4; i++) stunts.push(sim.addCar({ definition: DEFS[i % 3], position: [-40 + 22 * i, -10 + 6 * i], heading: 0.1 * i }))
  for (let i = 0; i < 12; i++) sim.addCollider(box(4, 0.3, 1), { position: [-60 + 12 * i, 60, 1] })
  if (lidar) sim.addLidar({ ...lidarPresets.planar2d, mount: driven[0], offset: [0, 0, 1] })
  const lod = new LodController(sim, { singleTrackBeyond: 50, frozenBeyond: 170, hysteresis: 8 })
  const Car = sim.components.Car
  const leader = driven[0]
  // stunt cars 0, 1 stay full; 2, 3 single-track
  const stuntLevel = new Int8Array(1024)
  stuntLevel[stunts[2]] = 1
  stuntLevel[stunts[3]] = 1
  for (const c of stunts) stuntLevel[c] += 1
  const distanceOf = (car) => {
    const s = stuntLevel[car]
    if (s === 1) return 0
    if (s === 2) return 100
    const dx = Car.x[car] - Car.x[leader], dy = Car.y[car] - Car.y[leader]
    return Math.sqrt(dx * dx + dy * dy)
  }
  const seen = { lastSwitched: 0, switches: 0, frozenFrames: 0, stuntMinSpeed: 0, stuntMaxSpeed: 0, maxYawRate: 0 }
  const LodFrozen = sim.components.LodFrozen

  /** Frame i: stunt inputs, LOD update, one host step. */
  function frame(i) {
    const t = i * DT
    for (let k = 0; k < stunts.length; k++) {
      const s = STUNT_INPUTS[stunt(t, 5 * k)]
      const car = stunts[k]
      Car.throttle[car] = s.throttle
      Car.brake[car] = s.brake
      Car.steer[car] = s.steer
      Car.handbrake[car] = s.handbrake
      Car.gear[car] = s.gear
    }
    const switched = lodUpdate ? lod.update(distanceOf) : 0
    seen.switches += switched
    seen.lastSwitched = switched
    sim.step(DT)
    for (let k = 0; k < stunts.length; k++) {
      const car = stunts[k]
      if (Car.speed[car] < seen.stuntMinSpeed) seen.stuntMinSpeed = Car.speed[car]
      if (Car.speed[car] > seen.stuntMaxSpeed) seen.stuntMaxSpeed = Car.speed[car]
      if (Math.abs(Car.yawRate[car]) > seen.maxYawRate) seen.maxYawRate = Math.abs(Car.yawRate[car])
    }
    if ((i & 63) === 0) for (let k = 0; k < driven.length; k++) if (hasComponent(sim.world, driven[k], LodFrozen)) seen.frozenFrames++
  }

  /** Throws unless the race went as scripted; returns what it went through. */
  function check() {
    const laps = driven.map((c) => sim.aiStatus(c).laps)
    if (Math.min(...laps) < 2) throw new Error(`a driven car ended only ${Math.min(...laps)} laps`)
    for (const c of [...driven, ...stunts]) {
      const s = sim.carState(c)
      if (![...s.position, s.speed, s.yawRate].every(Number.isFinite)) throw new Error(`car ${c} is not finite`)
    }
    if (!(seen.stuntMinSpeed < -1)) throw new Error(`no stunt car reversed (min speed ${seen.stuntMinSpeed})`)
    if (!(seen.stuntMaxSpeed > 10)) throw new Error(`no stunt car got up to speed (max ${seen.stuntMaxSpeed})`)
    if (!(seen.maxYawRate > 1)) throw new Error(`no stunt car slid (max yaw rate ${seen.maxYawRate})`)
    if (!(seen.switches > 50) || !(seen.frozenFrames > 0)) throw new Error(`too few LOD switches (${seen.switches}, frozen samples ${seen.frozenFrames})`)
    return { laps: laps.reduce((a, b) => a + b, 0), ...seen }
  }

  return { sim, driven, stunts, lod, seen, frame, check }
}
