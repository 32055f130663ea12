/**
 * The driver-line layer of pitlane/three: the lines of the chosen driven cars, laid on whatever
 * is under them (a ray down through everything but cars: terrain, kerbs, the ground) and lifted a
 * little so they show. Rebuilt only when the set of lines changes.
 */
import { BufferAttribute, BufferGeometry, Group, Line, LineBasicMaterial, LineLoop } from 'three'
import { entityExists, hasComponent, registerQuery, type Query } from 'bitecs'
import type { Polyline, Sim } from '../index'

/** The driver-line layer. */
export interface PathLayer {
  readonly group: Group
  /** Draws the lines of `which` (true: every driven car); cheap when they are the lines drawn already. */
  update(which: boolean | readonly number[]): void
  /** Lines drawn. */
  readonly count: number
  dispose(): void
}

// a segment longer than this is split, so the line follows hills between its points
const MAX_SEGMENT = 2
const LIFT = 0.15
const TOP = 1e4

/** Builds the driver-line layer of `sim` (lines of colour `color`). */
export function createPathLayer(sim: Sim, color: number): PathLayer {
  const group = new Group()
  group.name = 'pitlane-paths'
  const material = new LineBasicMaterial({ color })
  const drawn: Polyline[] = []
  const lines: Line[] = []
  const down = [0, 0, -1], from = [0, 0, TOP]
  let driven: Query | null = null

  /** The height of the highest surface under (x, y) that is not a car, or 0 when there is none. */
  function heightAt(x: number, y: number): number {
    const C = sim.components.Collider, Car = sim.components.Car
    from[0] = x; from[1] = y; from[2] = TOP
    // the first car in the way is skipped by the ray's self-filter; any further one by casting again from under its box
    let skip = -1, skipLocal = -1
    for (let tries = 0; tries < 8; tries++) {
      const hit = sim.rayTest(from, down, from[2] + TOP, skip, skipLocal, -1).at(0)
      if (!hit) return 0
      const owner = C.object[hit.collider]
      const isCar = owner >= 0 && owner < Car.collider.length && Car.collider[owner] === hit.collider
      if (!isCar) return hit.position[2]
      if (skip < 0) { skip = hit.object; skipLocal = hit.localId } else from[2] = C.aabb[hit.collider * 6 + 2] - 1e-3
    }
    return 0
  }

  /** True when `line` is one of the first `n` lines drawn. */
  function isDrawnBefore(line: Polyline, n: number): boolean {
    for (let j = 0; j < n; j++) if (drawn[j] === line) return true
    return false
  }

  /** The line `car`'s driver follows, or null (not a live driven car). */
  function lineAt(car: number): Polyline | null {
    const { world, components } = sim
    return Number.isInteger(car) && car >= 0 && entityExists(world, car) && hasComponent(world, car, components.Driver) ? sim.aiPath(car) : null
  }

  function lineOf(p: Polyline): Line {
    const pts: number[] = []
    const n = p.n, last = p.closed ? n : n - 1
    for (let i = 0; i < last; i++) {
      const j = (i + 1) % n
      const x0 = p.x[i], y0 = p.y[i], x1 = p.x[j], y1 = p.y[j]
      const parts = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / MAX_SEGMENT))
      for (let k = 0; k < parts; k++) {
        const x = x0 + ((x1 - x0) * k) / parts, y = y0 + ((y1 - y0) * k) / parts
        pts.push(x, y, heightAt(x, y) + LIFT)
      }
    }
    if (!p.closed && n > 0) pts.push(p.x[n - 1], p.y[n - 1], heightAt(p.x[n - 1], p.y[n - 1]) + LIFT)
    const g = new BufferGeometry()
    g.setAttribute('position', new BufferAttribute(new Float32Array(pts), 3))
    const line = p.closed ? new LineLoop(g, material) : new Line(g, material)
    line.name = 'pitlane-path'
    return line
  }

  return {
    group,
    get count() { return lines.length },
    update(which) {
      const { world, components } = sim
      if (which === true && driven === null) driven = registerQuery(world, [components.Driver])
      const cars = which === true ? (driven!.dense as ArrayLike<number>) : which === false ? null : which
      // the wanted lines, compared with the drawn ones in order (no list is built unless they differ)
      let n = 0, same = true
      for (let i = 0; cars !== null && i < cars.length; i++) {
        const line = lineAt(cars[i])
        if (line === null || isDrawnBefore(line, n)) continue // cars sharing a line draw it once
        if (n >= drawn.length || drawn[n] !== line) { same = false; break }
        n++
      }
      if (same && n === drawn.length) return
      for (const l of lines) { group.remove(l); l.geometry.dispose() }
      lines.length = 0
      drawn.length = 0
      for (let i = 0; cars !== null && i < cars.length; i++) {
        const p = lineAt(cars[i])
        if (p === null || drawn.includes(p)) continue
        drawn.push(p)
        if (p.n < 2) continue
        const l = lineOf(p)
        lines.push(l)
        group.add(l)
      }
    },
    dispose() {
      for (const l of lines) { group.remove(l); l.geometry.dispose() }
      lines.length = 0
      material.dispose()
    },
  }
}
