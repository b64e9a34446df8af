import { DASH, formatMs } from '../../../lib/format'
import type { Standing } from '../../../lib/trivia-events'
import type { QuestionResult } from '../api/results-types'
import { KIND_NAMES } from '../../../lib/question-kinds'
import { answerLabel, answerRows, correctLabel, formatPercent, meanMs, pollVotes, resultKind } from '../utils/results-summary'

export interface QuestionResultsProps {
  readonly question: QuestionResult
  readonly standings: readonly Standing[]
  readonly hardest: boolean
  readonly slowest: boolean
}

/** Shows one question: its text and kind, the right answer (or a poll's votes), how many got it, and every player's answer. */
export function QuestionResults({ question, standings, hardest, slowest }: QuestionResultsProps) {
  const n = question.index + 1
  const kind = resultKind(question)
  const headingId = `results-question-${question.index}`
  const mean = meanMs(question)
  return (
    <section className="card stack results-question" aria-labelledby={headingId} data-question-index={question.index}>
      <h3 id={headingId} className="results-question-title">
        <span className="results-question-number">Question {n}</span> {question.text}
      </h3>
      <p className="results-tags">
        <span className="results-tag kind" data-kind={kind}>
          {KIND_NAMES[kind]}
        </span>
        {hardest && <span className="results-tag">Hardest</span>}
        {slowest && <span className="results-tag">Slowest</span>}
      </p>
      <dl className="results-figures">
        <div>
          <dt>{kind === 'multi' ? 'Right answers' : kind === 'text' ? 'Accepted answers' : 'Right answer'}</dt>
          <dd data-figure="correct">{correctLabel(question)}</dd>
        </div>
        {kind === 'poll' ? (
          <div>
            <dt>Votes</dt>
            <dd data-figure="votes">
              {pollVotes(question)
                .map((v) => `${v.label} ${v.votes}`)
                .join(' · ')}
            </dd>
          </div>
        ) : (
          <div>
            <dt>Answered right</dt>
            <dd data-figure="right-rate">{formatPercent(question.rightRate)}</dd>
          </div>
        )}
        <div>
          <dt>Mean time</dt>
          <dd data-figure="mean-ms">{formatMs(mean)}</dd>
        </div>
      </dl>
      <div className="results-table-scroll">
        <table className="score-table results-table">
          <caption className="visually-hidden">Answers to question {n}</caption>
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col">{kind === 'text' ? 'Typed' : 'Choice'}</th>
              <th scope="col">Right</th>
              <th scope="col" className="num">
                Points
              </th>
              <th scope="col" className="num">
                Time
              </th>
            </tr>
          </thead>
          <tbody>
            {answerRows(question, standings).map((a) => {
              const given = answerLabel(question, a)
              return (
                <tr key={a.playerId} data-player-id={a.playerId}>
                  <th scope="row">{a.name}</th>
                  <td>{given ?? <span className="muted">{a.joinedLater ? 'Not yet joined' : 'No answer'}</span>}</td>
                  <td className={a.right ? 'results-right' : 'results-wrong'}>
                    {kind === 'poll' || given === undefined ? DASH : a.right ? 'Right' : 'Wrong'}
                  </td>
                  <td className="num">{a.points}</td>
                  <td className="num">{formatMs(a.ms)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </section>
  )
}
