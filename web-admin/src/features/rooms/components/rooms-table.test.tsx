import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import type { RoomRow } from '../../../lib/admin-types'
import { roomRowFixture } from '../../../testing/fixtures'
import type { RoomSort } from '../utils/sort-rooms'
import { RoomsTable } from './rooms-table'

const ROOMS: RoomRow[] = [
  roomRowFixture({ code: 'BQRTXZ', mailboxDepth: 2, mailboxDepthMax: 4, commands: 50, ageSeconds: 30 }),
  roomRowFixture({ code: 'AHMPKW', mailboxDepth: 7, mailboxDepthMax: 9, commands: 5, ageSeconds: 300 }),
  roomRowFixture({ code: 'CDEFGH', mailboxDepth: 0, mailboxDepthMax: 1, phase: 'lobby', question: null, lastCommandMs: null }),
]

function Harness({ initialFilter = '' }: { readonly initialFilter?: string }) {
  const [sort, setSort] = useState<RoomSort>({ key: 'code', direction: 'asc' })
  return <RoomsTable rooms={ROOMS} filter={initialFilter} sort={sort} onSort={setSort} />
}

const codesInOrder = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.getAttribute('data-room-code'))

describe(RoomsTable.name, () => {
  it('lists every room with its mailbox depth and highlights the deepest', () => {
    render(<Harness />)
    expect(codesInOrder()).toEqual(['AHMPKW', 'BQRTXZ', 'CDEFGH'])
    const deepest = screen.getByText('AHMPKW').closest('tr')!
    expect(deepest).toHaveClass('deepest')
    expect(within(deepest).getByText('deepest')).not.toHaveClass('is-placeholder')
    expect(deepest.querySelector('[data-col="mailbox"] .mailbox-depth')).toHaveTextContent('7')
    expect(screen.getByText('BQRTXZ').closest('tr')).not.toHaveClass('deepest')
    expect(screen.getByText('CDEFGH').closest('tr')!.querySelector('[data-col="question"]')).toHaveTextContent('—')
  })

  it('sorts by a column, biggest first, and flips on a second click', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await user.click(screen.getByRole('button', { name: /Commands/ }))
    expect(codesInOrder()).toEqual(['BQRTXZ', 'CDEFGH', 'AHMPKW'])
    expect(screen.getByRole('columnheader', { name: /Commands/ })).toHaveAttribute('aria-sort', 'descending')
    await user.click(screen.getByRole('button', { name: /Commands/ }))
    expect(codesInOrder()).toEqual(['AHMPKW', 'CDEFGH', 'BQRTXZ'])
    await user.click(screen.getByRole('button', { name: /Mailbox/ }))
    expect(codesInOrder()).toEqual(['AHMPKW', 'BQRTXZ', 'CDEFGH'])
  })

  it('filters by code, in any case, and says when nothing matches', () => {
    const { rerender } = render(<RoomsTable rooms={ROOMS} filter="hmp" sort={{ key: 'code', direction: 'asc' }} onSort={() => {}} />)
    expect(codesInOrder()).toEqual(['AHMPKW'])
    rerender(<RoomsTable rooms={ROOMS} filter="zz" sort={{ key: 'code', direction: 'asc' }} onSort={() => {}} />)
    expect(screen.getByText('No room code contains “ZZ”.')).toBeInTheDocument()
  })

  it('highlights nothing when every mailbox is empty', () => {
    render(
      <RoomsTable
        rooms={ROOMS.map((r) => ({ ...r, mailboxDepth: 0 }))}
        filter=""
        sort={{ key: 'code', direction: 'asc' }}
        onSort={() => {}}
      />,
    )
    expect(document.querySelectorAll('tr.deepest')).toHaveLength(0)
    for (const tag of screen.getAllByText('deepest')) expect(tag).toHaveClass('is-placeholder')
  })
})
