/**
 * The collider layer of pitlane/three: every collider but the cars' bodies. Spheres, boxes and
 * cylinders are one instanced mesh a kind (a capsule is a cylinder and two spheres), heightfields
 * and meshes one surface mesh each, the ground plane a large square with a grid. It is rebuilt only
 * when a collider is added, removed, moved or reshaped (compared field by field with the last
 * build), so a frame with static scenery costs one pass over the colliders and allocates nothing.
 */
import { BoxGeometry, Color, CylinderGeometry, DoubleSide, GridHelper, Group, Mesh, MeshLambertMaterial, PlaneGeometry, SphereGeometry, type BufferGeometry, type Material } from 'three'
import { commitRemovals, registerQuery, type Query } from 'bitecs'
import { ColliderKind, colliderMesh, type Sim } from '../index'
import { createInstancePool, place, writeInstance, type InstancePool } from './instances'
import { heightfieldGeometry, meshGeometry } from './surfaces'

/** What the collider layer draws and how. */
export interface ColliderLayerOptions {
  colliderColor: number
  colliderColors: Readonly<Record<string, number>>
  terrainLow: number
  terrainHigh: number
  groundColor: number
  groundSize: number
  ground: boolean
  grid: boolean
}

/** The collider layer (see the module comment). */
export interface ColliderLayer {
  readonly group: Group
  /** Redraws when the colliders changed since the last call; returns true when it did. */
  update(): boolean
  /** Instances drawn per kind, and the surface meshes (heightfields, meshes). */
  readonly counts: { spheres: number; boxes: number; cylinders: number; surfaces: number; ground: boolean }
  dispose(): void
}

// per drawn collider: entity, kind, heightfield slot, mesh slot, params (4), position (3), rotation (9)
const FIELDS = 20
// a sphere's rotation does not show
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1]

interface Surface { mesh: Mesh; kind: number; slot: number; p0: number; seen: number }

