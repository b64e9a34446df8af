import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RoomView } from '../../../lib/room-view'
import { FinishedStage } from './finished-stage'

const VIEW: RoomView = {
  code: 'K7QMPD',
  phase: 'finished',
  role: 'host',
  hostName: 'Quizmaster',
  players: [{ id: 'p1', name: 'Ann', connected: true, score: 900 }],
  settings: { deckId: 'd', questionCount: 2, secondsPerQuestion: 20, revealSeconds: 4, maxPlayers: 20, minPlayers: 1 },
  clockOffsetMs: 0,
  standings: [{ playerId: 'p1', name: 'Ann', score: 900, correct: 1, rank: 1 }],
}

describe(FinishedStage.name, () => {
  it('links the results page and the CSV when game.finished named the results', () => {
    render(<FinishedStage view={{ ...VIEW, resultsId: 'r-abc' }} />)
    expect(screen.getByRole('link', { name: 'Results page' })).toHaveAttribute('href', '/results/r-abc')
    const csv = screen.getByRole('link', { name: 'Download results (CSV)' })
    expect(csv).toHaveAttribute('href', '/api/results/r-abc.csv')
    expect(csv).toHaveAttribute('download')
  })

  it('offers no results from an older server, which names none', () => {
    render(<FinishedStage view={VIEW} />)
    expect(screen.getByRole('list', { name: 'Standings' })).toBeInTheDocument()
    expect(screen.queryAllByRole('link')).toEqual([])
  })
})
