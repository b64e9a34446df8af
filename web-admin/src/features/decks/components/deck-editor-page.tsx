import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { Link } from '../../../components/link'
import { deckToken, forgetDeckToken, keepDeckToken } from '../../../lib/deck-tokens'
import { explain, GameApiError } from '../../../lib/game-api'
import { navigate } from '../../../lib/router'
import { createDeck } from '../api/create-deck'
import { deleteDeck } from '../api/delete-deck'
import type { CreatedDeck, DeckBody, DeckDetails } from '../api/deck-types'
import { duplicateDeck } from '../api/duplicate-deck'
import { getDeck } from '../api/get-deck'
import { replaceDeck } from '../api/replace-deck'
import { imagePath } from '@game-rooms/client'
import {
  DECK_RULES,
  draftFrom,
  edit,
  emptyDraft,
  fieldId,
  hasRightAnswers,
  problemsOf,
  toBody,
  type DeckDraft,
  type Problem,
} from '../utils/deck-draft'
import { CsvImport } from './csv-import'
import { DeckExport } from './deck-export'
import { ImageUpload } from '../image-upload'
import { QuestionEditor } from './question-editor'
import { QuestionPreview } from './question-preview'

type Loaded =
  | { readonly state: 'loading' }
  | { readonly state: 'editing' }
  /** The deck exists, but this browser holds no (valid) edit token for it. */
  | { readonly state: 'locked'; readonly deck: DeckDetails; readonly why: string }
  | { readonly state: 'failed'; readonly message: string }
  | { readonly state: 'deleted' }

