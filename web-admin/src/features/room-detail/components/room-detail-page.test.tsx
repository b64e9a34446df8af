import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AdminStream } from '../../../lib/admin-stream'
import { LiveProvider } from '../../../lib/live-provider'
import { LiveStore } from '../../../lib/live-store'
import { session } from '../../../lib/session'
import { FakeEventSource } from '../../../testing/fake-event-source'
import { roomDetailFixture } from '../../../testing/fixtures'
import { RoomDetailPage } from './room-detail-page'

type FetchCall = { url: string; init: RequestInit }

/** The room's refused commands, as the panel below the commands reads them. */
const REFUSALS = {
  code: 'K7QMPD',
  roomId: 'r',
  live: true,
  keptDays: 7,
  next: null,
  refusals: [
    { at: 1, by: 'player', playerId: 'p-bob', name: 'Bob', type: 'room.answer', code: 'question_closed', status: 409, message: 'closed' },
  ],
}

function mockFetch(respond: (call: FetchCall) => Response) {
  const calls: FetchCall[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url.includes('/refusals?')) return json(200, REFUSALS)
      const call = { url, init }
      calls.push(call)
      return respond(call)
    }),
  )
  return calls
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function renderPage() {
  const stream = new AdminStream({ url: (room) => `/admin/api/stream?room=${room}`, createEventSource: (url) => new FakeEventSource(url) })
  const store = new LiveStore(stream)
  render(
    <LiveProvider store={store}>
      <RoomDetailPage code="k7qmpd" />
    </LiveProvider>,
  )
  return store
}

describe(RoomDetailPage.name, () => {
  beforeEach(() => {
    FakeEventSource.reset()
    session.signedIn()
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('watches the room on the stream and shows players, the question and the last commands', async () => {
    mockFetch(() => json(200, roomDetailFixture()))
    renderPage()
    expect(await screen.findByText('Which planet has the most moons?')).toBeInTheDocument()
    expect(FakeEventSource.latest().url).toBe('/admin/api/stream?room=K7QMPD')
    const players = screen.getByRole('region', { name: 'Players' })
    expect(
      within(players)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('.player-name')?.textContent),
    ).toEqual(['Ann', 'Bob', 'Cy'])
    expect(within(players).getByText('2 of 3 connected')).toBeInTheDocument()
    const log = screen.getByRole('region', { name: 'Last commands' })
    // The log lists the newest command first.
    expect(within(log).getAllByRole('row')[1]).toHaveTextContent('409')

    act(() => FakeEventSource.latest().emit('room', roomDetailFixture({ hostName: 'Hugo', players: [] })))
    expect(screen.getByText('hosted by Hugo')).toBeInTheDocument()
    expect(screen.getByText('No players have joined.')).toBeInTheDocument()
  })

  it('kicks a player after a confirmation and shows the result', async () => {
    const user = userEvent.setup()
    const calls = mockFetch(({ init }) => (init.method === 'POST' ? new Response(null, { status: 204 }) : json(200, roomDetailFixture())))
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Kick Bob' }))
    const dialog = screen.getByRole('dialog', { name: 'Kick Bob?' })
    // Focus starts on Cancel, so Enter alone does not kick.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    expect(calls.filter((c) => c.init.method === 'POST')).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Kick Bob' }))
    expect(await screen.findByText(/Kicked Bob from K7QMPD/)).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    const kick = calls.find((c) => c.init.method === 'POST')!
    expect(kick.url).toMatch(/\/admin\/api\/rooms\/K7QMPD\/kick$/)
    expect(JSON.parse(String(kick.init.body))).toEqual({ playerId: 'p-bob' })
    // The session cookie signs the request, so the console sends no token.
    expect(new Headers(kick.init.headers).get('authorization')).toBeNull()
    expect(kick.init.credentials).toBe('same-origin')
  })

  it('keeps the dialog open with the error when the kick fails', async () => {
    const user = userEvent.setup()
    mockFetch(({ init }) =>
      init.method === 'POST' ? json(404, { statusCode: 404, code: 'player_not_found', message: 'no' }) : json(200, roomDetailFixture()),
    )
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Kick Ann' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Kick Ann' }))
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('player_not_found (404)')
  })

  it('closes the room after a confirmation', async () => {
    const user = userEvent.setup()
    const calls = mockFetch(({ init }) => (init.method === 'POST' ? new Response(null, { status: 204 }) : json(200, roomDetailFixture())))
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Close room' }))
    await user.click(within(screen.getByRole('dialog', { name: 'Close room K7QMPD?' })).getByRole('button', { name: 'Close room' }))
    expect(await screen.findByText(/Closed room K7QMPD/)).toBeInTheDocument()
    expect(calls.find((c) => c.init.method === 'POST')!.url).toMatch(/\/rooms\/K7QMPD\/close$/)
  })

  it('says so when the room is not live, and still shows its refused commands', async () => {
    mockFetch(() => json(404, { statusCode: 404, code: 'room_not_found', message: 'gone' }))
    renderPage()
    expect(await screen.findByText(/Room K7QMPD is not live/)).toBeInTheDocument()
    expect(await within(screen.getByRole('region', { name: 'Refused commands' })).findByText('question_closed')).toBeInTheDocument()
  })

  it('shows the room’s refused commands below its last commands', async () => {
    mockFetch(() => json(200, roomDetailFixture()))
    renderPage()
    const refused = await screen.findByRole('region', { name: 'Refused commands' })
    expect(await within(refused).findByText('question_closed')).toBeInTheDocument()
    expect(within(refused).getByText('Bob')).toBeInTheDocument()
  })

  it('marks the last known state when the stream says the room is gone', async () => {
    mockFetch(() => json(200, roomDetailFixture()))
    renderPage()
    await screen.findByText('Which planet has the most moons?')
    act(() => FakeEventSource.latest().emit('room-gone', { code: 'K7QMPD' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Room K7QMPD is no longer live')
    expect(screen.queryByRole('button', { name: /Kick/ })).not.toBeInTheDocument()
  })
})