/** Builds the collider layer of `sim`. */
export function createColliderLayer(sim: Sim, o: ColliderLayerOptions): ColliderLayer {
  const group = new Group()
  group.name = 'pitlane-colliders'
  const material = new MeshLambertMaterial({ color: 0xffffff })
  const surfaceMaterial = new MeshLambertMaterial({ vertexColors: true, side: DoubleSide })
  const sphereGeometry = new SphereGeometry(1, 16, 12)
  const boxGeometry = new BoxGeometry(1, 1, 1)
  const cylinderGeometry = new CylinderGeometry(1, 1, 2, 16).rotateX(Math.PI / 2)
  const spheres = createInstancePool(group, sphereGeometry, material, 16, 'pitlane-spheres')
  const boxes = createInstancePool(group, boxGeometry, material, 16, 'pitlane-boxes')
  const cylinders = createInstancePool(group, cylinderGeometry, material, 16, 'pitlane-cylinders')
  const surfaces = new Map<number, Surface>()
  const counts = { spheres: 0, boxes: 0, cylinders: 0, surfaces: 0, ground: false }
  let ground: Mesh | null = null
  let grid: GridHelper | null = null
  let drawn = new Float64Array(64 * FIELDS)
  let drawnCount = -1
  let build = 0
  const color = new Color()
  const query: Query = registerQuery(sim.world, [sim.components.Collider])

  function isCarBody(e: number): boolean {
    const owner = sim.components.Collider.object[e]
    const Car = sim.components.Car
    return owner >= 0 && owner < Car.collider.length && Car.collider[owner] === e
  }

  /** True when the colliders differ from the last build (and records them when they do). */
  function changed(list: ArrayLike<number>): boolean {
    const C = sim.components.Collider
    let n = 0, same = true
    for (let k = 0; k < list.length; k++) {
      const e = list[k]
      if (isCarBody(e)) continue
      if ((n + 1) * FIELDS > drawn.length) { const grown = new Float64Array(drawn.length * 2); grown.set(drawn); drawn = grown }
      const d = n * FIELDS
      if (drawn[d] !== e || drawn[d + 1] !== C.kind[e] || drawn[d + 2] !== C.heightfield[e] || drawn[d + 3] !== C.mesh[e]) {
        same = false; drawn[d] = e; drawn[d + 1] = C.kind[e]; drawn[d + 2] = C.heightfield[e]; drawn[d + 3] = C.mesh[e]
      }
      for (let i = 0; i < 4; i++) { const v = C.params[e * 4 + i]; if (drawn[d + 4 + i] !== v) { same = false; drawn[d + 4 + i] = v } }
      for (let i = 0; i < 3; i++) { const v = C.position[e * 3 + i]; if (drawn[d + 8 + i] !== v) { same = false; drawn[d + 8 + i] = v } }
      for (let i = 0; i < 9; i++) { const v = C.rotation[e * 9 + i]; if (drawn[d + 11 + i] !== v) { same = false; drawn[d + 11 + i] = v } }
      n++
    }
    if (n !== drawnCount) same = false
    drawnCount = n
    return !same
  }

  function paint(pool: InstancePool, i: number, e: number): void {
    const name = sim.components.Collider.name[e]
    color.setHex((name !== undefined ? o.colliderColors[name] : undefined) ?? o.colliderColor)
    pool.color(i, color)
  }

  function surfaceOf(e: number, kind: number): Surface | null {
    const C = sim.components.Collider
    const slot = kind === ColliderKind.mesh ? C.mesh[e] : C.heightfield[e], p0 = C.params[e * 4]
    const old = surfaces.get(e)
    if (old && old.kind === kind && old.slot === slot && old.p0 === p0) return old
    if (old) { group.remove(old.mesh); old.mesh.geometry.dispose(); surfaces.delete(e) }
    let geometry: BufferGeometry
    if (kind === ColliderKind.mesh) {
      const m = colliderMesh(sim, e) // the collider's own arrays, no copy
      if (!m) return null
      geometry = meshGeometry(m.vertices, m.indices, o.terrainLow, o.terrainHigh)
    } else {
      const shape = sim.colliderShape(e)
      if (shape?.kind !== 'heightfield') return null
      geometry = heightfieldGeometry(shape, o.terrainLow, o.terrainHigh)
    }
    const mesh = new Mesh(geometry, surfaceMaterial)
    mesh.name = `pitlane-${kind === ColliderKind.mesh ? 'mesh' : 'heightfield'} ${e}`
    mesh.matrixAutoUpdate = false
    group.add(mesh)
    const s = { mesh, kind, slot, p0, seen: 0 }
    surfaces.set(e, s)
    return s
  }

  function setGround(z: number | null): void {
    if (z === null) {
      if (ground) { group.remove(ground); ground.geometry.dispose(); (ground.material as MeshLambertMaterial).dispose(); ground = null }
      if (grid) { group.remove(grid); grid.dispose(); grid = null }
      return
    }
    if (!ground) {
      ground = new Mesh(new PlaneGeometry(o.groundSize, o.groundSize), new MeshLambertMaterial({ color: o.groundColor, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 }))
      ground.name = 'pitlane-ground'
      group.add(ground)
      if (o.grid) {
        grid = new GridHelper(o.groundSize, Math.round(o.groundSize / 10), 0x000000, 0x000000)
        grid.rotation.x = Math.PI / 2 // three's grid lies in xz; pitlane's ground in xy
        const lines = grid.material as Material
        lines.transparent = true
        lines.opacity = 0.12
        group.add(grid)
      }
    }
    ground.position.z = z
    if (grid) grid.position.z = z + 0.01
  }

  function rebuild(list: ArrayLike<number>): void {
    const C = sim.components.Collider
    const P = C.position, R = C.rotation, p = C.params
    build++
    let ns = 0, nb = 0, nc = 0
    let groundZ: number | null = null
    // room first (a grown pool is a new mesh)
    let wantS = 0, wantB = 0, wantC = 0
    for (let k = 0; k < list.length; k++) {
      const kind = C.kind[list[k]]
      if (kind === ColliderKind.sphere) wantS++
      else if (kind === ColliderKind.box) wantB++
      else if (kind === ColliderKind.cylinder) wantC++
      else if (kind === ColliderKind.capsule) { wantS += 2; wantC++ }
    }
    spheres.reserve(wantS); boxes.reserve(wantB); cylinders.reserve(wantC)
    const S = spheres.mesh.instanceMatrix.array as Float32Array, B = boxes.mesh.instanceMatrix.array as Float32Array, Y = cylinders.mesh.instanceMatrix.array as Float32Array
    for (let k = 0; k < list.length; k++) {
      const e = list[k]
      if (isCarBody(e)) continue
      const kind = C.kind[e], q = e * 4, r = e * 9, x = P[e * 3], y = P[e * 3 + 1], z = P[e * 3 + 2]
      if (kind === ColliderKind.plane) { if (o.ground) groundZ = z; continue }
      if (kind === ColliderKind.none) continue
      if (kind === ColliderKind.sphere) { place(x, y, z, p[q], p[q], p[q]); writeInstance(S, ns, IDENTITY, 0); paint(spheres, ns++, e) }
      else if (kind === ColliderKind.box) { place(x, y, z, 2 * p[q], 2 * p[q + 1], 2 * p[q + 2]); writeInstance(B, nb, R, r); paint(boxes, nb++, e) }
      else if (kind === ColliderKind.cylinder) { place(x, y, z, p[q], p[q], p[q + 1]); writeInstance(Y, nc, R, r); paint(cylinders, nc++, e) }
      else if (kind === ColliderKind.capsule) {
        const rad = p[q], hh = p[q + 1], ax = R[r + 2] * hh, ay = R[r + 5] * hh, az = R[r + 8] * hh
        place(x, y, z, rad, rad, hh); writeInstance(Y, nc, R, r); paint(cylinders, nc++, e)
        place(x + ax, y + ay, z + az, rad, rad, rad); writeInstance(S, ns, R, r); paint(spheres, ns++, e)
        place(x - ax, y - ay, z - az, rad, rad, rad); writeInstance(S, ns, R, r); paint(spheres, ns++, e)
      } else {
        const s = surfaceOf(e, kind)
        if (!s) continue
        s.seen = build
        place(x, y, z, 1, 1, 1); writeInstance(s.mesh.matrix.elements, 0, R, r)
        s.mesh.matrixWorldNeedsUpdate = true
      }
    }
    for (const [e, s] of surfaces) {
      if (s.seen === build) continue
      group.remove(s.mesh)
      s.mesh.geometry.dispose()
      surfaces.delete(e)
    }
    spheres.commit(ns); boxes.commit(nb); cylinders.commit(nc)
    setGround(groundZ)
    counts.spheres = ns; counts.boxes = nb; counts.cylinders = nc; counts.surfaces = surfaces.size; counts.ground = groundZ !== null
  }

  return {
    group,
    counts,
    update() {
      commitRemovals(sim.world)
      const list = query.dense as ArrayLike<number>
      if (!changed(list)) return false
      rebuild(list)
      return true
    },
    dispose() {
      spheres.dispose(); boxes.dispose(); cylinders.dispose()
      for (const s of surfaces.values()) s.mesh.geometry.dispose()
      surfaces.clear()
      setGround(null)
      for (const g of [sphereGeometry, boxGeometry, cylinderGeometry]) g.dispose()
      material.dispose(); surfaceMaterial.dispose()
    },
  }
}
