import { useState, type ChangeEvent } from 'react'
import { explain, GameApiError } from '../../../lib/game-api'
import { importDeck } from '../api/import-deck'
import type { CreatedDeck } from '../api/deck-types'

export interface CsvImportProps {
  /** The name the new deck takes; the file's name when empty. */
  readonly name: string
  readonly onImported: (deck: CreatedDeck, file: string) => void
}

/** Spreadsheet columns are lettered: column 2 is B. */
const letter = (column: number) => (column >= 1 && column <= 26 ? String.fromCharCode(64 + column) : String(column))

/** Writes a sentence naming the bad cell as a spreadsheet shows it: "Line 3, column 2 (B): ...". */
function describeImportError(error: unknown): string {
  if (error instanceof GameApiError && error.code === 'bad_csv') {
    const { line, column } = error.body as { line?: number; column?: number }
    const why = error.message.replace(/^line \d+, column \d+: /, '')
    return `Line ${line}, column ${column} (${letter(Number(column))}): ${why}`
  }
  return explain(error)
}

/** Imports a CSV: a file input, the template to start from, and the server's verdict on the file. */
export function CsvImport({ name, onImported }: CsvImportProps) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target
    const file = input.files?.[0]
    if (!file) return
    setBusy(true)
    setError(null)
    try {
      const deckName = (name.trim() || file.name.replace(/\.[^.]*$/, '') || 'Imported deck').slice(0, 64)
      onImported(await importDeck(deckName, await file.text()), file.name)
    } catch (err) {
      setError(describeImportError(err))
    } finally {
      setBusy(false)
      // Clearing the input lets the person choose the same file again after fixing it.
      input.value = ''
    }
  }

  return (
    <section className="card stack" aria-labelledby="import-title">
      <h2 id="import-title">Import from a spreadsheet</h2>
      <p className="muted">
        Save the sheet as CSV: a header row, then one question a row: the question, two to six choices, and the number of the right choice
        (1 for the first); then, for the other kinds, the columns kind, seconds and accepted (the template has a row of each). Importing
        makes a new deck.
      </p>
      <a className="big-button ghost" href="/api/decks/template.csv" download="deck-template.csv">
        Download the template
      </a>
      <label className="field">
        <span>CSV file</span>
        <input
          className="input"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void choose(e)}
          disabled={busy}
          aria-describedby={error ? 'import-error' : undefined}
        />
      </label>
      {error && (
        <p id="import-error" className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
