import { choicesOf, imageOf, kindOf, type AnswerValue, type QuestionKind } from './question-kinds'
import type { OpenQuestion, Reveal, RematchDecision, RoomPhase, RoomSettings, SeatView, Standing, TriviaEvents } from './trivia-events'

/** This player's answer to one question: a choice, several, or a typed text. */
export type MyAnswer = { readonly question: number } & AnswerValue

/** The question a reveal is about, as it was asked. The reveal itself names only the question's index. */
export interface RevealedQuestion {
  readonly text: string
  readonly kind: QuestionKind
  readonly choices: readonly string[]
  readonly total: number
  readonly image?: string
}

/**
 * The room as a page shows it, folded from `room.state` and the events after it. The folding is
 * pure: the pages render the view, and the tests feed it events.
 */
export interface RoomView {
  readonly code: string
  readonly phase: RoomPhase
  readonly role: 'host' | 'player' | 'spectator'
  readonly playerId?: string
  readonly hostName: string
  readonly players: readonly SeatView[]
  readonly settings: RoomSettings
  /** Server time minus local time, so countdowns follow the server's clock, not the phone's. */
  readonly clockOffsetMs: number
  readonly question?: OpenQuestion
  /** This player's answer to the open question, as the server has it. */
  readonly myAnswer?: MyAnswer
  /** The last reveal. It is kept through the standings so that a player still sees how the last question went. */
  readonly reveal?: Reveal
  /** The last question as it was asked, for the reveal. */
  readonly revealed?: RevealedQuestion
  readonly standings?: readonly Standing[]
  /** The finished game's results (`/results/{id}`), when the server names them. */
  readonly resultsId?: string
  readonly rematch?: { readonly closesAt: number; readonly myVote?: boolean; readonly decided?: RematchDecision }
  readonly closedReason?: string
  /** The rematch that brought the room back to its lobby, until the next game starts. */
  readonly lastRematch?: RematchDecision
}

type Event = { [K in keyof TriviaEvents]: { type: K; data: TriviaEvents[K] } }[keyof TriviaEvents]

export function applyEvent(view: RoomView | undefined, event: Event, localNow: number): RoomView | undefined {
  if (event.type === 'room.state') return fromState(event.data, localNow, view)
  if (!view) return view
  switch (event.type) {
    case 'player.joined':
      return { ...view, players: [...view.players.filter((p) => p.id !== event.data.player.id), event.data.player] }
    case 'player.left':
      return { ...view, players: view.players.filter((p) => p.id !== event.data.playerId) }
    case 'player.presence':
      return { ...view, players: view.players.map((p) => (p.id === event.data.playerId ? { ...p, connected: event.data.connected } : p)) }
    case 'question.open': {
      const { serverTime, ...q } = event.data
      const inGame = view.players.length
      return {
        ...view,
        phase: 'question',
        clockOffsetMs: serverTime - localNow,
        question: { ...q, answered: 0, of: inGame },
        myAnswer: undefined,
        standings: undefined,
        rematch: undefined,
        lastRematch: undefined,
      }
    }
    case 'question.progress':
      if (!view.question || view.question.index !== event.data.index) return view
      return { ...view, question: { ...view.question, answered: event.data.answered, of: event.data.of } }
    case 'question.closed': {
      const totals = new Map(event.data.scores.map((s) => [s.playerId, s.total]))
      const q = view.question
      return {
        ...view,
        phase: 'reveal',
        reveal: event.data,
        revealed: q && q.index === event.data.index ? revealedOf(q) : view.revealed,
        question: undefined,
        players: view.players.map((p) => (totals.has(p.id) ? { ...p, score: totals.get(p.id)! } : p)),
      }
    }
    case 'game.finished':
      return { ...view, phase: 'finished', question: undefined, standings: event.data.standings, resultsId: event.data.resultsId }
    case 'rematch.open':
      return { ...view, rematch: { closesAt: event.data.closesAt } }
    case 'rematch.decided':
      return { ...view, rematch: { closesAt: view.rematch?.closesAt ?? 0, myVote: view.rematch?.myVote, decided: event.data } }
    case 'room.closed':
      return { ...view, phase: 'closed', question: undefined, closedReason: event.data.reason }
  }
  return view
}

/** Whether the room moves on when its host says so (`pace: "host"`), not by the clock. */
export function hostPaced(view: RoomView): boolean {
  const settings: object = view.settings
  return 'pace' in settings && settings.pace === 'host'
}

/** Records this player's own vote as soon as the server took it. */
export function withMyVote(view: RoomView, vote: boolean): RoomView {
  return view.rematch ? { ...view, rematch: { ...view.rematch, myVote: vote } } : view
}

/** Records this player's own answer once the server confirmed it. */
export function withMyAnswer(view: RoomView, question: number, answer: AnswerValue): RoomView {
  return view.question?.index === question ? { ...view, myAnswer: { question, ...answer } } : view
}

function revealedOf(q: OpenQuestion): RevealedQuestion {
  const image = imageOf(q)
  return { text: q.text, kind: kindOf(q), choices: choicesOf(q), total: q.total, ...(image ? { image } : {}) }
}

/** A seat's answer as room.state gives it under `you`: a choice, the choices, or the text. */
function myAnswerOf(answer: object | undefined): MyAnswer | undefined {
  if (!answer || !('question' in answer) || typeof answer.question !== 'number') return undefined
  const { question } = answer
  if ('text' in answer && typeof answer.text === 'string') return { question, text: answer.text }
  if ('choices' in answer && Array.isArray(answer.choices))
    return { question, choices: answer.choices.filter((c) => typeof c === 'number') }
  if ('choice' in answer && typeof answer.choice === 'number') return { question, choice: answer.choice }
  return undefined
}

function fromState(s: TriviaEvents['room.state'], localNow: number, before: RoomView | undefined): RoomView {
  const sameGame = before && before.code === s.code && s.phase !== 'lobby'
  return {
    code: s.code,
    phase: s.phase,
    role: s.you.role,
    playerId: s.you.playerId,
    hostName: s.host.name,
    players: s.players,
    settings: s.settings,
    clockOffsetMs: s.serverTime - localNow,
    question: s.question,
    myAnswer: myAnswerOf(s.you.answer),
    reveal: s.reveal ?? (sameGame ? before.reveal : undefined),
    revealed: sameGame ? before.revealed : undefined,
    standings: s.standings,
    // Some servers do not name the results in room.state, so a reconnect keeps what game.finished said.
    resultsId: s.phase === 'finished' ? (s.resultsId ?? (sameGame ? before.resultsId : undefined)) : undefined,
    rematch: s.rematch ? { closesAt: s.rematch.closesAt, myVote: s.you.rematchVote, decided: s.rematch.decided } : undefined,
    lastRematch: s.phase === 'lobby' ? (before?.rematch?.decided ?? before?.lastRematch) : undefined,
  }
}
