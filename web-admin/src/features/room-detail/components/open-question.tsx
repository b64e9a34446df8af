import { Panel } from '../../../components/panel'
import type { OpenQuestion as OpenQuestionData } from '../../../lib/admin-types'
import { useNow } from '../../../hooks/use-now'

export interface OpenQuestionProps {
  readonly question: OpenQuestionData | null
  readonly phase: string
  readonly serverOffsetMs: number
}

/** Shows the question on screen now and the time left on the server's clock. */
export function OpenQuestion({ question, phase, serverOffsetMs }: OpenQuestionProps) {
  const now = useNow(250)
  if (!question) {
    return (
      <Panel title="Question">
        <p className="empty">
          {phase === 'lobby'
            ? 'Waiting in the lobby; no game running.'
            : phase === 'reveal'
              ? 'Revealing the answer.'
              : 'No question open.'}
        </p>
      </Panel>
    )
  }
  const leftMs = Math.max(0, question.closesAt - (now + serverOffsetMs))
  return (
    <Panel title="Question" aside={<span className="muted">{(leftMs / 1000).toFixed(1)} s left</span>}>
      <div className="question">
        <span className="question-index">
          Q{question.index + 1}
          <span className="muted"> / {question.total}</span>
        </span>
        <p className="question-text">{question.text}</p>
      </div>
      <div className="progress" aria-hidden="true">
        <span className="progress-fill" style={{ width: `${Math.min(100, ((question.index + 1) / question.total) * 100)}%` }} />
      </div>
    </Panel>
  )
}
