// What the trivia room sends, as docs/protocol.md section 8 reads it. The protocol library's
// client is game-agnostic; the pages type its events with this map.

export type RoomPhase = 'lobby' | 'question' | 'reveal' | 'finished' | 'closed'

export interface SeatView {
  readonly id: string
  readonly name: string
  readonly connected: boolean
  readonly score: number
}

export interface RoomSettings {
  readonly deckId: string
  readonly questionCount: number
  readonly secondsPerQuestion: number
  readonly revealSeconds: number
  readonly maxPlayers: number
  readonly minPlayers: number
}

export interface OpenQuestion {
  readonly index: number
  readonly total: number
  readonly text: string
  readonly choices: readonly string[]
  readonly closesAt: number
  readonly answered: number
  readonly of: number
}

export interface ScoreLine {
  readonly playerId: string
  readonly points: number
  readonly total: number
}

export interface Reveal {
  readonly index: number
  readonly correct: number
  readonly counts: readonly number[]
  readonly scores: readonly ScoreLine[]
}

export interface Standing {
  readonly playerId: string
  readonly name: string
  readonly score: number
  readonly correct: number
  readonly rank: number
}

export interface RematchDecision {
  readonly accepted: boolean
  readonly playerIds: readonly string[]
}

export interface RoomStateData {
  readonly code: string
  readonly phase: RoomPhase
  readonly you: {
    readonly role: 'host' | 'player' | 'spectator'
    readonly playerId?: string
    readonly answer?: { readonly question: number; readonly choice: number }
    readonly rematchVote?: boolean
  }
  readonly host: { readonly name: string }
  readonly players: readonly SeatView[]
  readonly settings: RoomSettings
  readonly serverTime: number
  readonly question?: OpenQuestion
  readonly reveal?: Reveal & { readonly total: number; readonly nextAt?: number }
  readonly standings?: readonly Standing[]
  /** In phase finished, the game's results (section 12), as game.finished named them. */
  readonly resultsId?: string
  readonly rematch?: { readonly closesAt: number; readonly voted: number; readonly of: number; readonly decided?: RematchDecision }
}

export interface TriviaEvents {
  'room.state': RoomStateData
  'player.joined': { readonly player: SeatView }
  'player.left': { readonly playerId: string; readonly reason?: string }
  'player.presence': { readonly playerId: string; readonly connected: boolean }
  'question.open': Omit<OpenQuestion, 'answered' | 'of'> & { readonly serverTime: number }
  'question.progress': { readonly index: number; readonly answered: number; readonly of: number }
  'question.closed': Reveal
  /** `resultsId` names the game's results page (section 12); an older server sends none. */
  'game.finished': { readonly standings: readonly Standing[]; readonly resultsId?: string }
  'rematch.open': { readonly closesAt: number }
  'rematch.decided': RematchDecision
  'room.closed': { readonly reason: string }
}