/** The page at `/host/decks/new` and `/host/decks/{id}`, where a host writes a deck, imports one from a CSV, saves or deletes it. */
export function DeckEditorPage({ id }: { readonly id?: string }) {
  const [draft, setDraft] = useState<DeckDraft>(emptyDraft)
  const [deckId, setDeckId] = useState<string | undefined>(undefined)
  const [loaded, setLoaded] = useState<Loaded>(id ? { state: 'loading' } : { state: 'editing' })
  const [saved, setSaved] = useState<string | null>(null)
  const [problems, setProblems] = useState<readonly Problem[]>([])
  const [saveError, setSaveError] = useState<string | null>(null)
  const [status, setStatus] = useState('')
  const [shownToken, setShownToken] = useState<string | null>(null)
  const [previewKey, setPreviewKey] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const summaryRef = useRef<HTMLDivElement>(null)
  const focusNew = useRef(false)
  // This counts the tries to load the deck, so that a pasted token loads it again.
  const [attempt, setAttempt] = useState(0)

  // When the path names another deck, the editor switches to it. `/host/decks/new` is a blank deck.
  // Any other deck is loaded (below), unless it is the deck this page just saved. This is decided
  // while rendering, as React advises.
  const [pathId, setPathId] = useState(id)
  if (id !== pathId) {
    setPathId(id)
    if (!id) {
      setDraft(emptyDraft())
      setDeckId(undefined)
      setSaved(null)
      setLoaded({ state: 'editing' })
      setProblems([])
      setSaveError(null)
      setShownToken(null)
    } else if (id !== deckId) {
      setLoaded({ state: 'loading' })
    }
  }

  // A question just added gets the focus, so a keyboard goes on writing there.
  useEffect(() => {
    if (!focusNew.current) return
    focusNew.current = false
    const last = draft.questions[draft.questions.length - 1]
    if (last) document.getElementById(fieldId.text(last))?.focus()
  }, [draft.questions])

  useEffect(() => {
    if (!id || id === deckId) return
    let live = true
    const token = deckToken(id)
    getDeck(id, token).then(
      (deck) => {
        if (!live) return
        if (token && hasRightAnswers(deck)) {
          const next = draftFrom(deck)
          setDraft(next)
          setSaved(JSON.stringify(toBody(next)))
          setDeckId(deck.id)
          setLoaded({ state: 'editing' })
        } else {
          setLoaded({
            state: 'locked',
            deck,
            why: deck.editable ? 'This browser does not hold this deck’s edit token.' : 'Nobody can change this deck.',
          })
        }
      },
      (err) => {
        if (!live) return
        if (token && err instanceof GameApiError && err.status === 403) {
          // The token this browser kept, or the one that was pasted, is not this deck's.
          forgetDeckToken(id)
          getDeck(id).then(
            (deck) => live && setLoaded({ state: 'locked', deck, why: 'That edit token is not this deck’s.' }),
            (again) => live && setLoaded({ state: 'failed', message: explain(again) }),
          )
          return
        }
        setLoaded({ state: 'failed', message: explain(err) })
      },
    )
    return () => {
      live = false
    }
  }, [id, deckId, attempt])

  const body = useMemo(() => JSON.stringify(toBody(draft)), [draft])
  const unsaved = body !== saved
  const invalid = useMemo(() => new Set(problems.map((p) => p.field)), [problems])
  const previewIndex = Math.max(
    0,
    draft.questions.findIndex((q) => q.key === previewKey),
  )
  const update = (change: (d: DeckDraft) => DeckDraft) => setDraft((d) => change(d))

  /** The deck as the API takes it, or null after showing what to fix first. */
  const checked = (): DeckBody | null => {
    setSaveError(null)
    setStatus('')
    const found = problemsOf(draft)
    setProblems(found)
    if (found.length === 0) return toBody(draft)
    // The summary takes focus, so a screen reader reads it and the host can follow its links.
    requestAnimationFrame(() => summaryRef.current?.focus())
    return null
  }

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const deck = checked()
    if (!deck) return
    setBusy(true)
    try {
      const token = deckId ? deckToken(deckId) : undefined
      if (deckId && token) {
        await replaceDeck(deckId, token, deck)
      } else {
        const created = await createDeck(deck)
        adopt(created)
      }
      setSaved(JSON.stringify(deck))
      setStatus(`Saved: ${deck.name}, ${deck.questions.length} question${deck.questions.length === 1 ? '' : 's'}.`)
    } catch (err) {
      setSaveError(explain(err))
    } finally {
      setBusy(false)
    }
  }

  /** Takes a deck the server just made. This browser keeps its token, and the address becomes the deck's. */
  const adopt = (created: CreatedDeck) => {
    keepDeckToken(created.id, created.editToken)
    setShownToken(created.editToken)
    setDeckId(created.id)
    navigate(`/host/decks/${created.id}`)
  }

  /** Makes a new deck with the saved deck's questions (and copies of its pictures), and moves the editor to it. */
  const duplicate = async () => {
    const deck = checked()
    if (!deck || unsaved) return
    setBusy(true)
    try {
      const copy = await duplicateDeck(deck, DECK_RULES.name, (created) => keepDeckToken(created.id, created.editToken))
      setShownToken(copy.editToken)
      setStatus(`Duplicated as a new deck, ${copy.name}: you are editing the copy now.`)
      navigate(`/host/decks/${copy.id}`)
    } catch (err) {
      setSaveError(explain(err))
    } finally {
      setBusy(false)
    }
  }

  const imported = (created: CreatedDeck, file: string) => {
    setProblems([])
    setSaveError(null)
    keepDeckToken(created.id, created.editToken)
    setShownToken(created.editToken)
    setStatus(`Imported ${created.questions} question${created.questions === 1 ? '' : 's'} from ${file} as a new deck, ${created.name}.`)
    // The new deck loads from the server, as it will be played.
    navigate(`/host/decks/${created.id}`)
  }

  const remove = async () => {
    if (!deckId) return
    const token = deckToken(deckId)
    if (!token) return
    setBusy(true)
    try {
      await deleteDeck(deckId, token)
      forgetDeckToken(deckId)
      setStatus('')
      setLoaded({ state: 'deleted' })
    } catch (err) {
      setSaveError(explain(err))
    } finally {
      setBusy(false)
      setConfirmDelete(false)
    }
  }

  const takeToken = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const token = String(new FormData(event.currentTarget).get('token') ?? '').trim()
    if (!id || !token) return
    keepDeckToken(id, token)
    setLoaded({ state: 'loading' })
    setAttempt((n) => n + 1)
  }

  const back = (
    <Link to={deckId ? `/host?deck=${deckId}` : '/host'} className="muted">
      {deckId ? 'Host a game with this deck' : 'Back to hosting a game'}
    </Link>
  )

  if (loaded.state === 'loading') {
    return (
      <main className="people-page deck-editor">
        <p className="muted center" role="status">
          Loading the deck…
        </p>
      </main>
    )
  }
  if (loaded.state === 'failed' || loaded.state === 'deleted') {
    return (
      <main className="people-page deck-editor">
        <div className="card stack" role={loaded.state === 'failed' ? 'alert' : 'status'}>
          <h1 className="title">{loaded.state === 'failed' ? 'This deck cannot be opened' : 'Deck deleted'}</h1>
          {loaded.state === 'failed' && <p>{loaded.message}</p>}
          <Link to="/host/decks/new" className="big-button">
            Write a new deck
          </Link>
          <Link to="/host" className="big-button ghost">
            Host a game
          </Link>
        </div>
      </main>
    )
  }
  if (loaded.state === 'locked') {
    return (
      <main className="people-page deck-editor">
        <h1 className="title">{loaded.deck.name}</h1>
        <div className="card stack">
          <p>
            {loaded.why} It has {loaded.deck.questions.length} questions; you can host a game with it.
          </p>
          {loaded.deck.editable && (
            <form className="stack" onSubmit={takeToken}>
              <label className="field">
                <span>Edit token</span>
                <input className="input mono" name="token" autoComplete="off" spellCheck={false} />
              </label>
              <button type="submit" className="big-button">
                Edit with this token
              </button>
            </form>
          )}
          <Link to={`/host?deck=${loaded.deck.id}`} className="big-button primary">
            Host a game with this deck
          </Link>
        </div>
      </main>
    )
  }

  const previewed = draft.questions[previewIndex]
  const editToken = deckId ? deckToken(deckId) : undefined
  const savedDeck = deckId && editToken ? { id: deckId, name: draft.name.trim(), editToken } : undefined
  return (
    <main className="people-page deck-editor">
      <h1 className="title">{deckId ? 'Edit deck' : 'Write a deck'}</h1>
      {back}
      <div className="deck-editor-body">
        <form className="stack" onSubmit={(e) => void save(e)} noValidate aria-label="Deck">
          <div className="card stack">
            <div className="field">
              <label htmlFor={fieldId.name}>Deck name</label>
              <input
                id={fieldId.name}
                className="input"
                value={draft.name}
                maxLength={DECK_RULES.name}
                aria-invalid={invalid.has(fieldId.name) || undefined}
                onChange={(e) => update((d) => edit.rename(d, e.target.value))}
              />
            </div>
            <p className="hint">
              {draft.questions.length} of up to {DECK_RULES.maxQuestions} questions, each with {DECK_RULES.minChoices} to{' '}
              {DECK_RULES.maxChoices} choices.
            </p>
          </div>

          <ol className="deck-questions" aria-label="Questions">
            {draft.questions.map((q, i) => (
              <QuestionEditor
                key={q.key}
                question={q}
                index={i}
                count={draft.questions.length}
                invalid={invalid}
                previewing={previewed?.key === q.key}
                update={update}
                onPreview={() => setPreviewKey(q.key)}
                picture={
                  savedDeck ? (
                    <ImageUpload
                      deckId={savedDeck.id}
                      editToken={savedDeck.editToken}
                      imageId={q.image}
                      label={`Picture for question ${i + 1}`}
                      onUploaded={(imageId) => update((d) => edit.setImage(d, i, imageId))}
                      onRemoved={() => update((d) => edit.setImage(d, i, undefined))}
                    />
                  ) : (
                    <p className="hint">Save the deck to give this question a picture.</p>
                  )
                }
              />
            ))}
          </ol>
          <button
            id="add-question"
            type="button"
            className="big-button"
            disabled={draft.questions.length >= DECK_RULES.maxQuestions}
            onClick={() => {
              focusNew.current = true
              update(edit.addQuestion)
              setStatus(`Question ${draft.questions.length + 1} added.`)
            }}
          >
            Add a question
          </button>

          <div ref={summaryRef} tabIndex={-1} className="deck-problems">
            {problems.length > 0 && (
              <div className="card stack" role="alert" aria-labelledby="problems-title">
                <h2 id="problems-title" className="error">
                  {problems.length === 1 ? 'One thing to fix before saving' : `${problems.length} things to fix before saving`}
                </h2>
                <ul className="plain-list">
                  {problems.slice(0, 20).map((p) => (
                    <li key={p.field + p.message}>
                      <a href={`#${p.field}`} onClick={(e) => (e.preventDefault(), document.getElementById(p.field)?.focus())}>
                        {p.message}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {saveError && (
              <p className="error" role="alert">
                {saveError}
              </p>
            )}
          </div>
          <div className="deck-actions">
            <button type="submit" className="big-button primary" disabled={busy}>
              Save deck
            </button>
            {deckId && (
              <button
                type="button"
                className="big-button ghost"
                disabled={busy || unsaved}
                title={unsaved ? 'Save your changes first' : undefined}
                onClick={() => void duplicate()}
              >
                Duplicate deck
              </button>
            )}
            {deckId && !confirmDelete && (
              <button type="button" className="big-button ghost" disabled={busy} onClick={() => setConfirmDelete(true)}>
                Delete deck
              </button>
            )}
          </div>
          {confirmDelete && (
            <div className="card stack" role="group" aria-labelledby="delete-title">
              <p id="delete-title">Delete this deck for good? A game already playing it keeps its questions.</p>
              <div className="deck-actions">
                <button type="button" className="big-button danger" disabled={busy} onClick={() => void remove()}>
                  Delete for good
                </button>
                <button type="button" className="big-button" autoFocus onClick={() => setConfirmDelete(false)}>
                  Keep it
                </button>
              </div>
            </div>
          )}
          <p className="deck-status" role="status">
            {status}
            {deckId && unsaved && status === '' ? 'Unsaved changes.' : ''}
          </p>
          {shownToken && (
            <div className="card stack deck-token">
              <p>This browser keeps the deck’s edit token. To edit the deck from another device, copy it now; it is not shown again:</p>
              <code className="mono deck-token-value" aria-label="Edit token">
                {shownToken}
              </code>
            </div>
          )}
        </form>
        <aside className="deck-side stack" aria-label="Preview and import">
          {previewed && (
            <QuestionPreview
              question={previewed}
              index={previewIndex}
              total={draft.questions.length}
              seconds={20}
              image={previewed.image ? imagePath(previewed.image) : undefined}
            />
          )}
          <DeckExport deck={savedDeck} unsaved={unsaved} />
          <CsvImport name={draft.name} onImported={imported} />
        </aside>
      </div>
    </main>
  )
}
