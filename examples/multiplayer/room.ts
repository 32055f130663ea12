/** The multiplayer example's room: pitlane/colyseus's PitlaneRoom racing the built-in circuit. */
import { PitlaneRoom } from '../../src/colyseus/index'
import { circuitScene } from './scene'

/** PitlaneRoom on the racing demo's circuit; `npm run server` registers it as 'race'. */
export class RaceRoom extends PitlaneRoom {
  override scene = circuitScene
}
