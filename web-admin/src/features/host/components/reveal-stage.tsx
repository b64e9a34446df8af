import type { ReactNode } from 'react'
import { acceptedAnswers, countsPerChoice, kindOfReveal, rightAndWrong, rightChoices } from '../../../lib/question-kinds'
import type { RoomView } from '../../../lib/room-view'
import type { Reveal } from '../../../lib/trivia-events'

const LETTERS = 'ABCDEF'

/**
 * Shows the right answer, how many chose each choice (or, for a typed answer, how many typed an
 * accepted one), and what each player scored. It never shows what anyone typed, because this is on
 * a projector.
 */
export function RevealStage({ reveal, view }: { readonly reveal: Reveal; readonly view: RoomView }) {
  const names = new Map(view.players.map((p) => [p.id, p.name]))
  const scores = [...reveal.scores].sort((a, b) => b.total - a.total)
  const typed = rightAndWrong(reveal.counts)
  const kind = view.revealed?.kind ?? kindOfReveal(reveal)
  return (
    <section className="stage reveal-stage" aria-label="Reveal">
      <div className="stage-head">
        <span className="stage-kicker">
          {kind === 'poll' ? 'Votes on question' : 'Answer to question'} {reveal.index + 1}
        </span>
      </div>
      {view.revealed && <h1 className="question-text small">{view.revealed.text}</h1>}
      {typed ? (
        <TypedCounts accepted={acceptedAnswers(reveal.correct)} right={typed.right} wrong={typed.wrong} />
      ) : (
        <ChoiceCounts reveal={reveal} view={view} poll={kind === 'poll'} />
      )}
      <table className="score-table" aria-label="Scores">
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col">This question</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {scores.map((s) => (
            <tr key={s.playerId} data-player-id={s.playerId}>
              <td>{names.get(s.playerId) ?? 'Gone'}</td>
              <td className="num">+{s.points}</td>
              <td className="num">{s.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

interface CountRowProps {
  /** Marked as the right answer. */
  readonly right: boolean
  readonly count: number
  /** The largest count of the reveal. Its bar is full. */
  readonly most: number
  readonly letter?: string
  /** The row's data attributes, for tests and styles. */
  readonly data: Readonly<Record<`data-${string}`, string | number>>
  readonly children: ReactNode
}

/** One line of a reveal: what was answered, a bar, and how many answered it. */
function CountRow({ right, count, most, letter, data, children }: CountRowProps) {
  return (
    <li className={right ? 'count-row correct' : 'count-row'} {...data}>
      {letter && (
        <span className="choice-letter" aria-hidden="true">
          {letter}
        </span>
      )}
      <span className="count-label">{children}</span>
      <span className="count-bar" aria-hidden="true">
        <span style={{ transform: `scaleX(${count / most})` }} />
      </span>
      <span className="count-number">{count}</span>
    </li>
  )
}

/** Shows each choice with how many picked it, and marks the right ones (none in a poll). */
function ChoiceCounts({ reveal, view, poll }: { readonly reveal: Reveal; readonly view: RoomView; readonly poll: boolean }) {
  const counts = countsPerChoice(reveal.counts) ?? []
  const most = Math.max(1, ...counts)
  const right = rightChoices(reveal.correct)
  return (
    <>
      {poll && <p className="reveal-note">A poll: no right answer, no points.</p>}
      <ol className="reveal-counts" aria-label={poll ? 'Votes per choice' : 'Answers per choice'}>
        {counts.map((count, i) => (
          <CountRow key={i} right={right.has(i)} count={count} most={most} letter={LETTERS[i]} data={{ 'data-choice': i }}>
            {view.revealed?.choices[i] ?? `Choice ${LETTERS[i]}`}
            {right.has(i) && <span className="correct-mark"> ✓ right answer</span>}
          </CountRow>
        ))}
      </ol>
    </>
  )
}

/** Reveals a typed answer: the accepted answers and how many typed one. What each player typed stays in the results. */
function TypedCounts({ accepted, right, wrong }: { readonly accepted: readonly string[]; readonly right: number; readonly wrong: number }) {
  const most = Math.max(1, right, wrong)
  return (
    <>
      <p className="reveal-accepted">
        Accepted: <strong>{accepted.join(', ')}</strong>
      </p>
      <ol className="reveal-counts" aria-label="Typed answers">
        <CountRow right count={right} most={most} data={{ 'data-typed': 'right' }}>
          Typed an accepted answer
        </CountRow>
        <CountRow right={false} count={wrong} most={most} data={{ 'data-typed': 'wrong' }}>
          Typed something else
        </CountRow>
      </ol>
    </>
  )
}
