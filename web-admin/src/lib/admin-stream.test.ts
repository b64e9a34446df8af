import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeEventSource } from '../testing/fake-event-source'
import { overviewFixture } from '../testing/fixtures'
import { AdminStream, adminStreamUrl, type StreamMessage } from './admin-stream'

function createStream(onClosedByServer = vi.fn()) {
  const stream = new AdminStream({
    url: (room) => adminStreamUrl('/admin/api', room),
    createEventSource: (url) => new FakeEventSource(url),
    onClosedByServer,
    backoffMs: [1000, 2000, 4000],
    silenceMs: 5000,
  })
  const messages: StreamMessage[] = []
  stream.onMessage((m) => messages.push(m))
  return { stream, messages, onClosedByServer }
}

describe(AdminStream.name, () => {
  beforeEach(() => {
    vi.useFakeTimers()
    FakeEventSource.reset()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('opens the stream with no token in its URL (the cookie signs it) and, when watching, the room', () => {
    const { stream } = createStream()
    stream.start()
    expect(FakeEventSource.latest().url).toBe('/admin/api/stream')
    stream.watchRoom('k7qmpd')
    expect(FakeEventSource.instances[0].closed).toBe(true)
    expect(FakeEventSource.latest().url).toBe('/admin/api/stream?room=K7QMPD')
    stream.watchRoom(null)
    expect(FakeEventSource.latest().url).toBe('/admin/api/stream')
    expect(FakeEventSource.instances).toHaveLength(3)
  })

  it('escapes the watched room in its URL and never adds a token', () => {
    expect(adminStreamUrl('/admin/api', 'A&token=x')).toBe('/admin/api/stream?room=A%26token%3Dx')
  })

  it('delivers parsed messages and is live from the first one', () => {
    const { stream, messages } = createStream()
    stream.start()
    expect(stream.status.phase).toBe('connecting')
    FakeEventSource.latest().open()
    FakeEventSource.latest().emit('overview', overviewFixture())
    FakeEventSource.latest().emit('room-gone', { code: 'K7QMPD' })
    expect(messages.map((m) => m.type)).toEqual(['overview', 'room-gone'])
    expect(messages[0].data).toEqual(overviewFixture())
    expect(stream.status.phase).toBe('live')
  })

  it('shows a dropped connection as down and lets EventSource retry it', () => {
    const { stream, onClosedByServer } = createStream()
    stream.start()
    const source = FakeEventSource.latest()
    source.open()
    source.emit('rooms', { rooms: [] })
    source.drop()
    expect(stream.status.phase).toBe('down')
    expect(stream.status.downSince).not.toBeNull()
    expect(onClosedByServer).not.toHaveBeenCalled()
    expect(FakeEventSource.instances).toHaveLength(1)
    source.open()
    source.emit('rooms', { rooms: [] })
    expect(stream.status).toMatchObject({ phase: 'live', downSince: null })
  })

  it('opens a new EventSource with backoff when the server ends the stream', () => {
    const { stream, onClosedByServer } = createStream()
    stream.start()
    FakeEventSource.latest().fail()
    expect(onClosedByServer).toHaveBeenCalledTimes(1)
    expect(stream.status.phase).toBe('down')
    expect(stream.status.retryAt).toBe(Date.now() + 1000)
    vi.advanceTimersByTime(999)
    expect(FakeEventSource.instances).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeEventSource.instances).toHaveLength(2)
    FakeEventSource.latest().fail()
    vi.advanceTimersByTime(1999)
    expect(FakeEventSource.instances).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(FakeEventSource.instances).toHaveLength(3)
    // A message resets the backoff.
    FakeEventSource.latest().emit('rooms', { rooms: [] })
    FakeEventSource.latest().fail()
    vi.advanceTimersByTime(1000)
    expect(FakeEventSource.instances).toHaveLength(4)
  })

  it('treats a silent connection as dead and reopens it', () => {
    const { stream } = createStream()
    stream.start()
    FakeEventSource.latest().open()
    FakeEventSource.latest().emit('rooms', { rooms: [] })
    vi.advanceTimersByTime(4999)
    expect(stream.status.phase).toBe('live')
    vi.advanceTimersByTime(1)
    expect(stream.status.phase).toBe('down')
    expect(FakeEventSource.instances[0].closed).toBe(true)
    vi.advanceTimersByTime(1000)
    expect(FakeEventSource.instances).toHaveLength(2)
  })

  it('closes everything on stop and ignores the old connection', () => {
    const { stream, messages } = createStream()
    stream.start()
    const source = FakeEventSource.latest()
    stream.stop()
    expect(source.closed).toBe(true)
    source.emit('rooms', { rooms: [] })
    vi.advanceTimersByTime(60_000)
    expect(messages).toEqual([])
    expect(FakeEventSource.instances).toHaveLength(1)
  })
})
