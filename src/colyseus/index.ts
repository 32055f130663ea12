/** pitlane/colyseus: an authoritative pitlane race on Colyseus 0.18 (PitlaneRoom) and the player's side of it (joinRace). */
export { PitlaneRoom } from './room'
export { TICK_SECONDS } from './tick'
export { joinRace } from './client'
export type { JoinRaceOptions } from './client'
export { MAX_MESSAGES_PER_SECOND, MESSAGE_BURST } from './guard'
export { MAX_CARS } from './options'
export type {
  RaceScene, SceneConfig, SceneWorld, SceneRace, SceneEntrant, RacePhase, RaceStanding, RaceReport,
  PitlaneRoomOptions, Welcome, RoomStats, RaceClient,
} from './types'
