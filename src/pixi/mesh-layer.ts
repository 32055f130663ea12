/**
 * The debug renderer's mesh layer: the outlines of mesh colliders' triangles seen from above,
 * culled to the visible part of the world. A mesh's triangles are read once (colliderMesh)
 * and projected again only when its pose changes; the outlines are redrawn only when a mesh
 * changes, the view leaves the region last drawn (the view plus half its size on each side) or the
 * zoom changes more than twofold. An update that redraws nothing allocates nothing.
 */
import { Graphics, type Container } from 'pixi.js'
import { hasComponent, observe, onRemove, registerQuery } from 'bitecs'
import { ColliderKind, colliderMesh, type Sim } from '../index'

/** A rectangle in the canvas's pixels (e.g. a pixi Application's `screen`). */
export interface ScreenRect { x: number; y: number; width: number; height: number }

/** What the mesh layer needs from the renderer's options. */
export interface MeshLayerOptions {
  /** The visible rectangle, or null to draw every triangle. */
  screen: ScreenRect | null
  /** At most this many triangle outlines per redraw. */
  maxTriangles: number
  /** The colour of a collider by its name. */
  colorOf: (name: string | undefined) => number
}

/** The mesh layer of a debug renderer. */
export interface MeshLayer {
  /** The Graphics the outlines are drawn into. */
  readonly graphics: Graphics
  /** Follows the sim's mesh colliders and the view; redraws only when needed. */
  update(): void
  /** Triangle outlines drawn by the last redraw. */
  readonly triangles: number
  /** Stops following the sim. */
  destroy(): void
}

interface MeshView {
  /** Local vertices (xyz) and indices: the sim's own arrays (read only). */
  vertices: Float64Array
  indices: Uint32Array
  /** World x, y of every vertex under `pose`. */
  xy: Float64Array
  /** The pose projected: position (3) and row-major rotation (9). */
  pose: Float64Array
  /** World xy box of the mesh: min x, min y, max x, max y. */
  box: Float64Array
}

