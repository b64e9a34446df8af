import { useState, type FormEvent } from 'react'
import { explain } from '../../../lib/game-api'
import { navigate } from '../../../lib/router'
import { openTable } from '../api/open-table'
import { tableKey } from '../api/use-table'

/** Takes a person from the start page to a card practice table: it asks for a name, then opens the table's page with its seat. */
export function PracticeForm() {
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [opening, setOpening] = useState(false)

  const open = async (event: FormEvent) => {
    event.preventDefault()
    if (!name.trim()) return setError('Enter a name to sit down with.')
    setOpening(true)
    setError(null)
    try {
      const table = await openTable(name.trim())
      // The token stays in this tab only, as a player's seat does.
      window.sessionStorage.setItem(tableKey(table.code), table.playerToken)
      navigate(`/table/${table.code}`)
    } catch (err) {
      setError(explain(err))
      setOpening(false)
    }
  }

  return (
    <form className="card stack" onSubmit={(e) => void open(e)} noValidate aria-label="Practice cards">
      <p className="muted">Practise Texas Hold’em for play money against bots.</p>
      <label className="field">
        <span>Name at the table</span>
        <input
          className="input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoComplete="nickname"
          maxLength={32}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'practice-error' : undefined}
        />
      </label>
      {error && (
        <p id="practice-error" className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="big-button" disabled={opening}>
        Practice cards
      </button>
    </form>
  )
}
