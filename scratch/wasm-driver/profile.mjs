// perf helper: runs only one of the timed loops of bench.mjs, many times, so `perf stat` can count
// its instructions and cycles. Usage: node scratch/wasm-driver/profile.mjs js|wasm|none [calls]
import { commitRemovals, createWorld } from 'bitecs'
import { createSim } from '../../dist/index.js'
import { driveCars } from './out/drive-cars.js'
import { WasmDriver } from './wasm-driver.mjs'

const which = process.argv[2], calls = Number(process.argv[3] ?? 50000)
function lanePath(y) { const pts = []; for (let x = -50; x <= 6000; x += 2) pts.push(x, y + 1.5 * Math.sin((2 * Math.PI * x) / 120)); return pts }
const sim = createSim(createWorld())
const lanes = new Map()
for (let i = 0; i < 200; i++) {
  const x = (i % 10) * 30, y = Math.floor(i / 10) * 30
  const car = sim.addCar({ position: [x, y], speed: 10, lod: 'singleTrack' })
  sim.setLod(car, 'singleTrack', 240)
  sim.setInput(car, { gear: 1 })
  if (!lanes.has(y)) lanes.set(y, lanePath(y))
  sim.setAi(car, lanes.get(y), { maxSpeed: 11.2 })
}
sim.stepMany(1 / 60, 600)
commitRemovals(sim.world)
const d = sim.internal.drivers, cars = d.driven.dense, C = sim.components.Car
const V = { x: C.x, y: C.y, heading: C.heading, speed: C.speed, vx: C.vx, vy: C.vy, yawRate: C.yawRate, wheelbase: C.wheelbase, maxSteer: C.maxSteer, steer: C.steer, throttle: C.throttle, brake: C.brake, state: sim.components.Driver.state }
const wd = new WasmDriver(C.x.length, d.paths)
wd.load(C, sim.components.Driver.state, cars)
const u0 = process.cpuUsage()
if (which === 'js') for (let k = 0; k < calls; k++) driveCars(V, d.paths, cars, 1 / 60)
else if (which === 'wasm') for (let k = 0; k < calls; k++) wd.run(1 / 60)
const u = process.cpuUsage(u0)
console.log(which, ((u.user + u.system) * 1000 / calls / cars.length).toFixed(1), 'ns/car')
