import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { deckToken, keepDeckToken } from '../../../lib/deck-tokens'
import { DeckEditorPage } from './deck-editor-page'

type Call = { url: string; method: string; body: unknown; authorization: string | null; type: string | null }

/** A fetch that answers each request with `answer` and keeps what was sent. */
function serve(answer: (call: Call) => { status: number; body?: unknown }) {
  const calls: Call[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      const type = headers.get('content-type')
      const call = {
        url,
        method: init.method ?? 'GET',
        body: type === 'application/json' ? JSON.parse(String(init.body)) : init.body,
        authorization: headers.get('authorization'),
        type,
      }
      calls.push(call)
      const { status, body } = answer(call)
      return new Response(body === undefined ? null : JSON.stringify(body), { status })
    }),
  )
  return calls
}

const ID = '5b0c6f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f'

describe(DeckEditorPage.name, () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    window.history.replaceState(null, '', '/')
  })

  it('writes a deck by keyboard and mouse, reorders it, and saves it with one POST; the token stays in this browser', async () => {
    const calls = serve(() => ({ status: 201, body: { id: ID, name: 'Space', builtin: false, questions: 2, editToken: 'tok-1' } }))
    const user = userEvent.setup()
    render(<DeckEditorPage />)
    await user.type(screen.getByLabelText('Deck name'), 'Space')
    await user.type(screen.getByLabelText('Text of question 1'), 'Red planet?')
    await user.type(screen.getByLabelText('Question 1, choice 1'), 'Venus')
    await user.type(screen.getByLabelText('Question 1, choice 2'), 'Mars')
    await user.click(screen.getByRole('radio', { name: 'Right answer: choice 2 of question 1' }))

    await user.click(screen.getByRole('button', { name: 'Add a question' }))
    // The new question has the focus, so typing goes on there.
    expect(screen.getByLabelText('Text of question 2')).toHaveFocus()
    await user.keyboard('Largest planet?')
    await user.click(screen.getByRole('button', { name: 'Add a choice to question 2' }))
    await user.type(screen.getByLabelText('Question 2, choice 1'), 'Earth')
    await user.type(screen.getByLabelText('Question 2, choice 2'), 'Jupiter')
    await user.type(screen.getByLabelText('Question 2, choice 3'), 'Mars')
    await user.click(screen.getByRole('radio', { name: 'Right answer: choice 2 of question 2' }))
    await user.click(screen.getByRole('button', { name: 'Remove choice 1 of question 2' }))
    await user.click(screen.getByRole('button', { name: 'Move up question 2' }))
    expect(screen.getByRole('button', { name: 'Move up question 1' })).toBeDisabled()

    // The preview shows the question as a player sees it: the text, and the choices as buttons named by their text.
    await user.click(screen.getByRole('button', { name: 'Preview question 2' }))
    const preview = screen.getByRole('region', { name: 'Question 2 as a player sees it' })
    expect(within(preview).getByRole('heading', { name: 'Red planet?' })).toBeInTheDocument()
    await user.click(within(preview).getByRole('button', { name: 'Venus' }))
    expect(within(preview).getByRole('status')).toHaveTextContent('Not this one: the right answer is Mars.')

    await user.click(screen.getByRole('button', { name: 'Save deck' }))
    await waitFor(() => expect(screen.getByText('Saved: Space, 2 questions.')).toBeInTheDocument())
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      url: '/api/decks',
      method: 'POST',
      body: {
        name: 'Space',
        questions: [
          { text: 'Largest planet?', choices: ['Jupiter', 'Mars'], correct: 0 },
          { text: 'Red planet?', choices: ['Venus', 'Mars'], correct: 1 },
        ],
      },
    })
    expect(deckToken(ID)).toBe('tok-1')
    expect(window.location.pathname).toBe(`/host/decks/${ID}`)
    expect(screen.getByLabelText('Edit token')).toHaveTextContent('tok-1')

    // Saving again replaces the deck with its token.
    await user.type(screen.getByLabelText('Deck name'), ' 2')
    await user.click(screen.getByRole('button', { name: 'Save deck' }))
    await waitFor(() => expect(calls).toHaveLength(2))
    expect(calls[1]).toMatchObject({ url: `/api/decks/${ID}`, method: 'PUT', authorization: 'Bearer tok-1', body: { name: 'Space 2' } })
  })

  it('says what to fix before saving, in an alert that links to each field, and sends nothing', async () => {
    const calls = serve(() => ({ status: 500 }))
    const user = userEvent.setup()
    render(<DeckEditorPage />)
    await user.type(screen.getByLabelText('Question 1, choice 1'), 'same')
    await user.type(screen.getByLabelText('Question 1, choice 2'), 'same')
    await user.click(screen.getByRole('button', { name: 'Save deck' }))
    const alert = screen.getByRole('alert')
    expect(
      within(alert)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['The deck needs a name.', 'Question 1 has no text.', 'Question 1, choice 2 is the same as choice 1.'])
    expect(screen.getByLabelText('Deck name')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Question 1, choice 2')).toHaveAttribute('aria-invalid', 'true')
    await user.click(within(alert).getByRole('link', { name: 'Question 1 has no text.' }))
    expect(screen.getByLabelText('Text of question 1')).toHaveFocus()
    expect(calls).toHaveLength(0)
  })

  it('shows a bad CSV’s line and column as a spreadsheet names them', async () => {
    const calls = serve(() => ({
      status: 400,
      body: {
        statusCode: 400,
        code: 'bad_csv',
        line: 3,
        column: 2,
        message: 'line 3, column 2: choice1 must be 1 to 120 printable characters',
      },
    }))
    const user = userEvent.setup()
    render(<DeckEditorPage />)
    await user.type(screen.getByLabelText('Deck name'), 'From a sheet')
    await user.upload(
      screen.getByLabelText('CSV file'),
      new File(['question,choice1,choice2,correct\r\n'], 'quiz.csv', { type: 'text/csv' }),
    )
    expect(await screen.findByRole('alert')).toHaveTextContent('Line 3, column 2 (B): choice1 must be 1 to 120 printable characters')
    expect(calls[0]).toMatchObject({
      url: '/api/decks/import?name=From%20a%20sheet',
      method: 'POST',
      type: 'text/csv',
      body: 'question,choice1,choice2,correct\r\n',
    })
  })

  it('opens a deck with the token this browser kept, and without one takes a pasted token', async () => {
    keepDeckToken(ID, 'kept')
    const deck = { id: ID, name: 'Kept', builtin: false, editable: true, questions: [{ text: 'Q?', choices: ['a', 'b'], correct: 1 }] }
    const calls = serve((c) =>
      c.authorization === 'Bearer kept'
        ? { status: 200, body: deck }
        : { status: 200, body: { ...deck, questions: [{ text: 'Q?', choices: ['a', 'b'] }] } },
    )
    const { unmount } = render(<DeckEditorPage id={ID} />)
    expect(await screen.findByLabelText('Deck name')).toHaveValue('Kept')
    expect(screen.getByRole('radio', { name: 'Right answer: choice 2 of question 1' })).toBeChecked()
    expect(calls[0]).toMatchObject({ url: `/api/decks/${ID}`, authorization: 'Bearer kept' })
    unmount()

    localStorage.clear()
    render(<DeckEditorPage id={ID} />)
    expect(await screen.findByText(/This browser does not hold this deck’s edit token/)).toBeInTheDocument()
    expect(screen.queryByLabelText('Deck name')).toBeNull()
    // A token copied from the device that made the deck opens it here too.
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Edit token'), 'kept')
    await user.click(screen.getByRole('button', { name: 'Edit with this token' }))
    expect(await screen.findByLabelText('Deck name')).toHaveValue('Kept')
    expect(deckToken(ID)).toBe('kept')
  })
})
