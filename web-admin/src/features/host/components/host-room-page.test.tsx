import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RoomStateData } from '../../../lib/trivia-events'
import { seatKey } from '../../../lib/use-room'
import { FakeWebSocket } from '../../../testing/fake-web-socket'
import { HostRoomPage } from './host-room-page'

const latest = () => FakeWebSocket.latest()
const nexts = () => latest().sent.filter((f) => f.type === 'room.next')

const SETTINGS = { deckId: 'd', questionCount: 2, secondsPerQuestion: 20, revealSeconds: 4, maxPlayers: 20, minPlayers: 2 }

/** A host-paced room showing the reveal of its first question of two. */
const IN_REVEAL: RoomStateData = {
  code: 'K7QMPD',
  phase: 'reveal',
  you: { role: 'host' },
  host: { name: 'Quizmaster' },
  players: [{ id: 'p1', name: 'Ann', connected: true, score: 900 }],
  settings: { ...SETTINGS, pace: 'host' },
  serverTime: Date.now(),
  reveal: { index: 0, total: 2, correct: 1, counts: [0, 1], scores: [{ playerId: 'p1', points: 900, total: 900 }] },
}

describe(HostRoomPage.name, () => {
  beforeEach(() => {
    FakeWebSocket.sockets.length = 0
    vi.stubGlobal('WebSocket', FakeWebSocket)
    sessionStorage.setItem(seatKey('host', 'K7QMPD'), 'tok-host')
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    sessionStorage.clear()
  })

  it('moves a host-paced room on with the Next button and each presenter key, one command per press', async () => {
    const user = userEvent.setup()
    render(<HostRoomPage code="K7QMPD" />)
    latest().open(IN_REVEAL)
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAccessibleDescription(
      'Open the next question. Keys: Right arrow, Page Down or Space.',
    )
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(nexts()).toHaveLength(1)
    // A second press before the first one's reply sends nothing, because a double click must not skip a question.
    await user.keyboard('{ArrowRight}')
    expect(nexts()).toHaveLength(1)
    latest().deliver({ type: 'reply', id: nexts()[0].id, status: 200, data: {} })
    for (const key of ['{ArrowRight}', '{PageDown}', ' ']) {
      await user.keyboard(key)
      const sent = nexts()
      latest().deliver({ type: 'reply', id: sent[sent.length - 1].id, status: 200, data: {} })
    }
    expect(nexts()).toHaveLength(4)
  })

  it('leaves keys typed in a field alone, and says when Next ends the game', async () => {
    const user = userEvent.setup()
    render(<HostRoomPage code="K7QMPD" />)
    latest().open({ ...IN_REVEAL, reveal: { ...IN_REVEAL.reveal!, index: 1 } })
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAccessibleDescription(
      'End the game and show the podium. Keys: Right arrow, Page Down or Space.',
    )
    const field = document.createElement('input')
    document.body.append(field)
    field.focus()
    await user.keyboard('{ArrowRight} ')
    expect(nexts()).toEqual([])
    field.remove()
  })

  it('shows no Next in a room the clock moves on, and its keys send nothing', async () => {
    const user = userEvent.setup()
    render(<HostRoomPage code="K7QMPD" />)
    latest().open({ ...IN_REVEAL, settings: { ...SETTINGS, pace: 'clock' } })
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument()
    await user.keyboard('{ArrowRight}{PageDown} ')
    expect(latest().sent).toEqual([])
  })

  it('ends a game on the podium: the top three on steps, then every player’s standing', () => {
    render(<HostRoomPage code="K7QMPD" />)
    const standings = ['Ann', 'Bob', 'Cy', 'Dee'].map((name, i) => ({
      playerId: `p${i}`,
      name,
      score: 1000 - i * 100,
      correct: 1,
      rank: i + 1,
    }))
    latest().open({ ...IN_REVEAL, phase: 'finished', reveal: undefined, standings })
    const podium = screen.getByRole('list', { name: 'Podium' })
    expect([...podium.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Ann1000 pointsPlace 1',
      'Bob900 pointsPlace 2',
      'Cy800 pointsPlace 3',
    ])
    expect(screen.getByRole('list', { name: 'Standings' }).querySelectorAll('li')).toHaveLength(4)
  })
})
