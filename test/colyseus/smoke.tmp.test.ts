import { it, expect } from 'vitest'
import { start, join, roomOf, sleep } from './harness'
it('smoke', async () => {
  const server = await start()
  try {
    const a = await join(server.port, { maxClients: 2, wait: 0.5, cars: 20 })
    const b = await join(server.port, { maxClients: 2 })
    const room = roomOf((a.rc.room as { roomId: string }).roomId)
    console.log('cars', a.rc.car, b.rc.car, a.rc.entrants.length)
    a.rc.setInput({ throttle: 1 }); b.rc.setInput({ throttle: 0.8, steer: 0.1 })
    for (let i = 0; i < 16; i++) {
      await sleep(1000)
      const C = a.rc.sim.components.Car
      console.log(i, room.phase, room.stats().ticks, a.rc.snapshots, a.rc.inputsSent, a.bytes(), 'A', C.x[a.rc.car].toFixed(2), C.y[a.rc.car].toFixed(2), 'B seen by A', C.x[b.rc.car]?.toFixed(2), 'B own', b.rc.sim.components.Car.x[b.rc.car].toFixed(2), 'srv', room.sim.components.Car.x[room.carOf((b.rc.room as {sessionId:string}).sessionId)!].toFixed(2), JSON.stringify(room.stats().refused))
    }
    await a.rc.leave(); await b.rc.leave()
  } finally { await server.stop() }
}, 60000)
