import { Session } from 'node:inspector/promises'
import { createRace } from '../test/perf/race.mjs'
const race = createRace()
for (let i = 0; i < 900; i++) race.frame(i)
const s = new Session(); s.connect()
await s.post('HeapProfiler.enable')
await s.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
for (let i = 900; i < 7200; i++) race.frame(i)
const { profile } = await s.post('HeapProfiler.stopSampling')
const m = new Map()
;(function walk(n, stack) { const k = n.callFrame.functionName + ':' + n.callFrame.lineNumber; const st = [...stack, k]; if (n.selfSize) m.set(st.slice(-3).join(' < '), (m.get(st.slice(-3).join(' < ')) || 0) + n.selfSize); (n.children || []).forEach((c) => walk(c, st)) })(profile.head, [])
;[...m].sort((a, b) => b[1] - a[1]).slice(0, 16).forEach(([k, v]) => console.log((v / 1e3).toFixed(0) + 'KB', k))
