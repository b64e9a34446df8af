import { useState } from 'react'
import { explain } from '../../../lib/game-api'
import { downloadFile } from '../../../lib/download-file'
import { exportDeckCsv } from '../api/export-deck'
import { getDeck } from '../api/get-deck'
import { deckJson, exportFileName } from '../utils/deck-export'

export interface DeckExportProps {
  /** The saved deck and its edit token; none for a deck not saved yet. */
  readonly deck?: { readonly id: string; readonly name: string; readonly editToken: string }
  /** True when the editor holds changes not saved yet. An export is of the saved deck, so it waits for a save. */
  readonly unsaved: boolean
}

/** Exports the saved deck as the CSV that the import reads (the server writes it), or as the JSON that the deck API takes. */
export function DeckExport({ deck, unsaved }: DeckExportProps) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const save = async (format: 'csv' | 'json') => {
    if (!deck) return
    setBusy(true)
    setError(null)
    try {
      if (format === 'csv') {
        // The file starts with a byte order mark, so that a spreadsheet reads it as UTF-8. The import drops the mark.
        downloadFile(exportFileName(deck.name, 'csv'), 'text/csv;charset=utf-8', `\uFEFF${await exportDeckCsv(deck.id, deck.editToken)}`)
      } else {
        downloadFile(exportFileName(deck.name, 'json'), 'application/json', deckJson(await getDeck(deck.id, deck.editToken)))
      }
    } catch (err) {
      setError(explain(err))
    } finally {
      setBusy(false)
    }
  }
  const ready = deck !== undefined && !unsaved
  return (
    <section className="card stack" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p className="muted" id="export-hint">
        {!deck
          ? 'Save the deck to export it.'
          : unsaved
            ? 'Save your changes first: an export is of the saved deck.'
            : 'A CSV that the import (here or in a spreadsheet) reads back, or JSON for the deck API. Pictures go by their id on this server.'}
      </p>
      <div className="deck-actions">
        {(['csv', 'json'] as const).map((format) => (
          <button
            key={format}
            type="button"
            className="big-button ghost"
            disabled={!ready || busy}
            aria-describedby="export-hint"
            onClick={() => void save(format)}
          >
            Export as {format.toUpperCase()}
          </button>
        ))}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
