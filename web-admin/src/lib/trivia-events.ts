// What the trivia room sends (docs/protocol.md section 8), under the names the pages use: the
// client package's schemas are the one description of it, and these types are inferred from them.
export type {
  TriviaEvents,
  TriviaRoomPhase as RoomPhase,
  TriviaSeat as SeatView,
  TriviaSettings as RoomSettings,
  TriviaOpenQuestion as OpenQuestion,
  TriviaScoreLine as ScoreLine,
  TriviaReveal as Reveal,
  TriviaStanding as Standing,
  TriviaRematchDecision as RematchDecision,
  TriviaRoomState as RoomStateData,
} from '@game-rooms/client'