/** Creates the mesh layer drawing `sim`'s mesh colliders in `root`'s frame (world metres). */
export function createMeshLayer(sim: Sim, root: Container, o: MeshLayerOptions): MeshLayer {
  const graphics = new Graphics({ label: 'pitlane-meshes' })
  const views = new Map<number, MeshView>()
  const view = new Float64Array(4), drawn = new Float64Array([Infinity, Infinity, -Infinity, -Infinity])
  const corner = { x: 0, y: 0 }, local = { x: 0, y: 0 }
  let drawnScale = NaN, dirty = true, triangles = 0
  // Ids are recycled at once: a removed mesh's view goes with it, so a new collider at that id is read afresh.
  const stop = observe(sim.world, onRemove(sim.components.Collider), (eid: number) => { if (views.delete(eid)) dirty = true })
  // a live list (query() would allocate each update); removals reach it late, hence the check below
  const colliders = registerQuery(sim.world, [sim.components.Collider])

  /** Creates or re-projects the view of every mesh collider; true when any changed. */
  function sync(): boolean {
    const C = sim.components.Collider
    const list = colliders.dense
    let changed = false
    for (let i = 0; i < list.length; i++) {
      const e = list[i]
      if (C.kind[e] !== ColliderKind.mesh) continue
      let v = views.get(e)
      if (!v) {
        if (!hasComponent(sim.world, e, C)) continue
        const geometry = colliderMesh(sim, e) // the sim's own arrays, only read
        if (!geometry) continue
        const { vertices, indices } = geometry
        v = { vertices, indices, xy: new Float64Array((vertices.length / 3) * 2), pose: new Float64Array(12).fill(NaN), box: new Float64Array(4) }
        views.set(e, v)
      }
      if (samePose(v.pose, C.position, e * 3, C.rotation, e * 9)) continue
      project(v, C.position, e * 3, C.rotation, e * 9)
      changed = true
    }
    return changed
  }

  /** The visible world rectangle into `view` (min x, min y, max x, max y); every point when there is no screen. */
  function computeView(): void {
    const s = o.screen
    if (!s) { view[0] = view[1] = -Infinity; view[2] = view[3] = Infinity; return }
    view[0] = view[1] = Infinity; view[2] = view[3] = -Infinity
    for (let k = 0; k < 4; k++) {
      corner.x = s.x + (k & 1 ? s.width : 0)
      corner.y = s.y + (k & 2 ? s.height : 0)
      root.toLocal(corner, undefined, local)
      view[0] = Math.min(view[0], local.x); view[1] = Math.min(view[1], local.y)
      view[2] = Math.max(view[2], local.x); view[3] = Math.max(view[3], local.y)
    }
  }

  function redraw(scale: number): void {
    const g = graphics
    g.clear()
    // the region drawn: the view and half its size around it, so a panning view redraws rarely
    const w = (view[2] - view[0]) / 2, h = (view[3] - view[1]) / 2
    drawn[0] = view[0] - w; drawn[1] = view[1] - h; drawn[2] = view[2] + w; drawn[3] = view[3] + h
    if (!Number.isFinite(w)) { drawn[0] = drawn[1] = -Infinity; drawn[2] = drawn[3] = Infinity }
    drawnScale = scale
    const x0 = drawn[0], y0 = drawn[1], x1 = drawn[2], y1 = drawn[3]
    let n = 0
    const C = sim.components.Collider
    for (const [e, v] of views) {
      const b = v.box
      if (b[0] > x1 || b[2] < x0 || b[1] > y1 || b[3] < y0) continue
      const xy = v.xy, idx = v.indices
      let any = false
      for (let t = 0; t < idx.length && n < o.maxTriangles; t += 3) {
        const a = 2 * idx[t], bb = 2 * idx[t + 1], c = 2 * idx[t + 2]
        const ax = xy[a], ay = xy[a + 1], bx = xy[bb], by = xy[bb + 1], cx = xy[c], cy = xy[c + 1]
        if (Math.max(ax, bx, cx) < x0 || Math.min(ax, bx, cx) > x1 || Math.max(ay, by, cy) < y0 || Math.min(ay, by, cy) > y1) continue
        g.moveTo(ax, ay).lineTo(bx, by).lineTo(cx, cy).closePath()
        n++
        any = true
      }
      // about one pixel wide at the zoom of this redraw
      if (any) g.stroke({ width: 1 / scale, color: o.colorOf(C.name[e]), alpha: 0.9, join: 'bevel' }) // bevel: no miter spikes past the triangle
    }
    triangles = n
  }

  return {
    graphics,
    get triangles() { return triangles },
    update() {
      if (sync()) dirty = true
      if (views.size === 0) {
        if (triangles > 0 || dirty) { graphics.clear(); triangles = 0; dirty = false }
        return
      }
      computeView()
      const scale = pixelsPerMetre(root)
      const inside = view[0] >= drawn[0] && view[1] >= drawn[1] && view[2] <= drawn[2] && view[3] <= drawn[3]
      const zoomed = !(scale <= 2 * drawnScale && scale >= drawnScale / 2)
      if (dirty || !inside || zoomed) { redraw(scale); dirty = false }
    },
    destroy() {
      stop()
      views.clear()
    },
  }
}

/** Screen pixels per world metre through the containers' scales (rotation aside). */
export function pixelsPerMetre(c: Container | null): number {
  let ppm = 1
  for (; c; c = c.parent) ppm *= Math.abs(c.scale.x)
  return ppm
}

function samePose(pose: Float64Array, P: Float64Array, p: number, R: Float64Array, r: number): boolean {
  for (let k = 0; k < 3; k++) if (pose[k] !== P[p + k]) return false
  for (let k = 0; k < 9; k++) if (pose[3 + k] !== R[r + k]) return false
  return true
}

/** Projects a mesh's vertices onto the ground under the collider's pose, and its xy box. */
function project(v: MeshView, P: Float64Array, p: number, R: Float64Array, r: number): void {
  const pose = v.pose, vs = v.vertices, xy = v.xy, b = v.box
  for (let k = 0; k < 3; k++) pose[k] = P[p + k]
  for (let k = 0; k < 9; k++) pose[3 + k] = R[r + k]
  const px = P[p], py = P[p + 1]
  const r0 = R[r], r1 = R[r + 1], r2 = R[r + 2], r3 = R[r + 3], r4 = R[r + 4], r5 = R[r + 5]
  b[0] = b[1] = Infinity; b[2] = b[3] = -Infinity
  for (let i = 0, j = 0; i < vs.length; i += 3, j += 2) {
    const x = r0 * vs[i] + r1 * vs[i + 1] + r2 * vs[i + 2] + px
    const y = r3 * vs[i] + r4 * vs[i + 1] + r5 * vs[i + 2] + py
    xy[j] = x; xy[j + 1] = y
    if (x < b[0]) b[0] = x
    if (y < b[1]) b[1] = y
    if (x > b[2]) b[2] = x
    if (y > b[3]) b[3] = y
  }
}
