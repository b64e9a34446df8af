// These are the types of what the trivia room sends (docs/protocol.md section 8), under the names
// the pages use. Trivia's wire schemas (libs/games/trivia/src/trivia.wire.ts, published as
// @game-rooms/client/trivia) are the one description of it, and these types are inferred from them.
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
} from '@game-rooms/client/trivia'
