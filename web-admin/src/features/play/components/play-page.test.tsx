import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RoomStateData } from '../../../lib/trivia-events'
import { seatKey } from '../../../lib/use-room'
import { PlayPage } from './play-page'

/** A WebSocket the test opens, feeds and breaks; each one the page opens is kept in `sockets`. */
class FakeWebSocket {
  static readonly sockets: FakeWebSocket[] = []
  readyState = 0
  onopen: ((e: unknown) => void) | null = null
  onmessage: ((e: { data: unknown }) => void) | null = null
  onclose: ((e: { code: number; reason: string }) => void) | null = null
  onerror: ((e: unknown) => void) | null = null
  readonly sent: { id: string; type: string; data: Record<string, unknown> }[] = []
  readonly url: string

  constructor(url: string) {
    this.url = url
    FakeWebSocket.sockets.push(this)
  }
  send(text: string) {
    this.sent.push(JSON.parse(text))
  }
  close() {
    this.readyState = 3
  }
  open(state: RoomStateData) {
    act(() => {
      this.readyState = 1
      this.onopen?.({})
      this.deliver({ type: 'room.state', seq: 1, data: state })
    })
  }
  deliver(frame: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(frame) }))
  }
  drop(code = 1006) {
    act(() => {
      this.readyState = 3
      this.onclose?.({ code, reason: '' })
    })
  }
}

const latest = () => FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]

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

    // The reply is lost with this socket too: the next one resends under the same id.
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

    // Resumed 30 s later: the room's state comes again, its question's close moved on by the time held.
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
})
