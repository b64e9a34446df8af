import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RoomStateData } from '../../../lib/trivia-events'
import { seatKey } from '../../../lib/use-room'
import { FakeWebSocket } from '../../../testing/fake-web-socket'
import { PlayPage } from './play-page'

const latest = () => FakeWebSocket.latest()

const IN_QUESTION: RoomStateData = {
  code: 'K7QMPD',
  phase: 'question',
  you: { role: 'player', playerId: 'p1' },
  host: { name: 'Quizmaster' },
  players: [
    { id: 'p1', name: 'Ann', connected: true, score: 0 },
    { id: 'p2', name: 'Bob', connected: true, score: 0 },
  ],
  settings: { deckId: 'd', questionCount: 2, secondsPerQuestion: 20, revealSeconds: 4, maxPlayers: 20, minPlayers: 2 },
  serverTime: Date.now(),
  question: {
    index: 0,
    total: 2,
    text: 'Which planet is red?',
    choices: ['Venus', 'Mars'],
    closesAt: Date.now() + 20_000,
    answered: 0,
    of: 2,
  },
}

describe(PlayPage.name, () => {
  beforeEach(() => {
    FakeWebSocket.sockets.length = 0
    vi.stubGlobal('WebSocket', FakeWebSocket)
    sessionStorage.setItem(seatKey('player', 'K7QMPD'), 'tok-ann')
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    sessionStorage.clear()
  })

  it('resumes with the token kept in session storage, and names the choices by their text', async () => {
    render(<PlayPage code="K7QMPD" />)
    expect(latest().url).toMatch(/\/ws\?token=tok-ann$/)
    latest().open(IN_QUESTION)
    expect(screen.getByRole('heading', { name: 'Which planet is red?' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Mars' })).toHaveAttribute('aria-pressed', 'false')
  })

  it('an answer chosen while the socket is down goes out once on the next socket, and once only', async () => {
    const user = userEvent.setup()
    render(<PlayPage code="K7QMPD" />)
    latest().open(IN_QUESTION)
    latest().drop()
    expect(screen.getByText('Connection lost, reconnecting…')).toHaveAttribute('role', 'status')
    await user.click(screen.getByRole('button', { name: 'Mars' }))
    expect(screen.getByText('You chose Mars; it will be sent when you are back online.')).toBeInTheDocument()
    // A second tap while waiting sends nothing more.
    await user.click(screen.getByRole('button', { name: 'Venus' }))

    await waitFor(() => expect(FakeWebSocket.sockets).toHaveLength(2), { timeout: 2000 })
    latest().open(IN_QUESTION)
    expect(latest().sent).toEqual([{ id: expect.any(String), type: 'room.answer', data: { question: 0, choice: 1 } }])
    const { id } = latest().sent[0]

    // The reply is lost with this socket too, and the next socket resends under the same id.
    latest().drop()
    await waitFor(() => expect(FakeWebSocket.sockets).toHaveLength(3), { timeout: 2000 })
    latest().open(IN_QUESTION)
    expect(latest().sent).toEqual([{ id, type: 'room.answer', data: { question: 0, choice: 1 } }])
    latest().deliver({ type: 'reply', id, status: 200, data: { accepted: true } })
    await screen.findByText('Answer in: Mars. Waiting for the others…')
    expect(screen.getByRole('button', { name: 'Mars' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.queryByText('Connection lost, reconnecting…')).not.toBeInTheDocument()
  })

  it('shows the pause while the room cannot record anything, takes no answer, and counts down again once it resumes', async () => {
    render(<PlayPage code="K7QMPD" />)
    latest().open(IN_QUESTION)
    expect(screen.getByRole('timer')).toHaveAccessibleName(/^\d+ seconds left$/)
    latest().deliver({ type: 'room.paused', seq: 2, data: { reason: 'storage', since: Date.now() } })
    expect(screen.getByText('Reconnecting to storage… The clock is paused until the game can go on.')).toHaveAttribute('role', 'status')
    expect(screen.getByRole('timer')).toHaveAccessibleName('Clock paused: reconnecting to storage')
    expect(screen.getByText('The clock is paused: answer when it runs again.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Mars' })).toHaveAttribute('aria-disabled', 'true')

    // The room resumes 30 s later. Its state comes again, with the question's close moved on by the time held.
    latest().deliver({ type: 'room.resumed', seq: 3, data: { heldMs: 30_000 } })
    latest().deliver({
      type: 'room.state',
      seq: 4,
      data: { ...IN_QUESTION, serverTime: Date.now(), question: { ...IN_QUESTION.question!, closesAt: Date.now() + 12_000 } },
    })
    expect(screen.queryByText(/Reconnecting to storage/)).not.toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveAccessibleName(/^\d+ seconds left$/)
    expect(screen.getByRole('button', { name: 'Mars' })).not.toHaveAttribute('aria-disabled')
  })

  it('stops for good when the host removes the seat (4003), and forgets the token', async () => {
    render(<PlayPage code="K7QMPD" />)
    latest().open(IN_QUESTION)
    latest().drop(4003)
    await screen.findByText('The host removed you from the room.')
    expect(sessionStorage.getItem(seatKey('player', 'K7QMPD'))).toBeNull()
    expect(FakeWebSocket.sockets).toHaveLength(1)
  })

  it('stops when a newer screen takes the seat (4010), says so, and keeps the token for a reload', async () => {
    render(<PlayPage code="K7QMPD" />)
    latest().open(IN_QUESTION)
    latest().drop(4010)
    await screen.findByText('Your seat was opened on another screen. Reload this page to play here again.')
    expect(sessionStorage.getItem(seatKey('player', 'K7QMPD'))).toBe('tok-ann')
    expect(FakeWebSocket.sockets).toHaveLength(1)
  })

  it('answers a multi question with every ticked choice and one Submit, and shows its picture', async () => {
    const user = userEvent.setup()
    render(<PlayPage code="K7QMPD" />)
    latest().open({
      ...IN_QUESTION,
      question: {
        ...IN_QUESTION.question!,
        kind: 'multi',
        text: 'Which are planets?',
        choices: ['Mars', 'Moon', 'Venus'],
        image: '/api/images/i1',
      },
    })
    expect(screen.getByRole('img', { name: 'The question’s picture' })).toHaveAttribute('src', '/api/images/i1')
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled()
    await user.click(screen.getByRole('checkbox', { name: 'Venus' }))
    await user.click(screen.getByRole('checkbox', { name: 'Mars' }))
    await user.click(screen.getByRole('button', { name: 'Submit' }))
    expect(latest().sent).toEqual([{ id: expect.any(String), type: 'room.answer', data: { question: 0, choices: [0, 2] } }])
    latest().deliver({ type: 'reply', id: latest().sent[0].id, status: 200, data: { accepted: true } })
    await screen.findByText('Answer in: Mars, Venus. Waiting for the others…')
    expect(screen.getByRole('checkbox', { name: 'Moon' })).toBeDisabled()
  })

  it('answers a text question with what was typed, its spaces tidied', async () => {
    const user = userEvent.setup()
    render(<PlayPage code="K7QMPD" />)
    latest().open({ ...IN_QUESTION, question: { ...IN_QUESTION.question!, kind: 'text', text: 'Capital of France?', choices: undefined } })
    expect(screen.queryAllByRole('button', { name: /Venus|Mars/ })).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Submit' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Type an answer first.')
    await user.type(screen.getByLabelText('Your answer'), '  Paris   la belle {Enter}')
    expect(latest().sent).toEqual([{ id: expect.any(String), type: 'room.answer', data: { question: 0, text: 'Paris la belle' } }])
  })

  it('tells a player who joined during a question that it plays from the next one', async () => {
    sessionStorage.clear()
    const user = userEvent.setup()
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ playerId: 'p3', playerToken: 'tok-cy' }), { status: 201 })),
    )
    render(<PlayPage code="K7QMPD" />)
    await user.type(screen.getByLabelText('Your name'), 'Cy')
    await user.click(screen.getByRole('button', { name: 'Join' }))
    await waitFor(() => expect(FakeWebSocket.sockets).toHaveLength(1))
    latest().open({
      ...IN_QUESTION,
      you: { role: 'player', playerId: 'p3' },
      players: [...IN_QUESTION.players, { id: 'p3', name: 'Cy', connected: true, score: 0 }],
    })
    expect(screen.getByText('The game has started: you play from the next question.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Mars' })).not.toBeInTheDocument()
    // The question's reveal has no score for Cy, who was not in it. The next question is Cy's.
    latest().deliver({ type: 'question.closed', seq: 2, data: { index: 0, correct: 1, counts: [0, 2], scores: [] } })
    expect(screen.getByText('The game has started: you play from the next question.')).toBeInTheDocument()
    latest().deliver({
      type: 'question.open',
      seq: 3,
      data: {
        index: 1,
        total: 2,
        text: 'Largest planet?',
        choices: ['Jupiter', 'Mars'],
        closesAt: Date.now() + 20_000,
        serverTime: Date.now(),
      },
    })
    expect(screen.getByRole('button', { name: 'Jupiter' })).toBeInTheDocument()
  })
})
