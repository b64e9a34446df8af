import { formatMs } from '../../../lib/format'
import type { QuestionResult } from '../api/results-types'
import { formatPercent, meanMs } from '../utils/results-summary'

export interface ResultsCalloutsProps {
  readonly hardest?: QuestionResult
  readonly slowest?: QuestionResult
}

/** Names the hardest question (lowest right-answer rate) and the slowest (longest mean time) up front. */
export function ResultsCallouts({ hardest, slowest }: ResultsCalloutsProps) {
  if (!hardest && !slowest) return null
  return (
    <section className="card stack" aria-labelledby="results-callouts">
      <h2 id="results-callouts">Hardest and slowest</h2>
      <dl className="results-callouts">
        {hardest && (
          <div data-callout="hardest">
            <dt>Hardest question</dt>
            <dd>
              Question {hardest.index + 1}: {hardest.text}{' '}
              <span className="muted">({formatPercent(hardest.rightRate)} answered right)</span>
            </dd>
          </div>
        )}
        {slowest && (
          <div data-callout="slowest">
            <dt>Slowest question</dt>
            <dd>
              Question {slowest.index + 1}: {slowest.text} <span className="muted">({formatMs(meanMs(slowest))} on average)</span>
            </dd>
          </div>
        )}
      </dl>
    </section>
  )
}
