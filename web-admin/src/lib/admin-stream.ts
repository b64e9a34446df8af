import type { InstancesSnapshot, Overview, RoomDetail, RoomsSnapshot } from './admin-types'

// The admin push stream (server-sent events). One connection feeds every view. It sends
// `overview`, `rooms` and `instances` about once a second, plus `room` or `room-gone` for the room
// being watched. Nothing in the console polls. When this stream is down, the views say so and keep
// their last data.

export type StreamMessage =
  | { readonly type: 'overview'; readonly data: Overview }
  | { readonly type: 'rooms'; readonly data: RoomsSnapshot }
  | { readonly type: 'instances'; readonly data: InstancesSnapshot }
  | { readonly type: 'room'; readonly data: RoomDetail }
  | { readonly type: 'room-gone'; readonly data: { readonly code: string } }

const MESSAGE_TYPES: readonly StreamMessage['type'][] = ['overview', 'rooms', 'instances', 'room', 'room-gone']

export type StreamPhase = 'connecting' | 'live' | 'down'

export interface StreamStatus {
  readonly phase: StreamPhase
  /** When the stream last delivered a message (epoch ms), or null before the first. */
  readonly lastMessageAt: number | null
  /** When the current outage began, for "down for 12 s". */
  readonly downSince: number | null
  /** When the next reconnect attempt is due, if this stream scheduled one (rather than EventSource). */
  readonly retryAt: number | null
}

/** The part of EventSource the stream uses, so tests can hand in a fake. */
export interface EventSourceLike {
  readonly readyState: number
  onopen: ((this: EventSourceLike, ev: Event) => unknown) | null
  onerror: ((this: EventSourceLike, ev: Event) => unknown) | null
  addEventListener(type: string, listener: (ev: MessageEvent<string>) => void): void
  close(): void
}

export interface AdminStreamOptions {
  readonly url: (room: string | null) => string
  readonly createEventSource?: (url: string) => EventSourceLike
  readonly now?: () => number
  /** Called when the server ends the stream for good (a 401 looks like this), before retrying. */
  readonly onClosedByServer?: () => void
  /** After this long with no message, the connection is presumed dead and opened again. */
  readonly silenceMs?: number
  readonly backoffMs?: readonly number[]
}

const EVENT_SOURCE_CLOSED = 2
const DEFAULT_BACKOFF_MS = [1000, 2000, 4000, 8000, 15000]

type MessageListener = (message: StreamMessage) => void
type StatusListener = () => void

export class AdminStream {
  private source: EventSourceLike | null = null
  private room: string | null = null
  private running = false
  private failures = 0
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private silenceTimer: ReturnType<typeof setTimeout> | null = null
  private statusValue: StreamStatus = { phase: 'connecting', lastMessageAt: null, downSince: null, retryAt: null }
  private readonly messageListeners = new Set<MessageListener>()
  private readonly statusListeners = new Set<StatusListener>()
  private readonly options: AdminStreamOptions
  private readonly now: () => number
  private readonly createEventSource: (url: string) => EventSourceLike

  constructor(options: AdminStreamOptions) {
    this.options = options
    this.now = options.now ?? Date.now
    this.createEventSource = options.createEventSource ?? ((url) => new EventSource(url) as unknown as EventSourceLike)
  }

  get status(): StreamStatus {
    return this.statusValue
  }

  get watchedRoom(): string | null {
    return this.room
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.open()
  }

  stop(): void {
    this.running = false
    this.clearTimers()
    this.closeSource()
  }

  /** Asks the server for one room's detail as well (or for none), and reopens the connection. */
  watchRoom(code: string | null): void {
    const next = code ? code.toUpperCase() : null
    if (next === this.room) return
    this.room = next
    if (!this.running) return
    // A deliberate reopen is not an outage, so the phase stays and only the connection is swapped.
    this.clearTimers()
    this.closeSource()
    this.open()
  }

  onMessage(listener: MessageListener): () => void {
    this.messageListeners.add(listener)
    return () => this.messageListeners.delete(listener)
  }

  subscribeStatus = (listener: StatusListener): (() => void) => {
    this.statusListeners.add(listener)
    return () => this.statusListeners.delete(listener)
  }

  getStatus = (): StreamStatus => this.statusValue

  private open(): void {
    const source = this.createEventSource(this.options.url(this.room))
    this.source = source
    source.onopen = () => {
      if (this.source !== source) return
      this.armSilenceTimer()
    }
    source.onerror = () => {
      if (this.source !== source) return
      this.markDown(null)
      if (source.readyState === EVENT_SOURCE_CLOSED) {
        // EventSource gives up on HTTP errors (401, 404, 5xx) and wrong content types. It only
        // retries by itself after a network error, so this opens a new one with backoff.
        this.closeSource()
        this.options.onClosedByServer?.()
        this.scheduleReopen()
      }
    }
    for (const type of MESSAGE_TYPES) {
      source.addEventListener(type, (event) => {
        if (this.source !== source) return
        this.receive(type, event.data)
      })
    }
  }

  private receive(type: StreamMessage['type'], raw: string): void {
    let data: unknown
    try {
      data = JSON.parse(raw)
    } catch {
      return
    }
    this.failures = 0
    this.setStatus({ phase: 'live', lastMessageAt: this.now(), downSince: null, retryAt: null })
    this.armSilenceTimer()
    const message = { type, data } as StreamMessage
    for (const listener of this.messageListeners) listener(message)
  }

  private markDown(retryAt: number | null): void {
    const previous = this.statusValue
    this.setStatus({
      phase: 'down',
      lastMessageAt: previous.lastMessageAt,
      downSince: previous.downSince ?? this.now(),
      retryAt,
    })
  }

  private scheduleReopen(): void {
    const backoff = this.options.backoffMs ?? DEFAULT_BACKOFF_MS
    const delay = backoff[Math.min(this.failures, backoff.length - 1)]
    this.failures++
    this.markDown(this.now() + delay)
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      if (this.running) this.open()
    }, delay)
  }

  private armSilenceTimer(): void {
    if (this.silenceTimer) clearTimeout(this.silenceTimer)
    // The server sends every second, so a silent connection is as good as down. A proxy holding the
    // connection open, or a laptop waking from sleep, can leave it silent.
    this.silenceTimer = setTimeout(() => {
      this.silenceTimer = null
      if (!this.running) return
      this.closeSource()
      this.markDown(null)
      this.scheduleReopen()
    }, this.options.silenceMs ?? 5000)
  }

  private closeSource(): void {
    if (this.silenceTimer) clearTimeout(this.silenceTimer)
    this.silenceTimer = null
    const source = this.source
    this.source = null
    if (source) {
      source.onopen = null
      source.onerror = null
      source.close()
    }
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    if (this.silenceTimer) clearTimeout(this.silenceTimer)
    this.silenceTimer = null
  }

  private setStatus(next: StreamStatus): void {
    const prev = this.statusValue
    if (
      prev.phase === next.phase &&
      prev.lastMessageAt === next.lastMessageAt &&
      prev.downSince === next.downSince &&
      prev.retryAt === next.retryAt
    )
      return
    this.statusValue = next
    for (const listener of this.statusListeners) listener()
  }
}

/**
 * The stream's address, with the room being watched, if any. The address carries no token. An
 * EventSource cannot send an Authorization header, so the browser's session cookie signs the
 * stream instead. A token in a URL would sit in every proxy's access log, and the server refuses
 * one.
 */
export function adminStreamUrl(api: string, room: string | null): string {
  return room ? `${api}/stream?${new URLSearchParams({ room }).toString()}` : `${api}/stream`
}
