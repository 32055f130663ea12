/**
 * The cars on screen: one container of sprites per car (shadow, steering front wheels, body, brake
 * lights), made once and moved every frame. Cars off screen are hidden and not updated.
 */
import { Container, Sprite } from 'pixi.js'
import type { CarDefinition, Sim } from '../../src/index'
import { ART_PX_PER_M, type CarArt } from './car-art'

/** The sprites of every car, updated from the sim's Car store. */
export interface CarViews {
  /** The layer holding every car (world metres). */
  readonly layer: Container
  /** Their shadows (a layer of its own, under every car). */
  readonly shadows: Container
  /** Moves the sprites of the cars inside the circle (cx, cy, radius), hides the rest. */
  update(cx: number, cy: number, radius: number): void
  /** Cars drawn by the last update. */
  readonly visible: number
}

interface View {
  car: number
  root: Container
  shadow: Sprite
  wheels: [Sprite, Sprite]
  lights: [Sprite, Sprite]
  /** Bounding radius, m. */
  reach: number
}

/** Makes the sprites of `cars` (definitions and body frames in the same order). */
export function createCarViews(sim: Sim, cars: readonly number[], definitions: readonly CarDefinition[], art: CarArt): CarViews {
  const layer = new Container({ label: 'cars' })
  const shadows = new Container({ label: 'car shadows' })
  const views: View[] = []
  const px = ART_PX_PER_M
  cars.forEach((car, i) => {
    const d = definitions[i]!
    const root = new Container()
    // children are in art pixels, the car in metres; y flipped back so the art is not mirrored
    root.scale.set(1 / px, -1 / px)
    const shadow = new Sprite(art.shadow)
    shadow.anchor.set(0.5)
    shadow.scale.set((d.length + 0.6) / art.shadow.width, (d.width + 0.6) / art.shadow.height)
    shadow.alpha = 0.75
    shadows.addChild(shadow)
    const front = d.cgToFront
    const wheel = () => {
      const w = new Sprite(art.wheel)
      w.anchor.set(0.5)
      w.width = 2 * d.wheelRadius * px
      w.height = 0.26 * px
      return w
    }
    const wheels: [Sprite, Sprite] = [wheel(), wheel()]
    wheels[0].position.set(front * px, (d.width / 2 - 0.05) * px)
    wheels[1].position.set(front * px, -(d.width / 2 - 0.05) * px)
    const body = new Sprite(art.bodies[i])
    body.anchor.set(0.5)
    const glow = (side: number) => {
      const s = new Sprite(art.glow)
      s.anchor.set(0.5)
      s.width = s.height = 0.7 * px
      s.position.set(-(d.length / 2 - 0.05) * px, side * (d.width / 2 - 0.28) * px)
      s.visible = false
      return s
    }
    const lights: [Sprite, Sprite] = [glow(1), glow(-1)]
    root.addChild(wheels[0], wheels[1], body, lights[0], lights[1])
    layer.addChild(root)
    views.push({ car, root, shadow, wheels, lights, reach: d.length })
  })
  const { Car } = sim.components
  let visible = 0
  return {
    layer,
    shadows,
    get visible() { return visible },
    update(cx, cy, radius) {
      visible = 0
      for (let i = 0; i < views.length; i++) {
        const v = views[i]!, car = v.car
        const x = Car.x[car]!, y = Car.y[car]!
        const dx = x - cx, dy = y - cy, r = radius + v.reach
        const onScreen = dx * dx + dy * dy < r * r
        v.root.visible = onScreen
        v.shadow.visible = onScreen
        if (!onScreen) continue
        visible++
        const heading = Car.heading[car]!
        v.root.position.set(x, y)
        v.root.rotation = heading
        // a low sun behind the camera's left shoulder: the shadow falls a little right and down
        v.shadow.position.set(x + 0.3, y - 0.35)
        v.shadow.rotation = heading
        // the commanded road-wheel angle (input × full lock), which the steering follows closely;
        // negated because the car's art space is y-flipped
        const steer = -Car.steer[car]! * Car.maxSteer[car]!
        v.wheels[0].rotation = steer
        v.wheels[1].rotation = steer
        const braking = Car.brake[car]! > 0.05 && Math.abs(Car.speed[car]!) > 0.3
        v.lights[0].visible = braking
        v.lights[1].visible = braking
      }
    },
  }
}
