// pitlane/three's debug view under node (three's scene graph needs no WebGL): an object for every
// collider kind where the collider is, car bodies and wheels where the cars are (checked against
// rays and the car's geometry, not against the view's own arithmetic), lidar points where the rays
// hit, coloured by intensity, driver lines on the terrain, no allocation per update, and dispose.
import { describe, expect, it } from 'vitest'
import v8 from 'node:v8'
import { createWorld } from 'bitecs'
import { BufferGeometry, Color, InstancedMesh, Matrix4, Mesh, Points, Scene, Vector3, type Object3D } from 'three'
import { box, capsule, createSim, cylinder, heightfield, lidarPresets, mesh, sphere, type Sim } from '../../src/index'
import { createDebugView, LIDAR_RAMP } from '../../src/three/index'

function youngBytes(): number {
  let n = 0
  for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') n += s.space_used_size
  return n
}

const named = <T extends Object3D>(root: Object3D, name: string) => root.getObjectByName(name) as T
const instanceAt = (mesh: InstancedMesh, i: number) => { const m = new Matrix4(); mesh.getMatrixAt(i, m); return m }
const translation = (m: Matrix4) => new Vector3().setFromMatrixPosition(m)

/** A hill: heights of a 41 × 41 grid, 2 m cells, 4 m at the centre. */
function hill(): number[] {
  const h: number[] = []
  for (let j = 0; j < 41; j++) for (let i = 0; i < 41; i++) h.push(4 * Math.exp(-((i - 20) ** 2 + (j - 20) ** 2) / 60))
  return h
}

function scene(): { sim: Sim; ids: Record<string, number> } {
  const sim = createSim(createWorld())
  const ids = {
    sphere: sim.addCollider(sphere(1), { position: [10, 5, 1] }),
    box: sim.addCollider(box(2, 1, 0.5), { position: [-10, 5, 0.5], rotation: [0, 0, Math.sin(0.3), Math.cos(0.3)] }),
    capsule: sim.addCollider(capsule(0.4, 1.5), { position: [0, 15, 2], rotation: [Math.sin(Math.PI / 4), 0, 0, Math.cos(Math.PI / 4)] }),
    cylinder: sim.addCollider(cylinder(0.6, 1), { position: [5, 15, 1] }),
    hill: sim.addCollider(heightfield([0, 0], 2, 41, 41, hill()), { position: [100, -40, 0] }),
    // a ramp: two triangles rising 2 m over 10 m, turned 90° about z
    ramp: sim.addCollider(mesh([0, -2, 0, 10, -2, 2, 10, 2, 2, 0, 2, 0], [0, 1, 2, 0, 2, 3]), { position: [-50, 0, 0], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] }),
  }
  return { sim, ids }
}

