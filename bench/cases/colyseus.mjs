// Multiplayer benchmark (no target): roomTick20x8, the PitlaneRoom's tick (inputs applied, the
// 60 Hz sim step, the race update, and every third tick a delta snapshot per client) with 8 rooms
// of 20 cars on one process, each room with one connected client (a Colyseus SDK client in this
// process) driving its car. The rooms race an oval built from the public API (the bench cannot
// import the example's TypeScript circuit). Setup lets the rooms run in real time for 4 s and
// reports their own tick times (p50, p99, from room.stats()); the timed unit is one tick of one
// room, called directly, round-robin over the 8 rooms.
// Verified before timing: every room ticked (at 30–70 Hz: a busy machine falls behind 60 and the
// rooms drop the backlog; the extra line reports the rate), every client received snapshots, and
// every car moved.
import { stadiumPath } from '../../dist/index.js'
import { PitlaneRoom, joinRace } from '../../dist/colyseus/index.js'

const ROOMS = 8
const CARS = 20
const path = Array.from(stadiumPath(400, 80, 2))

/** An oval and a grid of CARS cars in two columns, every car but the players' driven by the AI. */
const ovalScene = {
  simOptions: () => ({}),
  buildTrack() {},
  buildGrid(sim, config) {
    const cars = []
    for (let i = 0; i < config.cars; i++) {
      const car = sim.addCar({ position: [-6 - 8 * Math.floor(i / 2), -80 + (i % 2 ? 2.5 : -2.5)], heading: 0 })
      sim.setInput(car, { gear: 1, brake: 1 })
      cars.push(car)
    }
    const drive = (car) => sim.setAi(car, path, { closed: true, maxSpeed: 25 + (car % 7), lateralOffset: (car % 2 ? 2.5 : -2.5) })
    return {
      cars,
      entrants: cars.map((car, i) => ({ car, number: i + 1, name: `C${i + 1}`, color: 0x888888, stripe: 0xffffff })),
      drive,
      startRace(onStart) {
        onStart()
        const t0 = sim.time
        return {
          phase: 'racing', lights: 0,
          raceTime: () => sim.time - t0,
          update() {},
          standings: () => cars.map((car, i) => ({ car, position: i + 1, laps: 0, bestLap: null, lastLap: null, gap: null, lapsDown: 0, finished: false, finishTime: null, distance: sim.aiStatus(car)?.distance ?? 0 })),
        }
      },
    }
  },
}

class OvalRoom extends PitlaneRoom {
  scene = ovalScene
}

export const cases = [
  {
    id: 'roomTick20x8',
    unit: 'ms/tick',
    what: `PitlaneRoom tick, ${ROOMS} rooms × ${CARS} cars on one process, one client each (snapshot every 3rd tick)`,
    async setup() {
      const { Server, matchMaker } = await import('@colyseus/core')
      const { WebSocketTransport } = await import('@colyseus/ws-transport')
      const { Client } = await import('@colyseus/sdk')
      const transport = new WebSocketTransport()
      const server = new Server({ transport, greet: false, gracefullyShutdown: false })
      server.define('oval', OvalRoom)
      await server.listen(0, '127.0.0.1')
      const port = transport.server.address().port
      const clients = []
      for (let i = 0; i < ROOMS; i++) {
        const rc = await joinRace(new Client(`ws://127.0.0.1:${port}`), 'oval', { scene: ovalScene, maxClients: 1, cars: CARS, wait: 0 })
        rc.setInput({ throttle: 0.5 })
        clients.push(rc)
      }
      const rooms = clients.map((rc) => matchMaker.getLocalRoomById(rc.room.roomId))
      for (const r of rooms) r.log = () => {}
      const start = rooms.map((r) => r.world.cars.map((car) => [r.sim.components.Car.x[car], r.sim.components.Car.y[car]]))
      const ticks0 = rooms.map((r) => r.stats().ticks)
      const t0 = performance.now()
      await new Promise((resolve) => setTimeout(resolve, 4000))
      const seconds = (performance.now() - t0) / 1000
      const rates = rooms.map((r, i) => (r.stats().ticks - ticks0[i]) / seconds)
      const all = rooms.flatMap((r) => r.stats().tickMs).sort((a, b) => a - b)
      const q = (f) => all[Math.min(all.length - 1, Math.floor(f * all.length))]
      return {
        server, clients, rooms, start, rate: rates, k: 0,
        extra: `in real time (ticking at ${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)} Hz, ${rooms.reduce((a, r) => a + r.stats().dropped, 0).toFixed(2)} s of backlog dropped): p50 ${q(0.5).toFixed(3)} ms, p99 ${q(0.99).toFixed(3)} ms per room tick over ${all.length} ticks`,
        metrics: { p50: q(0.5), p99: q(0.99) },
      }
    },
    verify(ctx) {
      for (const r of ctx.rate) if (!(r > 30 && r < 70)) throw new Error(`a room ticked at ${r.toFixed(1)} Hz (60 wanted; under 30: the process is far behind)`)
      for (const rc of ctx.clients) if (!(rc.snapshots > 60)) throw new Error(`a client received ${rc.snapshots} snapshots in 4 s`)
      ctx.rooms.forEach((r, i) => r.world.cars.forEach((car, j) => {
        const C = r.sim.components.Car
        if (!(Math.hypot(C.x[car] - ctx.start[i][j][0], C.y[car] - ctx.start[i][j][1]) > 5)) throw new Error(`car ${car} of room ${i} did not move`)
      }))
    },
    run(ctx) {
      for (let n = 0; n < ROOMS; n++) ctx.rooms[ctx.k++ % ROOMS].tick()
      return ROOMS
    },
    async teardown(ctx) {
      for (const rc of ctx.clients) await rc.leave()
      await ctx.server.gracefullyShutdown(false)
    },
  },
]

