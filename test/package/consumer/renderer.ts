// Typechecks pitlane/pixi against the lowest pixi.js 8 pitlane claims (pixi does not run under node).
// The pixi import lists every name src/pixi/index.ts imports from pixi.js (the test compares them),
// so a pixi release without one of them fails here, in the consumer's own file.
import { Container, Graphics, Particle, ParticleContainer, Rectangle, Sprite, Texture } from 'pixi.js'
import { createWorld } from 'bitecs'
import { createSim } from 'pitlane'
import { createDebugRenderer } from 'pitlane/pixi'

/** Draws a sim into `parent` with the pixi classes pitlane/pixi uses. */
export function mount(parent: Container): number {
  const renderer = createDebugRenderer(createSim(createWorld()), parent)
  renderer.update()
  const used = [Graphics, Particle, ParticleContainer, Rectangle, Sprite, Texture]
  const own: Container = renderer.container
  return used.length + own.children.length
}