describe('pitlane/three createDebugView', () => {
  it('draws every collider kind where it is: spheres, boxes, capsules, cylinders, a heightfield surface, the ground', () => {
    const { sim, ids } = scene()
    sim.addCar({ position: [0, -20] }) // its body is a car, not a collider box
    const s = new Scene()
    const view = createDebugView(sim, s)
    view.update()
    expect(s.children).toContain(view.root)
    expect(view.drawn).toMatchObject({ spheres: 3, boxes: 1, cylinders: 2, surfaces: 2, ground: true, cars: 1 })
    const boxes = named<InstancedMesh>(view.root, 'pitlane-boxes')
    expect(boxes.count).toBe(1)
    // the box's corner (local +hx, +hy, +hz) lands where the rotation puts it
    const corner = new Vector3(0.5, 0.5, 0.5).applyMatrix4(instanceAt(boxes, 0))
    expect(corner.x).toBeCloseTo(-10 + 2 * Math.cos(0.6) - Math.sin(0.6), 5)
    expect(corner.y).toBeCloseTo(5 + 2 * Math.sin(0.6) + Math.cos(0.6), 5)
    expect(corner.z).toBeCloseTo(1, 5)
    // the capsule (axis turned onto world -y) has its caps' centres 1.5 m either side
    const spheres = named<InstancedMesh>(view.root, 'pitlane-spheres')
    const caps = [1, 2].map((i) => translation(instanceAt(spheres, i)))
    expect(caps.map((c) => c.y).sort()).toEqual([expect.closeTo(13.5, 5), expect.closeTo(16.5, 5)])
    // the heightfield's surface: every 37th vertex, in the world, lies where a ray straight down meets the hill
    const surface = view.root.getObjectByName(`pitlane-heightfield ${ids.hill}`) as Mesh
    surface.updateMatrixWorld(true)
    const pos = (surface.geometry as BufferGeometry).getAttribute('position')
    expect(pos.count).toBe(41 * 41)
    for (let k = 0; k < pos.count; k += 37) {
      const v = new Vector3().fromBufferAttribute(pos, k).applyMatrix4(surface.matrixWorld)
      const hit = sim.rayTest([v.x, v.y, 50], [0, 0, -1], 100, -1, -1, -1).at(0)!
      expect(hit.collider).toBe(ids.hill)
      expect(v.z).toBeCloseTo(hit.position[2], 4)
    }
    // the mesh's vertices, in the world, where rays straight down meet the ramp (just inside its edges)
    const ramp = view.root.getObjectByName(`pitlane-mesh ${ids.ramp}`) as Mesh
    ramp.updateMatrixWorld(true)
    const rp = (ramp.geometry as BufferGeometry).getAttribute('position')
    expect(rp.count).toBe(4)
    for (let k = 0; k < 4; k++) {
      const v = new Vector3().fromBufferAttribute(rp, k).applyMatrix4(ramp.matrixWorld)
      const hit = sim.rayTest([v.x + Math.sign(-50 - v.x) * 1e-6, v.y - Math.sign(v.y - 5) * 1e-6, 50], [0, 0, -1], 100, -1, -1, -1).at(0)!
      expect(hit.collider).toBe(ids.ramp)
      expect(v.z).toBeCloseTo(hit.position[2], 4)
    }
    // a collider moved, one removed: the view follows at the next update
    sim.setPose(ids.sphere, [20, 20, 3])
    sim.remove(ids.cylinder)
    view.update()
    expect(view.drawn).toMatchObject({ spheres: 3, cylinders: 1 })
    expect(translation(instanceAt(named<InstancedMesh>(view.root, 'pitlane-spheres'), 0)).toArray()).toEqual([20, 20, 3])
    view.dispose()
    expect(s.children).not.toContain(view.root)
    expect(() => view.update()).toThrow(RangeError)
  })

  it('follows the cars: body where the car is, heading along +x of the body, wheels on the ground, the front ones steered', () => {
    const sim = createSim(createWorld())
    const cars = [sim.addCar({ position: [0, 0], speed: 15 }), sim.addCar({ position: [0, 30], speed: 10, lod: 'singleTrack' })]
    for (const c of cars) sim.setInput(c, { steer: 0.6, throttle: 0.3 })
    const view = createDebugView(sim, new Scene())
    sim.stepMany(1 / 60, 40)
    view.update()
    const bodies = named<InstancedMesh>(view.root, 'pitlane-car-bodies')
    const wheels = named<InstancedMesh>(view.root, 'pitlane-car-wheels')
    expect(bodies.count).toBe(2)
    expect(wheels.count).toBe(8)
    for (let k = 0; k < 2; k++) {
      const s = sim.carState(cars[k]), d = sim.carDefinition(cars[k])
      const m = instanceAt(bodies, k)
      const centre = translation(m)
      expect(Math.hypot(centre.x - s.position[0], centre.y - s.position[1])).toBeLessThan(0.05)
      // the body's forward axis points along the heading
      const fwd = new Vector3().setFromMatrixColumn(m, 0).normalize()
      expect(Math.atan2(fwd.y, fwd.x)).toBeCloseTo(Math.atan2(Math.sin(s.heading), Math.cos(s.heading)), 5)
      expect(new Vector3().setFromMatrixColumn(m, 0).length()).toBeCloseTo(d.length, 5)
      // each wheel: its lowest point on the ground within 2 cm, beside the car's centre by the track
      for (let i = 0; i < 4; i++) {
        const w = instanceAt(wheels, 4 * k + i)
        const c = translation(w)
        expect(c.z - d.wheelRadius).toBeCloseTo(0, 1)
        expect(Math.abs(c.z - d.wheelRadius)).toBeLessThan(0.02)
        const local = c.clone().sub(new Vector3(s.position[0], s.position[1], c.z))
        const ahead = local.x * Math.cos(s.heading) + local.y * Math.sin(s.heading)
        expect(ahead).toBeCloseTo(i < 2 ? d.cgToFront : d.cgToFront - d.wheelbase, 1)
      }
      // the front wheels turn left (steer +), the inner (left) one more: their axles' yaw against the body's
      // (the axle in the body's frame is (-sin δ, cos δ, 0))
      const toBody = new Matrix4().extractRotation(m).invert()
      const yawOf = (i: number) => { const a = new Vector3().setFromMatrixColumn(instanceAt(wheels, 4 * k + i), 1).applyMatrix4(toBody); return Math.atan2(-a.x, a.y) }
      expect(yawOf(0)).toBeGreaterThan(yawOf(1))
      expect(yawOf(1)).toBeGreaterThan(0.5 * s.steerAngle)
      expect(Math.abs(yawOf(2))).toBeLessThan(1e-5)
    }
    // a removed car leaves the view
    sim.remove(cars[1])
    view.update()
    expect(named<InstancedMesh>(view.root, 'pitlane-car-bodies').count).toBe(1)
  })

  it('on terrain, follows the car over a hill: each grounded wheel touches the surface under it', () => {
    const sim = createSim(createWorld())
    sim.addCollider(heightfield([-40, -40], 2, 41, 41, hill()))
    const car = sim.addCar({ position: [-30, 1], speed: 15 })
    sim.setInput(car, { throttle: 0.3 })
    const view = createDebugView(sim, new Scene())
    const wheels = named<InstancedMesh>(view.root, 'pitlane-car-wheels')
    const d = sim.carDefinition(car)
    let checked = 0, highest = 0
    for (let f = 0; f < 150; f++) {
      sim.step(1 / 60)
      if (f % 10 !== 0) continue
      view.update()
      const s = sim.carState(car)
      highest = Math.max(highest, s.position[2])
      const body = instanceAt(named<InstancedMesh>(view.root, 'pitlane-car-bodies'), 0)
      const up = new Vector3().setFromMatrixColumn(body, 2).normalize()
      for (let i = 0; i < 4; i++) {
        if (!s.grounded[i]) continue
        const c = translation(instanceAt(wheels, i))
        // from the wheel's centre down the body's axis: the surface one radius away (a tyre does not bend here)
        const hit = sim.rayTest([c.x, c.y, c.z], [-up.x, -up.y, -up.z], 3, car, 0, -1).at(0)!
        expect(Math.abs(hit.distance - d.wheelRadius)).toBeLessThan(0.03)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(40)
    expect(highest).toBeGreaterThan(2.5) // over the hill's top
  })

  it('shows braking: the body pitches nose down and the front wheels rise into the wheel arches', () => {
    const sim = createSim(createWorld())
    const car = sim.addCar({ speed: 25 })
    const view = createDebugView(sim, new Scene())
    sim.stepMany(1 / 60, 20)
    sim.setInput(car, { brake: 1 })
    sim.stepMany(1 / 60, 20)
    view.update()
    const body = instanceAt(named<InstancedMesh>(view.root, 'pitlane-car-bodies'), 0)
    const fwd = new Vector3().setFromMatrixColumn(body, 0).normalize()
    expect(fwd.z).toBeLessThan(-0.005) // nose down
    const wheels = named<InstancedMesh>(view.root, 'pitlane-car-wheels')
    const inBody = (i: number) => translation(instanceAt(wheels, i)).applyMatrix4(body.clone().invert())
    // in the body's (scaled) frame the front wheels sit higher than the rear ones do
    expect(inBody(0).z).toBeGreaterThan(inBody(2).z)
  })

  it('draws every lidar point where its ray hit, coloured by intensity (a bright target redder than a dark one)', () => {
    const sim = createSim(createWorld(), { ground: false })
    sim.addCollider(box(0.5, 20, 5), { position: [15, 0, 0], reflectivity: 0.95, name: 'bright' })
    sim.addCollider(box(0.5, 20, 5), { position: [-15, 0, 0], reflectivity: 0.05, name: 'dark' })
    const p = lidarPresets.spinning16
    const lidar = sim.addLidar({ ...p, pattern: { ...p.pattern, yawCount: 360, yawIncrement: (2 * Math.PI) / 360 }, offset: [0, 0, 1], attributes: { intensity: true } })
    sim.stepMany(1 / 60, 10)
    const view = createDebugView(sim, new Scene())
    view.update()
    const scan = sim.lidarScan(lidar)
    expect(scan.count).toBeGreaterThan(100)
    expect(view.drawn.lidarPoints).toBe(scan.count)
    const points = named<Points>(view.root, 'pitlane-lidar-points')
    const pos = points.geometry.getAttribute('position'), col = points.geometry.getAttribute('color')
    expect(points.geometry.drawRange.count).toBe(scan.count)
    let bright = 0, dark = 0
    for (let i = 0; i < scan.count; i++) {
      const x = pos.getX(i)
      // each point on a wall's face, the near faces at |x| = 14.5
      expect(Math.abs(Math.abs(x) - 14.5)).toBeLessThan(1e-3)
      // the ramp's low end is blue, its upper half green to red
      const warm = col.getX(i) + col.getY(i), blue = col.getZ(i)
      if (x > 0) { bright++; expect(warm).toBeGreaterThan(blue) } else { dark++; expect(blue).toBeGreaterThan(warm) }
    }
    expect(bright).toBeGreaterThan(50)
    expect(dark).toBeGreaterThan(50)
    expect(new Color(LIDAR_RAMP[0]).b).toBeGreaterThan(new Color(LIDAR_RAMP[0]).r)
  })

  it('lays driver lines on the terrain', () => {
    const sim = createSim(createWorld())
    sim.addCollider(heightfield([-40, -40], 2, 41, 41, hill()))
    const car = sim.addCar({ position: [-30, 0] })
    const route = [[-30, 0], [0, 0], [30, 0], [30, 20], [-30, 20]]
    sim.setAi(car, route, { closed: true })
    const view = createDebugView(sim, new Scene(), { paths: true })
    view.update()
    expect(view.drawn.paths).toBe(1)
    const line = named<Mesh>(view.root, 'pitlane-path')
    // a second car on another route, a third on the first car's: a line each (shared lines drawn once); drawn again only when the lines change
    const other = sim.addCar({ position: [0, -20] }), third = sim.addCar({ position: [-10, 25] })
    sim.setAi(other, [[-30, -20], [30, -20], [30, -30]], { closed: true })
    sim.setAi(third, route, { closed: true })
    view.update()
    expect(view.drawn.paths).toBe(new Set([car, other, third].map((c) => sim.aiPath(c))).size)
    expect(view.drawn.paths).toBeGreaterThanOrEqual(2)
    const kept = view.root.getObjectByName('pitlane-paths')!.children.slice()
    view.update()
    expect(view.root.getObjectByName('pitlane-paths')!.children).toEqual(kept)
    const pos = line.geometry.getAttribute('position')
    let highest = 0
    for (let i = 0; i < pos.count; i++) {
      const hit = sim.rayTest([pos.getX(i), pos.getY(i), 50], [0, 0, -1], 100, car, 0, -1).at(0)!
      expect(pos.getZ(i) - hit.position[2]).toBeCloseTo(0.15, 3)
      highest = Math.max(highest, pos.getZ(i))
    }
    expect(highest).toBeGreaterThan(3) // over the top of the hill
    view.setPaths(false)
    view.update()
    expect(view.drawn.paths).toBe(0)
  })

  it('allocates nothing per update once warm, and its object count stays put', () => {
    // every collider kind, a heightfield and a mesh among them: carState casts each wheel's ray on terrain
    const { sim } = scene()
    const cars: number[] = []
    for (let i = 0; i < 12; i++) cars.push(sim.addCar({ position: [i * 8, -10], speed: 10, lod: i % 3 === 0 ? 'singleTrack' : 'full' }))
    for (const c of cars) sim.setInput(c, { throttle: 0.4, steer: 0.2 })
    const car = cars[0]
    sim.setAi(cars[1], [[8, -10], [80, -10], [80, 40], [8, 40]], { closed: true })
    sim.addLidar({ ...lidarPresets.spinning16, mount: car, offset: [0, 0, 1.6], attributes: { intensity: true } })
    const view = createDebugView(sim, new Scene(), { paths: true })
    const objects = () => { let n = 0; view.root.traverse(() => { n++ }); return n }
    for (let f = 0; f < 50; f++) { sim.step(1 / 60); view.update() }
    // V8 optimises the update's loops after some thousand runs (a minute of frames); before that it boxes doubles
    for (let f = 0; f < 3000; f++) view.update()
    const before = objects()
    let per = Infinity
    for (let round = 0; round < 5 && !(per < 64); round++) {
      for (let f = 0; f < 30; f++) { sim.step(1 / 60); view.update() }
      sim.step(1 / 60)
      const a = youngBytes()
      for (let f = 0; f < 100; f++) view.update()
      const b = youngBytes()
      if (b >= a) per = (b - a) / 100
    }
    expect(per).toBeLessThan(64) // the measurement's own reading is about 25 B a call
    expect(objects()).toBe(before)
    expect(view.drawn.lidarPoints).toBeGreaterThan(100)
  })

  it('refuses bad arguments and unknown options', () => {
    const sim = createSim(createWorld())
    expect(() => createDebugView({} as never, new Scene())).toThrow(TypeError)
    expect(() => createDebugView(sim, {} as never)).toThrow(TypeError)
    expect(() => createDebugView(sim, new Scene(), { colour: 1 } as never)).toThrow(/colour is not an option/)
    expect(() => createDebugView(sim, new Scene(), { colliderColor: -1 })).toThrow(TypeError)
    expect(() => createDebugView(sim, new Scene(), { maxLidarPoints: 0 })).toThrow(RangeError)
    expect(() => createDebugView(sim, new Scene(), { intensityRange: [1, 0] })).toThrow(RangeError)
    const y = createDebugView(sim, new Scene(), { yUp: true })
    expect(y.root.rotation.x).toBeCloseTo(-Math.PI / 2, 12)
    // the ground plane drawn or not
    y.update()
    expect(y.drawn.ground).toBe(true)
    const bare = createDebugView(sim, new Scene(), { ground: false })
    bare.update()
    expect(bare.drawn.ground).toBe(false)
    expect(bare.root.getObjectByName('pitlane-ground')).toBeUndefined()
    expect(() => createDebugView(sim, new Scene(), { ground: 1 as never })).toThrow(TypeError)
  })
})
