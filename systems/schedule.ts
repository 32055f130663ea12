/**
 * The ordered schedule: five phases run in order each host step, and within a phase the systems
 * are ordered by their `before`/`after` constraints (ties keep the order they were added in).
 * pitlane's own systems are registered exactly as a user's are.
 */
import type { World } from 'bitecs'
import { optionKeys, optionsObject } from '../src/validate'

/** The phases, in the order they run. */
export const PHASES = ['lod', 'input', 'vehicle', 'broadphase', 'sensors'] as const

/** A phase name. */
export type Phase = (typeof PHASES)[number]

/** A system: gets the world, returns it (so bitecs `pipe` stays usable). */
export type System = (world: World) => World | void

/** Where a system goes: its unique name, its phase, and optionally names it must run before/after. */
export interface SystemOptions {
  name: string
  phase: Phase
  before?: string | string[]
  after?: string | string[]
}

/** The keys schedule.add accepts. */
const SYSTEM_OPTION_KEYS = optionKeys<SystemOptions>({ name: true, phase: true, before: true, after: true })

interface Entry {
  system: System
  name: string
  phase: Phase
  before: string[]
  after: string[]
  order: number
}

/** The schedule of a sim: add, remove, list and run systems. */
export interface Schedule {
  /** Adds `system`; throws on an unknown phase, a duplicate name, an unknown before/after or a cycle. */
  add(system: System, options: SystemOptions): void
  /** Removes the system named `name`; returns false when there was none. */
  remove(name: string): boolean
  /** True when a system named `name` is scheduled. */
  has(name: string): boolean
  /** The names of all systems in the order they run. */
  names(): string[]
  /** Runs every system once, in order. */
  run(world: World): World
}

function nameList(v: unknown, what: string): string[] {
  if (v === undefined) return []
  const list = Array.isArray(v) ? v : [v]
  for (const n of list) if (typeof n !== 'string' || n === '') throw new TypeError(`${what} must be a system name or a list of names, got ${String(n)}`)
  return list as string[]
}

/** Creates an empty schedule. */
export function createSchedule(): Schedule {
  const entries: Entry[] = []
  let ordered: System[] = []
  let orderedNames: string[] = []
  let counter = 0

  /** Orders all entries: by phase, then topologically by before/after; throws on a cycle. */
  function sortAll(list: Entry[]): Entry[] {
    const byName = new Map<string, Entry>()
    for (const e of list) byName.set(e.name, e)
    const phaseIndex = (e: Entry) => PHASES.indexOf(e.phase)
    // edges a -> b means a runs before b
    const edges = new Map<string, Set<string>>()
    const indeg = new Map<string, number>()
    for (const e of list) { edges.set(e.name, new Set()); indeg.set(e.name, 0) }
    const addEdge = (a: string, b: string) => {
      const s = edges.get(a)!
      if (!s.has(b)) { s.add(b); indeg.set(b, indeg.get(b)! + 1) }
    }
    for (const e of list) {
      for (const b of e.before) {
        const other = byName.get(b)!
        if (phaseIndex(other) < phaseIndex(e)) throw new RangeError(`system '${e.name}' (phase ${e.phase}) cannot run before '${b}' (earlier phase ${other.phase})`)
        addEdge(e.name, b)
      }
      for (const a of e.after) {
        const other = byName.get(a)!
        if (phaseIndex(other) > phaseIndex(e)) throw new RangeError(`system '${e.name}' (phase ${e.phase}) cannot run after '${a}' (later phase ${other.phase})`)
        addEdge(a, e.name)
      }
    }
    // Kahn's algorithm, picking the ready entry with the lowest (phase, insertion order): deterministic.
    const out: Entry[] = []
    const ready = list.filter((e) => indeg.get(e.name) === 0)
    const key = (e: Entry) => phaseIndex(e) * 1e9 + e.order
    while (ready.length) {
      let best = 0
      for (let i = 1; i < ready.length; i++) if (key(ready[i]) < key(ready[best])) best = i
      const e = ready.splice(best, 1)[0]
      out.push(e)
      for (const b of edges.get(e.name)!) {
        const d = indeg.get(b)! - 1
        indeg.set(b, d)
        if (d === 0) ready.push(byName.get(b)!)
      }
    }
    if (out.length !== list.length) {
      const stuck = list.filter((e) => !out.includes(e)).map((e) => e.name)
      throw new RangeError(`before/after constraints form a cycle among: ${stuck.join(', ')}`)
    }
    return out
  }

  function commit(list: Entry[]) {
    const sorted = sortAll(list)
    entries.length = 0
    entries.push(...list)
    ordered = sorted.map((e) => e.system)
    orderedNames = sorted.map((e) => e.name)
  }

  return {
    add(system, options) {
      if (typeof system !== 'function') throw new TypeError(`system must be a function (world) => world, got ${typeof system}`)
      if (options === null || typeof options !== 'object') throw new TypeError('options must be { name, phase, before?, after? }')
      optionsObject(options, 'options', SYSTEM_OPTION_KEYS)
      const { name, phase } = options
      if (typeof name !== 'string' || name === '') throw new TypeError(`options.name must be a non-empty string, got ${String(name)}`)
      if (!PHASES.includes(phase as Phase)) throw new RangeError(`options.phase must be one of ${PHASES.join(', ')}, got ${String(phase)}`)
      if (entries.some((e) => e.name === name)) throw new RangeError(`a system named '${name}' is already scheduled`)
      const before = nameList(options.before, 'options.before')
      const after = nameList(options.after, 'options.after')
      for (const n of [...before, ...after]) {
        if (n === name) throw new RangeError(`system '${name}' cannot be ordered relative to itself`)
        if (!entries.some((e) => e.name === n)) throw new RangeError(`options.before/after names '${n}', which is not scheduled`)
      }
      commit([...entries, { system, name, phase: phase as Phase, before, after, order: counter++ }])
    },
    remove(name) {
      const i = entries.findIndex((e) => e.name === name)
      if (i < 0) return false
      const rest = entries.filter((_, j) => j !== i).map((e) => ({
        ...e,
        before: e.before.filter((n) => n !== name),
        after: e.after.filter((n) => n !== name),
      }))
      commit(rest)
      return true
    },
    has(name) {
      return entries.some((e) => e.name === name)
    },
    names() {
      return orderedNames.slice()
    },
    run(world) {
      const list = ordered
      for (let i = 0; i < list.length; i++) list[i](world)
      return world
    },
  }
}
