import { it } from 'vitest'
import { Session } from 'node:inspector'
import { createWorld } from 'bitecs'
import { Scene } from 'three'
import { box, capsule, createSim, cylinder, heightfield, lidarPresets, sphere } from '../../src/index'
import { createDebugView } from '../../src/three/index'
function hill(): number[] { const h: number[] = []; for (let j = 0; j < 41; j++) for (let i = 0; i < 41; i++) h.push(4 * Math.exp(-((i - 20) ** 2 + (j - 20) ** 2) / 60)); return h }
it('alloc', async () => {
  const sim = createSim(createWorld())
  sim.addCollider(sphere(1), { position: [10, 5, 1] }); sim.addCollider(box(2, 1, 0.5), { position: [-10, 5, 0.5] }); sim.addCollider(capsule(0.4, 1.5), { position: [0, 15, 2] }); sim.addCollider(cylinder(0.6, 1), { position: [5, 15, 1] }); sim.addCollider(heightfield([0, 0], 2, 41, 41, hill()), { position: [100, -40, 0] })
    const cars: number[] = []
    for (let i = 0; i < 12; i++) cars.push(sim.addCar({ position: [i * 8, -10], speed: 10, lod: i % 3 === 0 ? 'singleTrack' : 'full' }))
    for (const c of cars) sim.setInput(c, { throttle: 0.4, steer: 0.2 })
    sim.setAi(cars[1], [[8, -10], [80, -10], [80, 40], [8, 40]], { closed: true })
    sim.addLidar({ ...lidarPresets.spinning16, mount: cars[0], offset: [0, 0, 1.6], attributes: { intensity: true } })
    const view = createDebugView(sim, new Scene(), { paths: true })
    for (let f = 0; f < 50; f++) { sim.step(1 / 60); view.update() }
    for (let f = 0; f < 3000; f++) view.update()
  const s = new Session(); s.connect()
  const post = (m: string, p?: object) => new Promise<any>((res, rej) => s.post(m, p ?? {}, (e, r) => e ? rej(e) : res(r)))
  await post('HeapProfiler.startSampling', { samplingInterval: 16, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true })
  for (let f = 0; f < 2000; f++) view.update()
  const { profile } = await post('HeapProfiler.stopSampling')
  const out: [number, string][] = []
  const walk = (n: any, stack: string[]) => {
    const name = `${n.callFrame.functionName}@${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`
    const st = [...stack, name]
    if (n.selfSize > 0) out.push([n.selfSize, st.slice(-3).join(' < ')])
    for (const c of n.children) walk(c, st)
  }
  walk(profile.head, [])
  out.sort((a, b) => b[0] - a[0])
  for (const [size, st] of out.slice(0, 5)) console.log('SITE', size, st)
})
