import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { session } from '../../../lib/session'
import type { RefusedCommand } from '../api/get-refusals'
import { RefusalsPanel } from './refusals-panel'

function serve(respond: (url: URL) => { status: number; body: unknown }) {
  const urls: URL[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (raw: string) => {
      const url = new URL(raw, 'http://console.test')
      urls.push(url)
      const { status, body } = respond(url)
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    }),
  )
  return urls
}

const refusal = (patch: Partial<RefusedCommand> = {}): RefusedCommand => ({
  at: Date.UTC(2026, 2, 14, 9, 30, 5, 120),
  by: 'player',
  playerId: 'p-ann',
  name: 'Ann',
  type: 'room.answer',
  code: 'question_closed',
  status: 409,
  message: 'question 0 is closed',
  ...patch,
})

const page = (refusals: RefusedCommand[], next: string | null = null) => ({
  code: 'K7QMPD',
  roomId: 'r',
  live: true,
  keptDays: 7,
  refusals,
  next,
})
const panel = () => screen.getByRole('region', { name: 'Refused commands' })

describe(RefusalsPanel.name, () => {
  beforeEach(() => session.signedIn())
  afterEach(() => vi.unstubAllGlobals())

  it('lists the room’s refused commands: when, from whom, the command, its error, status and message', async () => {
    const urls = serve(() => ({
      status: 200,
      body: page([
        refusal(),
        refusal({ by: 'operator', playerId: null, name: null, type: 'room.kick', code: 'player_not_found', status: 409 }),
        refusal({ type: '', code: 'bad_frame', status: 400, message: 'frame is not valid JSON' }),
      ]),
    }))
    render(<RefusalsPanel code="K7QMPD" />)
    await within(panel()).findByText('question_closed')
    expect(urls.map((u) => u.pathname + u.search)).toEqual(['/admin/api/rooms/K7QMPD/refusals?limit=20'])
    const cells = within(panel())
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td')].slice(1).map((c) => c.textContent))
    expect(cells).toEqual([
      ['Ann', 'room.answer', 'question_closed', '409', 'question 0 is closed'],
      ['operator', 'room.kick', 'player_not_found', '409', 'question 0 is closed'],
      ['Ann', '(not a frame)', 'bad_frame', '400', 'frame is not valid JSON'],
    ])
    expect(within(panel()).getByText('newest first · kept 7 days')).toBeInTheDocument()
    // A player's id is on hover.
    expect(panel().querySelector('tbody tr:first-child [title="p-ann"]')).toHaveTextContent('Ann')
  })

  it('pages older and newer, and Refresh reads the first page again', async () => {
    const user = userEvent.setup()
    const urls = serve((url) => ({
      status: 200,
      body:
        url.searchParams.get('cursor') === 'c2' ? page([refusal({ type: 'room.older' })]) : page([refusal({ type: 'room.newer' })], 'c2'),
    }))
    render(<RefusalsPanel code="K7QMPD" />)
    await within(panel()).findByText('room.newer')
    await user.click(within(panel()).getByRole('button', { name: 'Older →' }))
    await within(panel()).findByText('room.older')
    expect(within(panel()).getByRole('button', { name: 'Older →' })).toBeDisabled()
    await user.click(within(panel()).getByRole('button', { name: '← Newer' }))
    await within(panel()).findByText('room.newer')
    await user.click(within(panel()).getByRole('button', { name: 'Refresh' }))
    await within(panel()).findByText('room.newer')
    expect(urls.map((u) => u.searchParams.get('cursor'))).toEqual([null, 'c2', null, null])
  })

  it('says when there are none, and when no room had the code', async () => {
    serve(() => ({ status: 200, body: page([]) }))
    const { unmount } = render(<RefusalsPanel code="K7QMPD" />)
    expect(await within(panel()).findByText('No refused commands.')).toBeInTheDocument()
    unmount()
    serve(() => ({ status: 404, body: { statusCode: 404, code: 'room_not_found', message: 'no' } }))
    render(<RefusalsPanel code="ZZZZZZ" />)
    expect(await within(panel()).findByRole('alert')).toHaveTextContent('No room has had code ZZZZZZ.')
  })
})
