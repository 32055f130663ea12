/** pitlane/colyseus/client: the player's side of a PitlaneRoom (joinRace) without the server, for browser bundles (no @colyseus/core). */
export { joinRace } from './client'
export type { JoinRaceOptions } from './client'
export { TICK_SECONDS } from './tick'
export type { RaceScene, SceneConfig, SceneWorld, SceneRace, SceneEntrant, RacePhase, RaceStanding, RaceReport, PitlaneRoomOptions, Welcome, RaceClient } from './types'
